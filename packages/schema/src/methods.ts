// @acpkit/schema/methods: what is known about the protocol without any validation code — the
// versions, every method's name, direction and kind, and two facts about JSON values. It is small
// (a few KB), so @acpkit/core carries it from the start and loads the validation code
// (`@acpkit/schema/lazy`) only when a version is loaded: a client that imports @acpkit/client does
// not compile the schema package's ~40 KB of error wording, legacy detection and transcript tools
// before it has something to validate (docs/performance.md, "Import and cold start").
//
// It also holds the one slot through which @acpkit/core finds the validation code once it is
// loaded, by whichever importer: the runtime's own dynamic import, the root `@acpkit/schema` entry,
// or an application that imported `@acpkit/schema/lazy` itself. @acpkit/core's bundle carries a
// copy of this module (one module file fewer to load at startup), so the slot is process-wide.
import type { MethodTableEntry } from "./compiled-validator.js";
import { SESSION_UPDATE_TAGS as V1_UPDATE_TAGS, STOP_REASONS as V1_STOP_REASONS } from "./generated/v1/constants.js";
import { methodTable as v1Table } from "./generated/v1/methods.js";
import { SESSION_UPDATE_TAGS as V2_UPDATE_TAGS, STOP_REASONS as V2_STOP_REASONS } from "./generated/v2/constants.js";
import { methodTable as v2Table } from "./generated/v2/methods.js";
import type { MethodInfo } from "./method-info.js";
import type { ValidationResult } from "./validation-result.js";

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

/**
 * `target[key] = value` for a key a peer chose. `"__proto__"` is a legal JSON key, and JSON.parse
 * makes it an ordinary own property; assigned with `=`, it would replace the target's prototype
 * instead, so the field would vanish from the copy (and from what is sent on) while its members
 * showed through as inherited ones. Here it stays a field.
 */
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The generated method table of `version`: every method with its direction, kind and $defs. */
export function methodTable(version: ProtocolVersion): readonly MethodTableEntry[] {
  return version === 1 ? v1Table : v2Table;
}

let tableIndex: Record<ProtocolVersion, ReadonlyMap<string, MethodTableEntry>> | undefined;

/** The table row of `method` in `version`, or undefined when the version has no such method. */
export function methodTableEntry(version: ProtocolVersion, method: string): MethodTableEntry | undefined {
  tableIndex ??= { 1: new Map(v1Table.map((entry) => [entry.method, entry])), 2: new Map(v2Table.map((entry) => [entry.method, entry])) };
  return isProtocolVersion(version) ? tableIndex[version].get(method) : undefined;
}

/**
 * The validation code of `@acpkit/schema/lazy`, as @acpkit/core uses it. Registered by that module
 * when it is evaluated; see `loadedSchemaRuntime`.
 */
export interface SchemaRuntime {
  /** `@acpkit/schema/lazy`'s `getMethod`: the method with its validators. */
  getMethod(version: ProtocolVersion, method: string): MethodInfo | undefined;
  /** `@acpkit/schema/lazy`'s `checkOutgoing`. */
  checkOutgoing(version: ProtocolVersion, method: string, part: "params" | "result", value: unknown): ValidationResult;
  /** `@acpkit/schema/lazy`'s `detectLegacyMethod`. */
  detectLegacyMethod(method: string): { legacyShape: string; expected: string } | undefined;
  /** `@acpkit/schema/lazy`'s `isProtocolVersionLoaded`. */
  isProtocolVersionLoaded(version: ProtocolVersion, side?: "agent" | "client"): boolean;
  /** `@acpkit/schema/lazy`'s `loadProtocolVersion`. */
  loadProtocolVersion(version: ProtocolVersion, side?: "agent" | "client"): Promise<void>;
}

// The slot is a global symbol, not a module variable: @acpkit/core carries its own copy of this
// module (scripts/bundle-package.mjs), and both copies must see the one registration.
const RUNTIME_SLOT = Symbol.for("@acpkit/schema/runtime");
const slots = globalThis as { [RUNTIME_SLOT]?: SchemaRuntime };

/** Called once by `@acpkit/schema/lazy` when it is evaluated. The first registration wins. */
export function registerSchemaRuntime(validation: SchemaRuntime): void {
  slots[RUNTIME_SLOT] ??= validation;
}

/** The validation code, if `@acpkit/schema/lazy` has been loaded in this process (by anyone). */
export function loadedSchemaRuntime(): SchemaRuntime | undefined {
  return slots[RUNTIME_SLOT];
}
