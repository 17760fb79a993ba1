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
import type { Writable } from "node:stream";
import { BatchedOutput } from "./io.js";

/** How deep `--json` output follows nested values before it writes a marker instead. */
export const MAX_JSON_DEPTH = 256;

/** The marker that replaces whatever lies deeper than MAX_JSON_DEPTH levels. */
export const DEPTH_MARKER = `[acpkit: nested deeper than ${MAX_JSON_DEPTH} levels; omitted]`;

/**
 * An array this long (directly, or as a direct member) is written item by item without first trying
 * it whole: trying an array of 3 million items whole ran out of heap.
 */
const LARGE_ARRAY = 10_000;

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
 * Writes what `toJsonText(value)` returns, followed by a newline, to `stream`: as one piece when it
 * fits in a string, otherwise member by member (the same text), waiting whenever the stream asks
 * to. `piecewise` forces the second way (tests), and so does an array of more than LARGE_ARRAY
 * items in `value` or directly under it.
 */
export async function writeJsonText(value: unknown, stream: Writable, piecewise = false): Promise<void> {
  const out = new BatchedOutput(stream);
  let whole: string | undefined;
  if (!piecewise && !holdsLargeArray(value)) {
    try {
      whole = toJsonText(value);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error; // too long for one string: in pieces below
    }
  }
  if (whole !== undefined) await out.add(whole);
  else await writeValue(limitDepth(value, MAX_JSON_DEPTH), "", out);
  await out.add("\n");
  await out.flush();
}

// `value` is depth-limited already, so this recursion is bounded by MAX_JSON_DEPTH. A member is
// written whole when it fits in a string (re-indented to its place), and opened up otherwise.
async function writeValue(value: unknown, indent: string, out: BatchedOutput): Promise<void> {
  let text: string | undefined;
  if (!holdsLargeArray(value)) {
    try {
      text = JSON.stringify(value, null, 2);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  if (text !== undefined) {
    await out.add(indent === "" ? text : text.replace(/\n/g, `\n${indent}`));
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    await out.add("[\n");
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      await out.add(inner);
      // As JSON.stringify does: what JSON cannot carry becomes null in an array.
      if (isOmitted(item)) await out.add("null");
      else await writeValue(item, inner, out);
      await out.add(index < value.length - 1 ? ",\n" : "\n");
    }
    await out.add(`${indent}]`);
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => !isOmitted(item));
  await out.add("{\n");
  for (let index = 0; index < entries.length; index++) {
    const [key, item] = entries[index]!;
    await out.add(`${inner}${JSON.stringify(key)}: `);
    await writeValue(item, inner, out);
    await out.add(index < entries.length - 1 ? ",\n" : "\n");
  }
  await out.add(`${indent}}`);
}

/** Whether `value` is, or directly holds, an array of more than LARGE_ARRAY items. */
function holdsLargeArray(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.length > LARGE_ARRAY;
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    if (Array.isArray(member) && member.length > LARGE_ARRAY) return true;
  }
  return false;
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
