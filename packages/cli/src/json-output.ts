// `--json` output that never fails on what a peer sent.
//
// Why depth is cut: JSON.stringify recurses, so a value nested tens of thousands deep (an agent
// controls `_meta`, raw tool input and output) would throw RangeError and leave stdout empty.
// Such values are cut at MAX_JSON_DEPTH levels instead.
//
// Why output can go out in pieces: JSON.stringify makes one string, and V8's strings end at about
// 512 Mi characters. An agent that streamed 560 MB of text made `acpkit run --json` end with
// "acpkit: Invalid string length" and nothing on stdout, after the turn had run. When the whole
// text cannot be one string, it is written member by member, each member that fits as one piece.
import { setOwnField } from "@acpkit/core";

/** How deep `--json` output follows nested values before it writes a marker instead. */
export const MAX_JSON_DEPTH = 256;

/** The marker that replaces whatever lies deeper than MAX_JSON_DEPTH levels. */
export const DEPTH_MARKER = `[acpkit: nested deeper than ${MAX_JSON_DEPTH} levels; omitted]`;

/** Pieces are gathered up to this many characters before each write. */
const WRITE_CHARS = 1024 * 1024;

/** `JSON.stringify(value, null, 2)`, with values deeper than MAX_JSON_DEPTH replaced by DEPTH_MARKER. */
export function toJsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return JSON.stringify(limitDepth(value, MAX_JSON_DEPTH), null, 2);
  }
}

/**
 * Writes what `toJsonText(value)` returns, followed by a newline, through `write`: as one piece
 * when it fits in a string, otherwise member by member (the same text). `piecewise` forces the
 * second way (tests).
 */
export function writeJsonText(value: unknown, write: (text: string) => void, piecewise = false): void {
  if (!piecewise) {
    try {
      write(`${toJsonText(value)}\n`);
      return;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error; // too long for one string: in pieces below
    }
  }
  const out = new PieceWriter(write);
  writeValue(limitDepth(value, MAX_JSON_DEPTH), "", out);
  out.add("\n");
  out.flush();
}

/** Gathers small pieces into writes of about WRITE_CHARS characters. */
class PieceWriter {
  private pieces: string[] = [];
  private size = 0;

  constructor(private readonly write: (text: string) => void) {}

  add(piece: string): void {
    this.pieces.push(piece);
    this.size += piece.length;
    if (this.size >= WRITE_CHARS) this.flush();
  }

  flush(): void {
    if (this.pieces.length === 0) return;
    this.write(this.pieces.join(""));
    this.pieces = [];
    this.size = 0;
  }
}

// `value` is depth-limited already, so this recursion is bounded by MAX_JSON_DEPTH. A member is
// written whole when it fits in a string (re-indented to its place), and opened up otherwise.
function writeValue(value: unknown, indent: string, out: PieceWriter): void {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, null, 2);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  if (text !== undefined) {
    out.add(indent === "" ? text : text.replace(/\n/g, `\n${indent}`));
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    out.add("[\n");
    value.forEach((item, index) => {
      out.add(inner);
      // As JSON.stringify does: what JSON cannot carry becomes null in an array.
      if (isOmitted(item)) out.add("null");
      else writeValue(item, inner, out);
      out.add(index < value.length - 1 ? ",\n" : "\n");
    });
    out.add(`${indent}]`);
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => !isOmitted(item));
  out.add("{\n");
  entries.forEach(([key, item], index) => {
    out.add(`${inner}${JSON.stringify(key)}: `);
    writeValue(item, inner, out);
    out.add(index < entries.length - 1 ? ",\n" : "\n");
  });
  out.add(`${indent}}`);
}

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

// Recursion here is bounded by `depth` (at most MAX_JSON_DEPTH frames), not by the value.
function limitDepth(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth === 0) return DEPTH_MARKER;
  if (Array.isArray(value)) return value.map((item) => limitDepth(item, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setOwnField(out, key, limitDepth(item, depth - 1));
  return out;
}
