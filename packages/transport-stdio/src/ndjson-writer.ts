// Writes newline-delimited JSON to a Writable with backpressure (docs/protocol.md §8.1 S3, S8).
//
// Messages sent in the same tick are joined into one write(): a burst of session/update
// notifications then costs one syscall-sized write instead of thousands, and messages sent
// together (a prompt and the cancel right behind it) reach the peer together. Each write()
// carries whole lines only, so the stream never holds half a message. When write() returns false
// the writer stops writing until 'drain', and sends made meanwhile resolve only once their bytes
// were handed over.
//
// send() returns core's SEND_ACCEPTED while the stream is not blocked (the only promise made is
// the one reaction per tick that flushes), which tells the Connection the send cannot fail. While blocked, every send shares the single
// promise of that blocked period.
//
// Answers to the peer's requests are sent without waiting (nobody awaits them), so a peer that
// writes requests and never reads its answers would grow this queue without bound. The writer
// tells two things (stream-transport.ts):
// - congestion: more than `highWater` characters not yet written, this tick's lines included (a
//   burst of large answers to requests read in one chunk is all sent before the first flush).
//   The Connection then holds further answers back as objects; input is still read.
// - backlog: more than `highWater` characters queued behind a stream that is already full. Only
//   then does the transport stop reading input. Pausing on congestion alone would stop reading
//   whenever one large message is sent, and a peer that writes and reads in turn (it is blocked
//   writing to us, so it does not read) would then never drain it: both sides would wait.
import { __transportKit } from "@acpkit/core";
import type { Writable } from "node:stream";
import type { AcpError } from "@acpkit/core";
import type { Deferred } from "@acpkit/core/transport-kit";

// The transport kit, from the copy core's main entry carries (one module of core to load).
const { createDeferred, encodeMessage, SEND_ACCEPTED } = __transportKit;

/**
 * The most characters of joined lines one write() gets: 16 Mi. One tick's lines are joined into
 * one string, and V8 cannot make a string longer than about 512 Mi characters; 34 answers of 16 Mi
 * (a full terminal's output, asked for 34 times at once) made join throw in a microtask, which
 * ended the process. A longer line is written alone, as it came.
 */
export const MAX_WRITE_CHARS = 16 * 1024 * 1024;

/** Told when the lines queued in the writer pass the high-water mark, and when they are written out. */
export interface WriterCongestion {
  /** Queued characters (UTF-16 units, JSON is mostly ASCII) past which `onChange(true)` and `onBacklog(true)` are called. */
  highWater: number;
  /**
   * Called with true when the lines not yet written pass the mark (synchronously, inside the send()
   * that passed it), and with false once a flush or a drain leaves nothing queued and the stream
   * writable again.
   */
  onChange(congested: boolean): void;
  /**
   * Called with true when the lines queued behind a full stream pass the mark, and with false at
   * the drain that leaves the stream writable again.
   */
  onBacklog?(backlogged: boolean): void;
}

/** Writes messages as ndjson lines to a Writable: one `write()` per tick, waiting for `drain` when the stream is full. */
export class NdjsonWriter {
  private queue: string[] = [];
  private flushScheduled = false;
  private blocked = false;
  /** Characters of the lines in `queue`. */
  private queuedChars = 0;
  /** Characters queued behind the full stream in this blocked period (sent while blocked, or left over by the flush that filled it). */
  private blockedChars = 0;
  private backlogged = false;
  /** How many lines at the front of `queue` were accepted (their sends resolved) before the stream filled up mid-flush. */
  private acceptedWaiting = 0;
  private congested = false;
  /** Settles when the current blocked period ends and the lines queued during it were written. */
  private drained: Deferred | undefined;
  private closedError: AcpError | undefined;

  constructor(
    private readonly stream: Writable,
    private readonly congestion?: WriterCongestion,
    private readonly maxWriteChars = MAX_WRITE_CHARS,
  ) {
    this.flush = this.flush.bind(this);
    this.onDrain = this.onDrain.bind(this);
  }

  /** Queue one message (or batch). Serialization errors reject here, at the caller. */
  send(message: unknown): Promise<void> {
    if (this.closedError !== undefined) return Promise.reject(this.closedError);
    let line: string;
    try {
      line = encodeMessage(message);
    } catch (error) {
      return Promise.reject(error);
    }
    this.queue.push(line);
    this.queuedChars += line.length;
    if (!this.congested && this.congestion !== undefined && this.queuedChars > this.congestion.highWater) this.setCongested(true);
    if (this.blocked) {
      this.countBlocked(line.length);
      return this.drained!.promise;
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // A promise reaction rather than queueMicrotask, which makes an AsyncResource and a bound
      // function per call: this runs once per message on a request/response exchange.
      void SEND_ACCEPTED.then(this.flush);
    }
    return SEND_ACCEPTED;
  }

