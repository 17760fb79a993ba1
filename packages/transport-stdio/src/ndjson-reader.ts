// Splits a byte stream into newline-delimited UTF-8 lines (docs/protocol.md §8.1 S3, S8).
//
// Why bytes and not text: 0x0A never occurs inside a multi-byte UTF-8 sequence, so a line can be
// cut on bytes and decoded once when it is complete. A character split across two chunks is then
// decoded from the joined bytes, never from half a sequence.
//
// Why a chunk list: a line that spans chunks is kept as a list of slices and joined exactly once,
// when its newline arrives. Only the new chunk is scanned for '\n', and the running size of the
// pending line is tracked so the size limit holds without joining anything.
//
// Why one decode per chunk: the complete lines a chunk holds are decoded with one toString() call
// and cut with String#indexOf/slice (V8 makes the pieces views of the decoded run, and JSON.parse
// reads them in place). One native call per chunk instead of one per line; the result is the same
// because a '\n' byte is never part of a multi-byte character.

import { __transportKit } from "@acpkit/core";
import type { RequestIdScanner as Scanner } from "@acpkit/core/transport-kit";
import { isUtf8 } from "./node-builtins.js";

// The transport kit, from the copy core's main entry carries (one module of core to load).
const { RequestIdScanner } = __transportKit;

const NEWLINE = 0x0a;
const NEWLINE_CHAR = "\n";
const CARRIAGE_RETURN = 13;

/** Where an `NdjsonReader` reports what it read. */
export interface NdjsonReaderEvents {
  /** One complete line, decoded, without its `\n` and without one trailing `\r`. Never empty, unless `keepEmptyLines`. */
  onLine(text: string): void;
  /** A line longer than the limit; its bytes were (or will be, up to its newline) discarded. */
  onOversizedLine(lineNumber: number, bytesSeen: number, limit: number): void;
  /**
   * Bytes that are not valid UTF-8 in line `lineNumber` or a later line decoded with it (S2). The
   * lines are still delivered, with U+FFFD in place of the bad bytes; this makes the damage visible.
   */
  onInvalidUtf8?(lineNumber: number): void;
  /**
   * The oversized line `lineNumber` was a request with this top-level `id` (found while its bytes
   * were discarded), so it can still be answered. Reported once the whole line has been read.
   */
  onOversizedRequest?(lineNumber: number, id: string | number): void;
  /**
   * The stream ended inside line `lineNumber`: `bytes` came after the last newline, beginning with
   * `head` (at most its first 200 bytes, decoded). The line is still delivered (see `end()`) unless
   * `deliverUnterminatedLine` is false; this says it was never framed (S3), for a caller that judges it.
   */
  onUnterminatedLine?(lineNumber: number, bytes: number, head: string): void;
}

/**
 * How an `NdjsonReader` reads, for a caller that judges the stream rather than serves it (a
 * conformance checker). The defaults are a transport's.
 */
export interface NdjsonReaderOptions {
  /** Deliver empty lines (`""`, also a lone `\r`) instead of skipping them. Default false. */
  keepEmptyLines?: boolean;
  /**
   * Deliver a last line that has no newline when the stream ends (default true). With false it is
   * only reported, through `onUnterminatedLine`.
   */
  deliverUnterminatedLine?: boolean;
}

/** How many bytes of an unterminated last line `onUnterminatedLine` shows (decoded). */
const UNTERMINATED_HEAD_BYTES = 200;

/** Splits a byte stream into UTF-8 lines without re-concatenating chunks: feed it with `push(chunk)` and `end()`. */
export class NdjsonReader {
  private readonly pending: Buffer[] = [];
  private pendingSize = 0;
  /** True while skipping the rest of an oversized line, up to and including its newline. */
  private discarding = false;
  /** 1-based number of the line being read, for error messages. */
  private lineNumber = 1;
  /** Looks for the request id of the oversized line being discarded (only with onOversizedRequest). */
  private idScanner: Scanner | undefined;
  private readonly keepEmptyLines: boolean;
  private readonly deliverUnterminated: boolean;

  constructor(
    private readonly maxLineBytes: number,
    private readonly events: NdjsonReaderEvents,
    options: NdjsonReaderOptions = {},
  ) {
    this.keepEmptyLines = options.keepEmptyLines === true;
    this.deliverUnterminated = options.deliverUnterminatedLine !== false;
  }

