// `--json` output that never fails on what a peer sent: JSON.stringify recurses, so a value
// nested tens of thousands deep (an agent controls `_meta`, raw tool input and output) would throw
// RangeError and leave stdout empty. Such values are cut at MAX_JSON_DEPTH levels instead.
import { setOwnField } from "@acpkit/core";

/** How deep `--json` output follows nested values before it writes a marker instead. */
export const MAX_JSON_DEPTH = 256;

/** The marker that replaces whatever lies deeper than MAX_JSON_DEPTH levels. */
export const DEPTH_MARKER = `[acpkit: nested deeper than ${MAX_JSON_DEPTH} levels; omitted]`;

/** `JSON.stringify(value, null, 2)`, with values deeper than MAX_JSON_DEPTH replaced by DEPTH_MARKER. */
export function toJsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return JSON.stringify(limitDepth(value, MAX_JSON_DEPTH), null, 2);
  }
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