  /**
   * Write everything queued now (used before ending the stream). While the stream is blocked,
   * only the lines whose sends already resolved are handed over; those sent while blocked are
   * left to `fail()`, which rejects their sends.
   */
  flushNow(): void {
    if (!this.blocked) return this.flush();
    const accepted = this.queue.splice(0, this.acceptedWaiting);
    this.acceptedWaiting = 0;
    for (const line of accepted) this.queuedChars -= line.length;
    this.writePieces(accepted, accepted.length, false);
  }

  /** Whether lines are waiting for the stream to drain. */
  get isBlocked(): boolean {
    return this.blocked;
  }

  /** Stop accepting messages; queued and waiting sends reject with `error`. */
  fail(error: AcpError): void {
    if (this.closedError !== undefined) return;
    this.closedError = error;
    this.queue = [];
    this.queuedChars = 0;
    this.acceptedWaiting = 0;
    this.stream.off("drain", this.onDrain);
    const drained = this.drained;
    this.drained = undefined;
    this.blocked = false;
    drained?.reject(error);
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.blocked || this.closedError !== undefined || this.queue.length === 0) return;
    const lines = this.queue;
    this.queue = [];
    this.acceptedWaiting = 0;
    const count = lines.length;
    let written = 1;
    if (count === 1) this.write(lines[0] + "\n");
    else written = this.writePieces(lines, count, true);
    if (written === count) {
      this.queuedChars = 0;
      if (this.congested && !this.blocked) this.setCongested(false);
      return;
    }
    // The stream is full: the rest waits here for the drain rather than in the stream, where
    // hundreds of MB of pending strings make Node's writev fail (ENOBUFS). Their senders were
    // already told the lines were accepted, so a close still hands them over (flushNow).
    this.queue = lines.slice(written, count);
    this.acceptedWaiting = count - written;
    let chars = 0;
    for (const line of this.queue) chars += line.length;
    this.queuedChars = chars;
    this.countBlocked(chars);
  }

  /** `chars` more characters wait behind the full stream: past the high-water mark, report a backlog. */
  private countBlocked(chars: number): void {
    this.blockedChars += chars;
    if (!this.backlogged && this.congestion !== undefined && this.blockedChars > this.congestion.highWater) this.setBacklogged(true);
  }

  /**
   * Write lines[0, count) in pieces of at most maxWriteChars; with `untilBlocked`, stop after the
   * piece that finds the stream full. Returns how many lines were written.
   */
  private writePieces(lines: string[], count: number, untilBlocked: boolean): number {
    let start = 0;
    while (start < count && !(untilBlocked && this.blocked)) {
      const end = this.batchEnd(lines, start, count);
      this.write(joinLines(lines, start, end));
      start = end;
    }
    return start;
  }

  /** Where the write beginning at lines[start] ends (before `count`): as many lines as fit in maxWriteChars, at least one. */
  private batchEnd(lines: readonly string[], start: number, count: number): number {
    let size = lines[start]!.length + 1;
    let end = start + 1;
    while (end < count && size + lines[end]!.length + 1 <= this.maxWriteChars) size += lines[end++]!.length + 1;
    return end;
  }

  private write(data: string): void {
    // Already blocked (flushNow hands accepted lines over before a close): one drain is awaited, not two.
    if (!this.stream.write(data) && !this.blocked) {
      this.blocked = true;
      this.drained ??= createDeferred();
      this.stream.once("drain", this.onDrain);
    }
  }

  private onDrain(): void {
    this.blocked = false;
    this.blockedChars = 0;
    const drained = this.drained;
    this.drained = undefined;
    // Lines queued while blocked go out now; if that blocks again, what is left waits in the
    // writer as accepted lines, so their senders may proceed and later sends wait for the next drain.
    this.flush();
    // Congestion ends with a drain that leaves the stream writable and nothing queued (flush ends
    // it too when it had lines to write): the lines just written are in the stream's buffer until
    // the next drain.
    if (this.congested && !this.blocked && this.queue.length === 0) this.setCongested(false);
    if (this.backlogged && !this.blocked) this.setBacklogged(false);
    drained?.resolve();
  }

  private setCongested(congested: boolean): void {
    this.congested = congested;
    this.congestion!.onChange(congested);
  }

  private setBacklogged(backlogged: boolean): void {
    this.backlogged = backlogged;
    this.congestion!.onBacklog?.(backlogged);
  }
}

/** lines[start, end) as ndjson text, each line followed by "\n". May append to `lines` when it takes them all. */
function joinLines(lines: string[], start: number, end: number): string {
  if (end - start === 1) return lines[start] + "\n";
  if (start === 0 && end === lines.length) {
    // The final newline as an empty last line: join then makes the one flat string that is
    // written, where `join(…) + "\n"` would make a rope the write has to copy once more.
    lines.push("");
    return lines.join("\n");
  }
  const part = lines.slice(start, end);
  part.push("");
  return part.join("\n");
}
