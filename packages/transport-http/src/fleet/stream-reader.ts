// A GET stream on a fleet node: the OutboxReader the SSE writer takes, fed from a stream in the
// backend, whichever node owns the connection. The reader holds the stream's lease while attached
// (a second reader gets 409, RT9) and renews it; events it hands out move the stream's cursor, so
// the next reader, on this node or another, starts after them (or, resuming, after its
// Last-Event-ID).
import type { OutboxBatch, OutboxReader } from "../server/outbox.js";
import type { FleetBackend, ReaderStart, StreamRef, StreamRetention } from "./backend.js";

/** A reader that waits for events also looks again this often, in case a wake-up was lost. */
const RECHECK_MS = 1000;
/** The pause before a read or cursor move that failed (the backend unreachable) is tried again. */
const RETRY_MS = 100;

export interface FleetReaderOptions {
  readonly backend: FleetBackend;
  readonly ref: StreamRef;
  /** Who holds the lease (unique per reader). */
  readonly holder: string;
  readonly leaseMs: number;
  readonly retention: StreamRetention;
  /** Whether events carry ids (resume is on). */
  readonly resumable: boolean;
  /** Streams one connection may have (the connection stream and its session streams). */
  readonly maxStreams: number;
  /** Called once, when the reader is released. */
  readonly onRelease?: () => void;
}

/** Open a reader on a backend stream; "busy" or "gone" when it cannot be had. */
export async function openFleetReader(options: FleetReaderOptions, lastEventId: number | undefined): Promise<OutboxReader | "busy" | "gone" | "full"> {
  const { backend, ref, holder, leaseMs, maxStreams } = options;
  const start = await backend.openReader(ref, holder, leaseMs, options.resumable ? lastEventId : undefined, maxStreams);
  if (typeof start === "string") return start;
  return new FleetStreamReader(options, start);
}

class FleetStreamReader implements OutboxReader {
  readonly resumable: boolean;
  readonly gap: { from: number; to: number } | undefined;
  endReason: string | undefined;
  private position: number;
  private readonly released = new AbortController();
  private readonly renewal: ReturnType<typeof setInterval>;

  constructor(
    private readonly options: FleetReaderOptions,
    start: ReaderStart,
  ) {
    this.resumable = options.resumable;
    this.gap = start.gap === undefined ? undefined : { ...start.gap };
    this.position = start.after;
    // Renew well inside the lease, so a live reader never loses it to a slow tick.
    this.renewal = setInterval(
      () => {
        options.backend.renewReader(options.ref, options.holder, options.leaseMs).then(
          (held) => {
            if (!held) this.release();
          },
          () => {},
        );
      },
      Math.max(100, Math.floor(options.leaseMs / 3)),
    );
    this.renewal.unref?.();
  }

  /**
   * The next events after this reader's position. While the backend is unreachable the stream stays
   * open and the read is tried again; the cursor is moved before the events are handed out, so the
   * next reader never gets them a second time.
   */
  async nextBatch(maxChars: number): Promise<OutboxBatch | undefined> {
    const { backend, ref } = this.options;
    while (!this.released.signal.aborted) {
      const read = await this.retrying(() => backend.read(ref, this.position, maxChars));
      if (read === undefined) return undefined;
      if (read.events.length > 0) {
        const first = read.events[0]!;
        const last = read.events[read.events.length - 1]!;
        this.position = last.id;
        let chars = 0;
        for (const event of read.events) chars += event.text.length;
        const moved = await this.retrying(() => backend.advance(ref, this.options.holder, last.id, chars, this.options.retention).then(() => true));
        if (moved === undefined) return undefined;
        return { firstId: first.id, texts: read.events.map((event) => event.text) };
      }
      if (read.ended !== undefined) {
        this.endReason = read.ended;
        return undefined;
      }
      const recheck = AbortSignal.any([this.released.signal, AbortSignal.timeout(RECHECK_MS)]);
      await backend.waitForEvents(ref, this.position, recheck).catch(() => new Promise((resolve) => setTimeout(resolve, RETRY_MS)));
    }
    return undefined;
  }

  /** `operation`'s result, tried again after each failure until it succeeds or the reader is released (then undefined). */
  private async retrying<T>(operation: () => Promise<T>): Promise<T | undefined> {
    while (!this.released.signal.aborted) {
      try {
        return await operation();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    return undefined;
  }

  release(): void {
    if (this.released.signal.aborted) return;
    this.released.abort();
    this.options.onRelease?.();
    clearInterval(this.renewal);
    void this.options.backend.releaseReader(this.options.ref, this.options.holder).catch(() => {});
  }
}
