// What every legacy-shape detector shares: the version a shape is judged against, where a shape
// comes from (the first words of the error), and building the error. See legacy.ts.
import type { ValidationError } from "./validation-result.js";

/** The protocol version a legacy shape is judged against: 1 or 2. */
export type LegacyVersion = 1 | 2;

export type JsonObject = Record<string, unknown>;

/** Where a legacy shape comes from; the first words of the error message. */
export const PRE_1_0 = "legacy pre-1.0 shape";
export const V1_ON_V2 = "v1 shape on a v2 connection";
export const V2_ON_V1 = "v2 shape on a v1 connection";
export const LATER_DRAFT = "later v2 draft shape (not acpkit v2)";

export function has(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key);
}

export function legacy(origin: string, path: string, legacyShape: string, expected: string): ValidationError {
  return { path, message: `${origin} "${legacyShape}": use ${expected}`, legacyShape, expected };
}

/** `AgentMessageChunk` / `agentMessageChunk` → `agent_message_chunk`. */
export function toSnakeCase(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[-\s]+/g, "_")
    .toLowerCase();
}

/**
 * The value if it is a wire tag or enum value written in PascalCase or camelCase (custom `_…`
 * values are left alone). Not a type guard on purpose: `false` must not narrow a string to never.
 */
export function wrongCase(value: unknown): string | undefined {
  return typeof value === "string" && !value.startsWith("_") && /[A-Z]/.test(value) ? value : undefined;
}

// ---------------------------------------------------------------------------------------------
// Method names
