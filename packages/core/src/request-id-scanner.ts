// Finds the top-level "id" of a JSON-RPC request inside a message too large to keep, so the request
// can still be answered (with -32600) instead of never. Every transport uses it: stdio feeds the
// bytes of a line as it discards them, WebSocket and the memory pair the text of a frame. It reads the bytes once as they are
// discarded and keeps only a few counters and at most MAX_ID_BYTES of the id itself: memory stays
// bounded whatever the line holds, and nothing recursive runs on the peer's nesting.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const utf8 = new TextDecoder();

/** The longest id kept; a longer one is not answered (it could not be echoed reliably anyway). */
const MAX_ID_BYTES = 1024;

/**
 * Streams a JSON text and finds its top-level `"id"` (when a string or a safe integer) and whether
 * it has a top-level `"method"` (a request, not a response).
 */
export class RequestIdScanner {
  private depth = 0;
  private inString = false;
  private escape = false;
  /** At depth 1: the next string is a key (after `{` or `,`), not a value (after `:`). */
  private expectKey = false;
  /** The bytes of the depth-1 key being read, while it could still be `id`. */
  private key: number[] | undefined;
  private lastKeyIsId = false;
  /** After `"id":`: the bytes of the value being captured (a string keeps its quotes). */
  private value: number[] | undefined;
  private valueIsString = false;
  /** The id value was read (or given up on); the rest is only scanned for `"method"`. */
  private idDone = false;
  /** The top-level id, once found. */
  id: string | number | undefined;
  /** A top-level `"method"` key was seen. */
  hasMethod = false;

  /** Reads `bytes[from, to)`. */
  feed(bytes: Uint8Array, from: number, to: number): void {
    for (let i = from; i < to; i++) this.step(bytes[i]!);
  }

  /**
   * Reads a whole text as its UTF-8 bytes, without copying it: JSON's structure is ASCII, and a
   * non-ASCII character is stepped through as the bytes it encodes to.
   */
  feedText(text: string): void {
    const length = text.length;
    for (let i = 0; i < length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) this.step(unit);
      else if (unit < 0x800) {
        this.step(0xc0 | (unit >> 6));
        this.step(0x80 | (unit & 0x3f));
      } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < length) {
        const low = text.charCodeAt(i + 1);
        const point = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        i++;
        this.step(0xf0 | (point >> 18));
        this.step(0x80 | ((point >> 12) & 0x3f));
        this.step(0x80 | ((point >> 6) & 0x3f));
        this.step(0x80 | (point & 0x3f));
      } else {
        this.step(0xe0 | (unit >> 12));
        this.step(0x80 | ((unit >> 6) & 0x3f));
        this.step(0x80 | (unit & 0x3f));
      }
    }
  }

  /** The line ended: a number that ran to the end is complete now. */
  finish(): void {
    if (!this.idDone && this.value !== undefined && !this.valueIsString) this.settle();
  }

  private step(byte: number): void {
    if (this.value !== undefined) return this.stepValue(byte);
    if (this.inString) {
      if (this.escape) this.escape = false;
      else if (byte === BACKSLASH) this.escape = true;
      else if (byte === QUOTE) {
        this.inString = false;
        if (this.key !== undefined) {
          const key = String.fromCharCode(...this.key);
          this.lastKeyIsId = key === "id" && !this.idDone;
          if (key === "method") this.hasMethod = true;
          this.key = undefined;
        }
        return;
      }
      if (this.key !== undefined) {
        if (this.key.length < 6 && !this.escape) this.key.push(byte);
        else this.key = undefined; // longer than "method", or escaped: neither key
      }
      return;
    }
    switch (byte) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 1 && this.expectKey) {
          this.key = [];
          this.expectKey = false;
        }
        return;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        this.depth++;
        if (this.depth === 1) this.expectKey = byte === OPEN_BRACE;
        return;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        this.depth--;
        return;
      case COMMA:
        if (this.depth === 1) this.expectKey = true;
        return;
      case COLON:
        if (this.depth === 1 && this.lastKeyIsId) {
          this.lastKeyIsId = false;
          this.value = [];
        }
        return;
    }
  }

  private stepValue(byte: number): void {
    const value = this.value!;
    if (value.length === 0 && !this.valueIsString) {
      if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) return; // whitespace before the value
      if (byte === QUOTE) {
        this.valueIsString = true;
        value.push(byte);
        return;
      }
      if (byte !== 0x2d && (byte < 0x30 || byte > 0x39)) {
        // null, an object, …: not an id that can be answered. Scanning goes on (for "method").
        this.idDone = true;
        this.value = undefined;
        this.step(byte);
        return;
      }
    }
    if (this.valueIsString) {
      value.push(byte);
      if (this.escape) this.escape = false;
      else if (byte === BACKSLASH) this.escape = true;
      else if (byte === QUOTE && value.length > 1) return this.settle();
    } else if (byte === COMMA || byte === CLOSE_BRACE || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) {
      this.settle();
      this.step(byte); // the delimiter still counts for the structure
      return;
    } else {
      value.push(byte);
    }
    if (value.length > MAX_ID_BYTES) {
      // Too long to echo: give up on the id, keep scanning the structure.
      this.idDone = true;
      this.value = undefined;
    }
  }

  private settle(): void {
    this.idDone = true;
    const text = utf8.decode(new Uint8Array(this.value!));
    this.value = undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "string") this.id = parsed;
      else if (typeof parsed === "number" && Number.isFinite(parsed) && Math.abs(parsed) <= Number.MAX_SAFE_INTEGER) this.id = parsed;
    } catch {
      // Not a valid JSON string or number: no id to answer under.
    }
  }
}

/**
 * The id of the request in `text` (a whole message too large to parse), or undefined when it is
 * not a request or its id cannot be echoed (null, an object, an unsafe number, over 1 KiB).
 */
export function oversizedRequestId(text: string): string | number | undefined {
  const scanner = new RequestIdScanner();
  scanner.feedText(text);
  scanner.finish();
  return scanner.hasMethod ? scanner.id : undefined;
}
