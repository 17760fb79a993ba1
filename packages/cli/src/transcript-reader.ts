// Reads a transcript from a byte stream one line at a time, for `acpkit validate`.
//
// Why lines are cut on bytes: 0x0A never occurs inside a multi-byte UTF-8 sequence, so a line can
// be cut before it is decoded, and a character split across two chunks is decoded whole. Each
// line is checked for UTF-8 on its own, so the first bad byte is named by line and position.
//
// Why a line bound: the whole transcript is never held, but one line is, up to its newline. A
// line longer than MAX_TRANSCRIPT_LINE_BYTES is skipped (its bytes are counted, not kept) and
// reported, so a file without newlines cannot fill memory.
import { isUtf8 } from "node:buffer";
import { findMalformedUtf8, type MalformedUtf8 } from "./malformed-utf8.js";

/** The longest line `acpkit validate` checks: 64 MiB, the largest message acpkit's transports accept. */
export const MAX_TRANSCRIPT_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;
const BYTE_ORDER_MARK = 0xfeff;

/** Where the lines go; `TranscriptLineValidator` is one. */
export interface TranscriptLineSink {
  /** One line, decoded, without its newline. */
  line(text: string): void;
  /** One line that was not read: `reason` says why. */
  unreadable(reason: string): void;
}

/** Options of `readTranscriptLines`. */
export interface ReadLinesOptions {
  /** The longest line handed over (default MAX_TRANSCRIPT_LINE_BYTES); longer ones are `unreadable`. */
  maxLineBytes?: number;
  /** Reading stops, before the next line, once this is aborted. */
  signal?: AbortSignal;
}

/**
 * Feeds every line of `stream` to `sink`, in order, blank lines included (they count in the
 * numbering), and a last line without a newline too. After each line it calls `backpressure`;
 * when that returns a promise (the caller's output is full), reading waits for it, so what one
 * chunk of input makes the caller write never piles up. Returns where the first malformed UTF-8
 * sequence is (reading stops there), or undefined once the stream ended or `signal` stopped it.
 */
export async function readTranscriptLines(
  stream: AsyncIterable<Buffer | string>,
  sink: TranscriptLineSink,
  backpressure: () => Promise<void> | undefined,
  options: ReadLinesOptions = {},
): Promise<MalformedUtf8 | undefined> {
  const maxLineBytes = options.maxLineBytes ?? MAX_TRANSCRIPT_LINE_BYTES;
  const signal = options.signal;
  let pending: Buffer[] = [];
  let pendingSize = 0;
  /** Bytes of an over-long line seen so far, while its rest is skipped; -1 when not skipping. */
  let skipped = -1;
  let lineNumber = 0;

  // The line made of `pending` and `tail` is complete.
  const finishLine = (tail: Buffer): MalformedUtf8 | undefined => {
    lineNumber++;
    if (skipped >= 0) {
      const size = skipped + tail.length;
      skipped = -1;
      sink.unreadable(`not checked: the line is ${size} bytes, longer than the ${maxLineBytes} bytes a line may have`);
      return undefined;
    }
    const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingSize = 0;
    if (!isUtf8(bytes)) {
      const bad = findMalformedUtf8(bytes)!;
      return { line: lineNumber, byte: bad.byte, value: bad.value };
    }
    const text = bytes.toString("utf8");
    // A byte order mark (Windows editors write one) is not part of the first line's JSON.
    sink.line(lineNumber === 1 && text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text);
    return undefined;
  };

  // A piece of a line whose newline has not come yet.
  const keep = (piece: Buffer): void => {
    if (skipped >= 0) {
      skipped += piece.length;
      return;
    }
    if (pendingSize + piece.length > maxLineBytes) {
      skipped = pendingSize + piece.length;
      pending = [];
      pendingSize = 0;
      return;
    }
    if (piece.length === 0) return;
    pending.push(piece);
    pendingSize += piece.length;
  };

  for await (const data of stream) {
    const chunk = typeof data === "string" ? Buffer.from(data) : data;
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline >= 0; newline = chunk.indexOf(NEWLINE, start)) {
      const tail = chunk.subarray(start, newline);
      if (skipped < 0 && pendingSize + tail.length > maxLineBytes) {
        // Over the bound with its newline in this chunk: skipped like a line that grew over several.
        skipped = pendingSize;
        pending = [];
        pendingSize = 0;
      }
      const bad = finishLine(tail);
      if (bad) return bad;
      start = newline + 1;
      const wait = backpressure();
      if (wait !== undefined) await wait;
      if (signal?.aborted) return undefined; // leaving the loop destroys the stream
    }
    keep(chunk.subarray(start));
  }
  if (pendingSize > 0 || skipped >= 0) return finishLine(Buffer.alloc(0));
  return undefined;
}
