// Cuts a byte stream into its ndjson lines for the tap's record, without touching the stream
// itself: the tap passes every chunk on unchanged and gives a copy to an observer. A line longer
// than the limit is recorded by its length only, and its bytes are not kept while it goes by, so a
// peer that never sends a newline cannot make the tap hold more than the limit.
import { StringDecoder } from "node:string_decoder";

/** Default longest line the tap records in full (bytes): 4 MiB. */
export const DEFAULT_MAX_OBSERVED_LINE = 4 * 1024 * 1024;

export class LineObserver {
  #parts: Buffer[] = [];
  #length = 0;
  #oversized = false;

  /** `onLine(text, bytes)` gets each complete line; `text` is undefined for an oversized one. */
  constructor(
    private readonly onLine: (text: string | undefined, bytes: number) => void,
    private readonly maxLine = DEFAULT_MAX_OBSERVED_LINE,
  ) {}

  /** Observe one chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, newline));
      this.#finish();
      start = newline + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.#length > 0 || this.#oversized) this.#finish();
  }

  #take(piece: Buffer): void {
    this.#length += piece.length;
    if (this.#oversized) return;
    if (this.#length > this.maxLine) {
      this.#oversized = true;
      this.#parts = [];
      return;
    }
    // A copy: the caller may reuse the chunk's memory once it has been passed on.
    this.#parts.push(Buffer.from(piece));
  }

  #finish(): void {
    const bytes = this.#length;
    let text: string | undefined;
    if (!this.#oversized) {
      const decoder = new StringDecoder("utf8");
      text = this.#parts.map((part) => decoder.write(part)).join("") + decoder.end();
      text = text.replace(/\r$/, "");
    }
    this.#parts = [];
    this.#length = 0;
    this.#oversized = false;
    if (bytes > 0 || text === undefined) this.onLine(text, bytes);
  }
}