  /** Feed one chunk as it came off the stream. */
  push(chunk: Buffer): void {
    const size = chunk.length;
    if (this.pendingSize === 0 && !this.discarding && size > 0 && size - 1 <= this.maxLineBytes && chunk[size - 1] === NEWLINE) {
      // The common case: the chunk holds whole lines only (it ends with a newline and nothing is
      // pending) and, being within the limit as a whole, none of them is over it. One native
      // call decodes it; no byte search is needed.
      this.deliverRun(this.decode(chunk, 0, size - 1));
      return;
    }
    let start = 0;
    if (this.discarding) {
      const end = chunk.indexOf(NEWLINE);
      this.idScanner?.feed(chunk, 0, end < 0 ? size : end);
      if (end < 0) return;
      this.discarding = false;
      this.reportOversizedRequest();
      this.lineNumber++;
      start = end + 1;
    }
    let end = chunk.indexOf(NEWLINE, start);
    if (end >= 0 && this.pendingSize > 0) {
      // The newline that completes the line begun in earlier chunks.
      this.completeLine(chunk, start, end);
      start = end + 1;
      end = chunk.indexOf(NEWLINE, start);
    }
    if (end >= 0) {
      const last = chunk.lastIndexOf(NEWLINE);
      if (last - start <= this.maxLineBytes) {
        // No line in this run can be over the limit: decode the whole run once.
        this.deliverRun(this.decode(chunk, start, last));
        start = last + 1;
      } else {
        for (; end >= 0; end = chunk.indexOf(NEWLINE, start)) {
          this.completeLine(chunk, start, end);
          start = end + 1;
        }
      }
    }
    const tailSize = chunk.length - start;
    if (tailSize === 0) return;
    if (this.pendingSize + tailSize > this.maxLineBytes) {
      // Report now rather than at the newline: the peer may never send one, and holding the
      // bytes until then is exactly what the limit is for.
      this.events.onOversizedLine(this.lineNumber, this.pendingSize + tailSize, this.maxLineBytes);
      this.startIdScan(chunk, start, chunk.length);
      this.dropPending();
      this.discarding = true;
      return;
    }
    this.pending.push(start === 0 ? chunk : chunk.subarray(start));
    this.pendingSize += tailSize;
  }

  /**
   * The stream ended. A last line without a trailing newline is still delivered: the writer
   * evidently finished it, and dropping it would lose a message for a missing byte.
   */
  end(): void {
    if (this.pendingSize > 0) {
      const lineNumber = this.lineNumber;
      const bytes = this.pendingSize;
      const head = this.events.onUnterminatedLine === undefined ? "" : this.pendingHead();
      if (this.deliverUnterminated) this.deliver(this.joinPending(undefined, 0, 0));
      this.events.onUnterminatedLine?.(lineNumber, bytes, head);
    }
    this.dropPending();
    if (this.discarding) this.reportOversizedRequest();
    this.discarding = false;
  }

  /** The first UNTERMINATED_HEAD_BYTES of the pending line, decoded: only the chunks that hold them are joined. */
  private pendingHead(): string {
    const head: Buffer[] = [];
    for (let size = 0; size < UNTERMINATED_HEAD_BYTES && head.length < this.pending.length; size += head.at(-1)!.length) head.push(this.pending[head.length]!);
    return Buffer.concat(head).toString("utf8", 0, UNTERMINATED_HEAD_BYTES);
  }

  // One native validity check per decoded run (isUtf8 is a single fast pass) so that bad bytes
  // are reported instead of silently becoming U+FFFD.
  private decode(bytes: Buffer, start: number, end: number): string {
    if (this.events.onInvalidUtf8 !== undefined && !isUtf8(bytes.subarray(start, end))) this.events.onInvalidUtf8(this.lineNumber);
    return bytes.toString("utf8", start, end);
  }

  /** Complete lines decoded together, without the newline after the last one. */
  private deliverRun(run: string): void {
    let start = 0;
    for (let end = run.indexOf(NEWLINE_CHAR); end >= 0; end = run.indexOf(NEWLINE_CHAR, start)) {
      if (end > start || this.keepEmptyLines) this.deliver(run.slice(start, end));
      start = end + 1;
      this.lineNumber++;
    }
    if (run.length > start || this.keepEmptyLines) this.deliver(start === 0 ? run : run.slice(start));
    this.lineNumber++;
  }

  private completeLine(chunk: Buffer, start: number, end: number): void {
    const size = this.pendingSize + (end - start);
    if (size > this.maxLineBytes) {
      this.events.onOversizedLine(this.lineNumber, size, this.maxLineBytes);
      this.startIdScan(chunk, start, end);
      this.reportOversizedRequest();
    } else if (this.pendingSize === 0) {
      // The whole line sits in this chunk; decode straight from it.
      if (end > start || this.keepEmptyLines) this.deliver(this.decode(chunk, start, end));
    } else {
      this.deliver(this.joinPending(chunk, start, end));
    }
    if (this.pendingSize > 0) this.dropPending();
    this.lineNumber++;
  }

  private joinPending(chunk: Buffer | undefined, start: number, end: number): string {
    if (chunk !== undefined && end > start) this.pending.push(chunk.subarray(start, end));
    const total = this.pendingSize + (end - start);
    const joined = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, total);
    return this.decode(joined, 0, total);
  }

  private deliver(text: string): void {
    const length = text.length;
    if (length > 0 && text.charCodeAt(length - 1) === CARRIAGE_RETURN) text = text.slice(0, length - 1);
    if (text.length > 0 || this.keepEmptyLines) this.events.onLine(text);
  }

  // An oversized line's bytes so far: the pending ones and chunk[start, end).
  private startIdScan(chunk: Buffer, start: number, end: number): void {
    if (this.events.onOversizedRequest === undefined) return;
    const scanner = new RequestIdScanner();
    for (const piece of this.pending) scanner.feed(piece, 0, piece.length);
    scanner.feed(chunk, start, end);
    this.idScanner = scanner;
  }

  private reportOversizedRequest(): void {
    const scanner = this.idScanner;
    this.idScanner = undefined;
    if (scanner === undefined) return;
    scanner.finish();
    // Only a request is answered; a response's id is ours, and a notification has none.
    if (scanner.id !== undefined && scanner.hasMethod) this.events.onOversizedRequest!(this.lineNumber, scanner.id);
  }

  private dropPending(): void {
    this.pending.length = 0;
    this.pendingSize = 0;
  }
}
