// The owner's writes to the fleet backend for one connection, in the order they were made: pending
// requests, session records and stream appends go through one queue, so an answer's append can
// never reach the backend before the pending record it clears (which would leave a stale record
// that an adopting node would answer a second time). Appends to the same stream that queue up
// behind a slow write go out as one batch.
//
// A write that fails (the backend unreachable) is retried with the same (epoch, seq), which the
// backend ignores when it had applied it: nothing is lost and nothing is delivered twice.
import type { FleetBackend, PendingRequest, StreamRef, StreamRetention } from "./backend.js";

/** How long the writer waits before retrying a failed write, at first and at most. */
const RETRY_FIRST_MS = 50;
const RETRY_MAX_MS = 2000;
/** One append carries at most this many messages and about this many characters (one backend call stays bounded). */
const MAX_BATCH_MESSAGES = 512;
const MAX_BATCH_CHARS = 1024 * 1024;

type Write =
  | { kind: "append"; ref: StreamRef; texts: string[]; chars: number; answered: string[] }
  | { kind: "pending"; request: PendingRequest }
  | { kind: "session"; sessionId: string; params: string | undefined }
  | { kind: "end-stream"; ref: StreamRef; reason: string };

/** Who the writes are for, and what to do when the connection turns out to be another node's. */
export interface WriterTarget {
  readonly backend: FleetBackend;
  readonly nodeId: string;
  readonly connectionId: string;
  readonly epoch: number;
  readonly retention: StreamRetention;
  /** The backend refused an append: another node owns the connection now, or it ended. */
  onFenced(): void;
  /** A stream's unread characters after an append (for backpressure). */
  onUnread(ref: StreamRef, unreadChars: number): void;
}

export class BackendWriter {
  private readonly queue: Write[] = [];
  private running: Promise<void> | undefined;
  private seq = 0;
  /** Characters queued here and not yet appended. */
  queuedChars = 0;
  private stopped = false;

  constructor(private readonly target: WriterTarget) {}

  /** Queue a message for a stream; joins the append before it when that is for the same stream. */
  append(ref: StreamRef, text: string, answered?: string): void {
    const last = this.queue[this.queue.length - 1];
    if (
      last?.kind === "append" &&
      last.ref.sessionId === ref.sessionId &&
      last !== this.inFlight &&
      last.texts.length < MAX_BATCH_MESSAGES &&
      last.chars < MAX_BATCH_CHARS
    ) {
      last.texts.push(text);
      last.chars += text.length;
      if (answered !== undefined) last.answered.push(answered);
    } else {
      this.queue.push({ kind: "append", ref, texts: [text], chars: text.length, answered: answered === undefined ? [] : [answered] });
    }
    this.queuedChars += text.length;
    this.run();
  }

  pending(request: PendingRequest): void {
    this.queue.push({ kind: "pending", request });
    this.run();
  }

  session(sessionId: string, params: string | undefined): void {
    this.queue.push({ kind: "session", sessionId, params });
    this.run();
  }

  endStream(ref: StreamRef, reason: string): void {
    this.queue.push({ kind: "end-stream", ref, reason });
    this.run();
  }

  /** Resolves once everything queued so far was written (or the writer stopped). */
  async flushed(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /** Drop what is queued and write nothing more (the connection was fenced). */
  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
    this.queuedChars = 0;
  }

  private inFlight: Write | undefined;

  private run(): void {
    if (this.running !== undefined || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0 && !this.stopped) this.run();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      const write = this.queue[0]!;
      this.inFlight = write;
      const seq = write.kind === "append" ? ++this.seq : 0;
      for (let delay = RETRY_FIRST_MS; ; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
        try {
          await this.perform(write, seq);
          break;
        } catch {
          if (this.stopped) return;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
      this.inFlight = undefined;
      this.queue.shift();
    }
  }

  private async perform(write: Write, seq: number): Promise<void> {
    const { backend, connectionId } = this.target;
    switch (write.kind) {
      case "pending":
        return backend.addPending(connectionId, write.request);
      case "session":
        return backend.setSession(connectionId, write.sessionId, write.params);
      case "end-stream":
        return backend.endStream(write.ref, write.reason);
      case "append": {
        const { nodeId, epoch, retention } = this.target;
        const result = await backend.append(write.ref, nodeId, epoch, seq, write.texts, write.answered, retention);
        this.queuedChars -= write.chars;
        if (result.fenced) {
          this.stop();
          this.target.onFenced();
          return;
        }
        this.target.onUnread(write.ref, result.unreadChars);
      }
    }
  }
}
