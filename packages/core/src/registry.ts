// The method registry a Connection dispatches and validates against. By default it is the one
// generated into @acpkit/schema; a Connection may be given another (tests, experiments) through
// `ConnectionOptions.registry`.
//
// At startup core needs only each version's method table and closed lists, which codegen writes
// into core itself (generated/protocol-tables.ts, from the same schemas). The validation code,
// `@acpkit/schema/lazy`, is imported by `loadProtocolVersion`, which every Connection awaits before
// it validates in a version: until then nothing can be validated anyway, and a starting process
// neither resolves the schema package nor compiles its validation code before it needs it
// (docs/performance.md, "Import and cold start"). The invariant: nothing in this file imports a
// value from @acpkit/schema statically.
import type * as SchemaValidation from "@acpkit/schema/lazy";
import type { MethodInfo, MethodTableEntry, ProtocolVersion, ReceivingSide, ValidationError, ValidationResult } from "@acpkit/schema/lazy";
import { V1_METHODS, V1_SESSION_UPDATE_TAGS, V1_STOP_REASONS, V2_METHODS, V2_SESSION_UPDATE_TAGS, V2_STOP_REASONS } from "./generated/protocol-tables.js";

export type { MethodInfo, ProtocolVersion, ValidationError, ValidationResult };

/** Whether `value` is a protocol version acpkit speaks (1 or 2). */
export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return value === 1 || value === 2;
}

/** The stop reasons each version knows, generated from the schemas (v2 also takes custom ones starting with `_`). */
export const STOP_REASONS: { readonly [V in ProtocolVersion]: readonly string[] } = Object.freeze({ 1: V1_STOP_REASONS, 2: V2_STOP_REASONS });

/** The `sessionUpdate` tags each version defines, generated from the schemas. */
export const SESSION_UPDATE_TAGS: { readonly [V in ProtocolVersion]: readonly string[] } = Object.freeze({
  1: V1_SESSION_UPDATE_TAGS,
  2: V2_SESSION_UPDATE_TAGS,
});

let tableIndex: Record<ProtocolVersion, ReadonlyMap<string, MethodTableEntry>> | undefined;

/** The table row of `method` in `version`, or undefined when the version has no such method. */
function methodTableEntry(version: ProtocolVersion, method: string): MethodTableEntry | undefined {
  tableIndex ??= { 1: new Map(V1_METHODS.map((entry) => [entry.method, entry])), 2: new Map(V2_METHODS.map((entry) => [entry.method, entry])) };
  return isProtocolVersion(version) ? tableIndex[version].get(method) : undefined;
}

/** What core uses of `@acpkit/schema/lazy`. */
type SchemaRuntime = Pick<typeof SchemaValidation, "getMethod" | "checkOutgoing" | "detectLegacyMethod" | "isProtocolVersionLoaded" | "loadProtocolVersion">;

// The validation code once this module has imported it (it never unloads), and that import.
// One module instance of `@acpkit/schema/lazy` per process: whoever else imported it (the root
// `@acpkit/schema` entry, an application) shares its registry, so what they loaded counts here too.
let runtime: SchemaRuntime | undefined;
let importing: Promise<SchemaRuntime> | undefined;

/**
 * Load `version`'s validators (once; later calls share the first), and the schema package's
 * validation code with the first. The agent and client runtimes await this when a version is
 * negotiated; code that drives a Connection itself awaits it before `setVersion`. With `side`, only
 * what that side receives (see `@acpkit/schema/lazy`'s `loadProtocolVersion`).
 */
export function loadProtocolVersion(version: ProtocolVersion, side?: ReceivingSide): Promise<void> {
  const loaded = runtime;
  if (loaded !== undefined) return loaded.loadProtocolVersion(version, side);
  importing ??= import("@acpkit/schema/lazy").then((validation) => {
    runtime = validation;
    return validation;
  });
  return importing.then((validation) => validation.loadProtocolVersion(version, side));
}

/** Whether `version`'s validators are loaded (with `side`: at least what that side receives). */
export function isProtocolVersionLoaded(version: ProtocolVersion, side?: ReceivingSide): boolean {
  return runtime?.isProtocolVersionLoaded(version, side) ?? false;
}

/** Where a Connection looks up methods: what exists per version, its direction, its validators. */
export interface MethodRegistry {
  /** The method's entry in `version`'s table, or undefined when the version has no such method. */
  getMethod(version: ProtocolVersion, method: string): MethodInfo | undefined;
  /** Development-mode check of something we are about to send: schema plus conformance rules. */
  checkOutgoing(version: ProtocolVersion, method: string, part: "params" | "result", value: unknown): ValidationResult;
  /**
   * Optional: for a method `getMethod` does not know, whether it is an outdated name (`acp/prompt`)
   * and what replaced it, so the -32601 answer can say so (docs/protocol.md §9). Only called off the hot path.
   */
  legacyMethod?(version: ProtocolVersion, method: string): { legacyShape: string; expected: string } | undefined;
}

function notLoaded(version: ProtocolVersion): never {
  throw new Error(
    `The protocol v${version} validators are not loaded: await loadProtocolVersion(${version}) first (the @acpkit/agent and @acpkit/client runtimes do this during initialize)`,
  );
}

/** A method known from the table alone, before the validation code is loaded: validating throws, as it would until the version is loaded. */
function tableOnlyInfo(version: ProtocolVersion, entry: MethodTableEntry): MethodInfo {
  const validate = (): never => notLoaded(version);
  return entry.resultType === undefined
    ? { ...entry, validateParams: validate }
    : { ...entry, resultType: entry.resultType, validateParams: validate, validateResult: validate };
}

/** The registry generated from the canonical schema (`@acpkit/schema`). */
export const schemaRegistry: MethodRegistry = {
  getMethod(version, method) {
    const loaded = runtime;
    if (loaded !== undefined) return loaded.getMethod(version, method);
    // Handlers are registered before any version is loaded: their names are checked against the tables.
    const entry = methodTableEntry(version, method);
    return entry === undefined ? undefined : tableOnlyInfo(version, entry);
  },
  checkOutgoing(version, method, part, value) {
    return (runtime ?? notLoaded(version)).checkOutgoing(version, method, part, value);
  },
  legacyMethod: (_version, method) => runtime?.detectLegacyMethod(method),
};

/** Every version the registry knows, newest last. */
export const KNOWN_VERSIONS: readonly ProtocolVersion[] = Object.freeze([1, 2] as const);
