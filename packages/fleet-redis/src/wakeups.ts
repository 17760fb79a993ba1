// Waking stream readers: an append publishes on the stream's channel, and every reader waiting on
// that stream, on any node, looks again. One subscriber connection per backend; a channel is
// subscribed while at least one reader waits on it. A lost message (a reconnect in between) costs
// a reader at most its periodic recheck, never an event: the events themselves are in the stream.
import type { Redis } from "ioredis";

export class Wakeups {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly subscriber: Redis) {
    subscriber.on("message", (channel: string) => {
      for (const wake of [...(this.waiters.get(channel) ?? [])]) wake();
    });
  }

  /** Resolves when `channel` is published on, `signal` aborts, or `ready()` (checked once subscribed) already holds. */
  async wait(channel: string, signal: AbortSignal, ready: () => Promise<boolean>): Promise<void> {
    if (signal.aborted) return;
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    let set = this.waiters.get(channel);
    if (set === undefined) {
      set = new Set();
      this.waiters.set(channel, set);
    }
    set.add(wake);
    const onAbort = () => wake();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      if (set.size === 1) await this.subscriber.subscribe(channel);
      // Checked after subscribing, so an append between the caller's read and now is not missed.
      if (await ready()) return;
      await woken;
    } catch {
      // The server is unreachable: the caller's recheck deadline (the signal) paces the retries.
      await woken;
    } finally {
      signal.removeEventListener("abort", onAbort);
      set.delete(wake);
      if (set.size === 0 && this.waiters.get(channel) === set) {
        this.waiters.delete(channel);
        void this.subscriber.unsubscribe(channel).catch(() => {});
      }
    }
  }

  async close(): Promise<void> {
    for (const set of this.waiters.values()) for (const wake of set) wake();
    this.waiters.clear();
    this.subscriber.disconnect();
  }
}
