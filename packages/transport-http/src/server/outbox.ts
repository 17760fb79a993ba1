// One outgoing stream of a connection (the connection stream or one session's stream): the
// messages the agent wrote for it, in order, until a reader takes them. At most one reader at a
// time (a second GET is refused, RT9); while none is attached, messages wait here, counted against
// the connection's buffer limit by the owner through `onSize`.
//
// With retention (streams that resume, RT26), every message has an event id (1, 2, … per stream),
// and the last messages handed to a reader are kept, bounded by count and characters, so that a
// reader that comes back with the id of the last event it got is given everything after it again;
// what fell out of the window is reported as a gap, never skipped silently.
import { __transportKit } from "@acpkit/core";

const { createDeferred } = __transportKit;
type Deferred = ReturnType<typeof createDeferred>;

/** How many handed-out messages a stream keeps for a reader that comes back. */
export interface Retention {
  maxEvents: number;
  maxChars: number;
}

/** Messages taken together: `texts[i]` is event `firstId + i`. */
export interface OutboxBatch {
  readonly firstId: number;
  readonly texts: readonly string[];
}

/** Takes the messages of one outbox until released or the outbox ends. */
export interface OutboxReader {
  /**
   * Every message waiting now, oldest first, up to about `maxChars` characters (at least one); waits
   * when none is. Undefined once the outbox ended or this reader was released. One write of a
   * batch costs the connection one system call instead of one per message.
   */
  nextBatch(maxChars: number): Promise<OutboxBatch | undefined>;
  /** Give up the outbox (the HTTP response closed) so another reader may take it. Idempotent. */
  release(): void;
  /** Why the outbox ended (its connection's close reason), once it has. */
  readonly endReason: string | undefined;
  /** Whether events carry ids (the outbox keeps a retention window). */
  readonly resumable: boolean;
  /** Events the reader asked for again that are no longer kept (from–to, inclusive). */
  readonly gap: { from: number; to: number } | undefined;
}

export class Outbox {
  private queue: string[] = [];
  private head = 0;
  /** The event id of queue[head]. */
  private nextId = 1;
  /** Handed-out texts kept for a returning reader: ids nextId - (retained.length - retainedHead) … nextId - 1. */
  private retained: string[] = [];
  private retainedHead = 0;
  private retainedChars = 0;
  private reader: object | undefined;
  private waiting: Deferred | undefined;
  private ended = false;
  private reason: string | undefined;
  /** Characters of message text waiting here. */
  size = 0;

  /** `onSize` hears every change of `size` (+ when a message is queued, − when it is taken). */
  constructor(
    private readonly onSize: (delta: number) => void,
    private readonly retention?: Retention,
  ) {}

  get hasReader(): boolean {
    return this.reader !== undefined;
  }

  push(text: string): void {
    if (this.ended) return;
    this.queue.push(text);
    this.size += text.length;
    this.onSize(text.length);
    this.wake();
  }

  /**
   * Attach the one reader, or undefined when another is attached or the outbox ended. With
   * retention, `lastEventId` (the id of the last event the reader got before) replays what came
   * after it.
   */
  acquire(lastEventId?: number): OutboxReader | undefined {
    if (this.reader !== undefined || this.ended) return undefined;
    const gap = this.retention !== undefined && lastEventId !== undefined ? this.rewind(lastEventId) : undefined;
    const token = {};
    this.reader = token;
    const outbox = this;
    const attached = () => this.reader === token;
    return {
      nextBatch: async (maxChars) => {
        while (attached()) {
          if (this.head < this.queue.length) {
            const firstId = this.nextId;
            const texts = [this.take()];
            let chars = texts[0]!.length;
            while (this.head < this.queue.length && chars + (this.queue[this.head] as string).length <= maxChars) {
              const text = this.take();
              chars += text.length;
              texts.push(text);
            }
            return { firstId, texts };
          }
          if (this.ended) return undefined;
          this.waiting ??= createDeferred();
          await this.waiting.promise;
        }
        return undefined;
      },
      release: () => {
        if (!attached()) return;
        this.reader = undefined;
        this.wake();
      },
      get endReason() {
        return outbox.reason;
      },
      resumable: this.retention !== undefined,
      gap,
    };
  }

  /** No more messages: a waiting reader gets undefined once the queue is read; what is queued stays readable. */
  end(reason?: string): void {
    this.ended = true;
    this.reason ??= reason;
    this.wake();
  }

  /** Drop everything queued and kept (the connection is gone). */
  discard(): void {
    this.ended = true;
    if (this.size > 0) this.onSize(-this.size);
    this.size = 0;
    this.queue = [];
    this.head = 0;
    this.retained = [];
    this.retainedHead = 0;
    this.retainedChars = 0;
    this.reader = undefined;
    this.wake();
  }

  /** Put the kept events after `lastEventId` back in front of the queue; the ids no longer kept, if any. */
  private rewind(lastEventId: number): { from: number; to: number } | undefined {
    const kept = this.retained.length - this.retainedHead;
    const oldest = this.nextId - kept;
    // An id beyond what was handed out, or the last one: nothing to give again.
    if (!Number.isInteger(lastEventId) || lastEventId >= this.nextId - 1 || lastEventId < 0) return undefined;
    const from = Math.max(lastEventId + 1, oldest);
    const again = this.retained.slice(this.retainedHead + (from - oldest));
    let chars = 0;
    for (const text of again) chars += text.length;
    this.retained.length -= again.length;
    this.retainedChars -= chars;
    this.queue = [...again, ...this.queue.slice(this.head)];
    this.head = 0;
    this.nextId = from;
    this.size += chars;
    this.onSize(chars);
    return lastEventId + 1 < oldest ? { from: lastEventId + 1, to: oldest - 1 } : undefined;
  }

  private take(): string {
    const text = this.queue[this.head] as string;
    this.queue[this.head++] = "";
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.nextId++;
    this.size -= text.length;
    this.onSize(-text.length);
    if (this.retention !== undefined) this.keep(text, this.retention);
    return text;
  }

  private keep(text: string, retention: Retention): void {
    this.retained.push(text);
    this.retainedChars += text.length;
    while (
      this.retained.length - this.retainedHead > retention.maxEvents ||
      (this.retainedChars > retention.maxChars && this.retained.length - this.retainedHead > 1)
    ) {
      this.retainedChars -= (this.retained[this.retainedHead] as string).length;
      this.retained[this.retainedHead++] = "";
    }
    if (this.retainedHead > 1024 && this.retainedHead * 2 > this.retained.length) {
      this.retained.splice(0, this.retainedHead);
      this.retainedHead = 0;
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve();
  }
}
