// The tap's record of what it saw, kept for pages that open (or reload) later, and handed live to
// the pages that are open. Both are bounded: the record keeps the newest events up to a count and
// a byte budget, and a page that reads too slowly is skipped (told how many it missed) instead of
// queuing without end in this process.
import type { TapEvent, TapMessageEvent, TapStatusEvent } from "../common/protocol.js";

/** A page following the record: `send` writes one event; `backlog` says how many bytes wait unsent. */
export interface EventSubscriber {
  send(text: string): void;
  backlog(): number;
}

/** Bounds of an EventLog. */
export interface EventLogLimits {
  /** Events kept for late pages (default 20,000). */
  maxEvents?: number;
  /** Bytes of event text kept for late pages (default 64 MiB). */
  maxBytes?: number;
  /** A page with more than this many bytes unsent misses events until it catches up (default 8 MiB). */
  maxBacklog?: number;
}

interface Follower {
  subscriber: EventSubscriber;
  missed: number;
}

export class EventLog {
  readonly #events: { text: string; event: TapEvent }[] = [];
  #head = 0;
  #bytes = 0;
  #seq = 0;
  /** Events let go from the front of the record. */
  #forgotten = 0;
  readonly #followers = new Set<Follower>();
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #maxBacklog: number;

  constructor(limits: EventLogLimits = {}) {
    this.#maxEvents = limits.maxEvents ?? 20_000;
    this.#maxBytes = limits.maxBytes ?? 64 * 1024 * 1024;
    this.#maxBacklog = limits.maxBacklog ?? 8 * 1024 * 1024;
  }

  /** How many events are kept now. */
  get size(): number {
    return this.#events.length - this.#head;
  }

  /** Record a message line and pass it to every page. */
  message(direction: TapMessageEvent["direction"], bytes: number, text: string | undefined): void {
    const event: TapMessageEvent = { type: "message", seq: ++this.#seq, time: Date.now(), direction, bytes };
    if (text !== undefined) event.text = text;
    this.#add(event);
  }

  /** Record a status line (agent started, ended, …) and pass it to every page. */
  status(message: string): void {
    const event: TapStatusEvent = { type: "status", seq: ++this.#seq, time: Date.now(), message };
    this.#add(event);
  }

  /** Send the record so far to `subscriber`, then every new event; returns the unsubscribe. */
  follow(subscriber: EventSubscriber): () => void {
    if (this.#forgotten > 0) subscriber.send(JSON.stringify({ type: "gap", missed: this.#forgotten }));
    for (let i = this.#head; i < this.#events.length; i++) subscriber.send(this.#events[i]!.text);
    const follower: Follower = { subscriber, missed: 0 };
    this.#followers.add(follower);
    return () => this.#followers.delete(follower);
  }

  #add(event: TapEvent): void {
    const text = JSON.stringify(event);
    this.#events.push({ text, event });
    this.#bytes += text.length;
    while (this.size > this.#maxEvents || (this.#bytes > this.#maxBytes && this.size > 1)) {
      this.#bytes -= this.#events[this.#head]!.text.length;
      this.#head++;
      this.#forgotten++;
    }
    // Compact now and then rather than shifting on every event.
    if (this.#head > 4096 && this.#head * 2 > this.#events.length) {
      this.#events.splice(0, this.#head);
      this.#head = 0;
    }
    for (const follower of this.#followers) {
      if (follower.subscriber.backlog() > this.#maxBacklog) {
        follower.missed++;
        continue;
      }
      if (follower.missed > 0) {
        follower.subscriber.send(JSON.stringify({ type: "gap", missed: follower.missed }));
        follower.missed = 0;
      }
      follower.subscriber.send(text);
    }
  }
}
