// What is known about the protocol without any validation code: the versions, every method's
// name, direction and kind, the closed lists, and two facts about JSON values that every module
// of this package uses. (@acpkit/core has a generated copy of the tables and lists of its own, so
// that a starting process needs nothing of this package before a version is negotiated.)
import type { MethodTableEntry } from "./compiled-validator.js";
import { SESSION_UPDATE_TAGS as V1_UPDATE_TAGS, STOP_REASONS as V1_STOP_REASONS } from "./generated/v1/constants.js";
import { methodTable as v1Table } from "./generated/v1/methods.js";
import { SESSION_UPDATE_TAGS as V2_UPDATE_TAGS, STOP_REASONS as V2_STOP_REASONS } from "./generated/v2/constants.js";
import { methodTable as v2Table } from "./generated/v2/methods.js";

export type { MethodDirection, MethodKind, MethodTableEntry } from "./compiled-validator.js";

/** A protocol version acpkit speaks (docs/protocol.md §0). */
export type ProtocolVersion = 1 | 2;

/** The stop reasons each version knows, generated from the schemas (v2 also takes custom ones starting with `_`). */
export const STOP_REASONS: { readonly [V in ProtocolVersion]: readonly string[] } = Object.freeze({
  1: V1_STOP_REASONS,
  2: V2_STOP_REASONS,
});

/** The `sessionUpdate` tags each version defines, generated from the schemas. */
export const SESSION_UPDATE_TAGS: { readonly [V in ProtocolVersion]: readonly string[] } = Object.freeze({
  1: V1_UPDATE_TAGS,
  2: V2_UPDATE_TAGS,
});

/** Every protocol version acpkit speaks, oldest first. */
export const PROTOCOL_VERSIONS: readonly [1, 2] = Object.freeze([1, 2] as const);

/** Whether `value` is a protocol version acpkit speaks. */
export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return value === 1 || value === 2;
}

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `table[key]` for a key a peer chose: own entries only (never `Object.prototype`'s `constructor`, …). */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The generated method table of `version`: every method with its direction, kind and $defs. */
export function methodTable(version: ProtocolVersion): readonly MethodTableEntry[] {
  return version === 1 ? v1Table : v2Table;
}
