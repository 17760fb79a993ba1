// One outgoing stream of a connection (the connection stream or one session's stream): the
// messages the agent wrote for it, in order, until a reader takes them. At most one reader at a
// time (a second GET is refused, RT9); while none is attached, messages wait here, counted against
// the connection's buffer limit by the owner through `onSize`.
import { __transportKit } from "@acpkit/core";

const { createDeferred } = __transportKit;
type Deferred = ReturnType<typeof createDeferred>;

/** Takes the messages of one outbox, one at a time, until released or the outbox ends. */
export interface OutboxReader {
  /**
   * Every message waiting now, oldest first, up to about `maxChars` characters (at least one); waits
   * when none is. Undefined once the outbox ended or this reader was released. One write of a
   * batch costs the connection one system call instead of one per message.
   */
  nextBatch(maxChars: number): Promise<string[] | undefined>;
  /** Give up the outbox (the HTTP response closed) so another reader may take it. Idempotent. */
  release(): void;
  /** Why the outbox ended (its connection's close reason), once it has. */
  readonly endReason: string | undefined;
}

export class Outbox {
  private readonly queue: string[] = [];
  private head = 0;
  private reader: object | undefined;
  private waiting: Deferred | undefined;
  private ended = false;
  private reason: string | undefined;
  /** Characters of message text waiting here. */
  size = 0;

  /** `onSize` hears every change of `size` (+ when a message is queued, − when it is taken). */
  constructor(private readonly onSize: (delta: number) => void) {}

  get hasReader(): boolean {
    return this.reader !== undefined;
  }

  get isEmpty(): boolean {
    return this.head === this.queue.length;
  }

  push(text: string): void {
    if (this.ended) return;
    this.queue.push(text);
    this.size += text.length;
    this.onSize(text.length);
    this.wake();
  }

  /** Attach the one reader, or undefined when another is attached or the outbox ended. */
  acquire(): OutboxReader | undefined {
    if (this.reader !== undefined || this.ended) return undefined;
    const token = {};
    this.reader = token;
    const outbox = this;
    const attached = () => this.reader === token;
    return {
      nextBatch: async (maxChars) => {
        while (attached()) {
          if (this.head < this.queue.length) {
            const batch = [this.take()];
            let chars = batch[0]!.length;
            while (this.head < this.queue.length && chars + (this.queue[this.head] as string).length <= maxChars) {
              const text = this.take();
              chars += text.length;
              batch.push(text);
            }
            return batch;
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
    };
  }

  /** No more messages: a waiting reader gets undefined once the queue is read; what is queued stays readable. */
  end(reason?: string): void {
    this.ended = true;
    this.reason ??= reason;
    this.wake();
  }

  /** Drop everything queued (the connection is gone). */
  discard(): void {
    this.ended = true;
    if (this.size > 0) this.onSize(-this.size);
    this.size = 0;
    this.queue.length = 0;
    this.head = 0;
    this.reader = undefined;
    this.wake();
  }

  private take(): string {
    const text = this.queue[this.head] as string;
    this.queue[this.head++] = "";
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.size -= text.length;
    this.onSize(-text.length);
    return text;
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve();
  }
}
