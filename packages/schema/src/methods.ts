// What is known about the protocol without any validation code: the versions, every method's
// name, direction and kind, the closed lists, and two facts about JSON values that every module
// of this package uses. (@acpkit/core has a generated copy of the tables and lists of its own, so
// that a starting process needs nothing of this package before a version is negotiated.)
import type { MethodTableEntry } from "./compiled-validator.js";
import { SESSION_UPDATE_TAGS as V1_UPDATE_TAGS, STOP_REASONS as V1_STOP_REASONS } from "./generated/v1/constants.js";
import { methodTable as v1Table } from "./generated/v1/methods.js";
import { SESSION_UPDATE_TAGS as V2_UPDATE_TAGS, STOP_REASONS as V2_STOP_REASONS } from "./generated/v2/constants.js";
import { methodTable as v2Table } from "./generated/v2/methods.js";
import { methodTable as laterV2Table } from "./generated/v2-later/methods.js";

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

/**
 * The later v2 draft as something to validate against: protocol version 2 as
 * `@agentclientprotocol/sdk` 2.4 and the agents built on it speak it (docs/protocol.md §12). Its
 * version number is 2, like acpkit's pinned v2, so it has a name of its own here.
 */
export const LATER_V2 = "v2-later";

/**
 * What the registry validates against: a protocol version (1, or 2 as acpkit pins it) or
 * `"v2-later"`, the later v2 draft. Every function that takes a `ProtocolVersion` for validation
 * takes this.
 */
export type SchemaVersion = ProtocolVersion | typeof LATER_V2;

/** Every schema the registry holds, in the order they were written. */
export const SCHEMA_VERSIONS: readonly [1, 2, "v2-later"] = Object.freeze([1, 2, LATER_V2] as const);

/** Whether `value` names a schema the registry holds (1, 2 or `"v2-later"`). */
export function isSchemaVersion(value: unknown): value is SchemaVersion {
  return value === 1 || value === 2 || value === LATER_V2;
}

/** How messages name a schema version: "protocol v1", "protocol v2", "the later v2 draft". */
export function schemaVersionLabel(version: SchemaVersion): string {
  return version === LATER_V2 ? "the later v2 draft" : `protocol v${version}`;
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
export function methodTable(version: SchemaVersion): readonly MethodTableEntry[] {
  return version === 1 ? v1Table : version === 2 ? v2Table : laterV2Table;
}
