// The method registry a Connection dispatches and validates against. By default it is the one
// generated into @acpkit/schema; a Connection may be given another (tests, experiments) through
// `ConnectionOptions.registry`.
//
// At startup core needs only the schema package's small `methods` entry (versions and method
// tables), which its bundle carries a copy of (scripts/bundle-package.mjs). The validation code,
// `@acpkit/schema/validation`, is imported by `loadProtocolVersion`, which the runtimes await when
// a version is negotiated: until then nothing can be validated anyway, and a starting process does
// not compile ~35 KB it may not need yet (docs/performance.md, "Import and cold start"). That entry is
// the lazy one without the transcript checker, which no runtime uses.
import {
  PROTOCOL_VERSIONS,
  SESSION_UPDATE_TAGS,
  STOP_REASONS,
  isProtocolVersion,
  loadedSchemaRuntime,
  methodTableEntry,
  type MethodTableEntry,
  type SchemaRuntime,
} from "@acpkit/schema/methods";
import type { MethodInfo, ProtocolVersion, ReceivingSide, ValidationError, ValidationResult } from "@acpkit/schema/validation";

export type { MethodInfo, ProtocolVersion, ValidationError, ValidationResult };
// Whether a value is a version acpkit speaks (1 or 2). Re-exported so that the runtimes import the
// schema package through core alone: a starting process resolves one bare specifier fewer
// (docs/performance.md, "Import and cold start").
export { isProtocolVersion };
// The closed lists generated from the schemas (stop reasons, update tags), for every package.
export { SESSION_UPDATE_TAGS, STOP_REASONS };

// The validation code once anyone has loaded it (it never unloads, so it is kept here after the
// first look at the process-wide slot), and the import this module started, if any.
let runtime: SchemaRuntime | undefined;
let importing: Promise<SchemaRuntime> | undefined;

function loadedRuntime(): SchemaRuntime | undefined {
  runtime ??= loadedSchemaRuntime();
  return runtime;
}

/**
 * Load `version`'s validators (once; later calls share the first), and the schema package's
 * validation code with the first. The agent and client runtimes await this when a version is
 * negotiated; code that drives a Connection itself awaits it before `setVersion`. With `side`, only
 * what that side receives (see `@acpkit/schema/validation`'s `loadProtocolVersion`).
 */
export function loadProtocolVersion(version: ProtocolVersion, side?: ReceivingSide): Promise<void> {
  const loaded = loadedRuntime();
  if (loaded !== undefined) return loaded.loadProtocolVersion(version, side);
  importing ??= import("@acpkit/schema/validation").then(() => {
    const registered = loadedRuntime();
    if (registered === undefined) throw new Error("@acpkit/schema/validation was loaded but did not register its validation code");
    return registered;
  });
  return importing.then((registered) => registered.loadProtocolVersion(version, side));
}

/** Whether `version`'s validators are loaded (with `side`: at least what that side receives). */
export function isProtocolVersionLoaded(version: ProtocolVersion, side?: ReceivingSide): boolean {
  return loadedRuntime()?.isProtocolVersionLoaded(version, side) ?? false;
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
    const loaded = loadedRuntime();
    if (loaded !== undefined) return loaded.getMethod(version, method);
    // Handlers are registered before any version is loaded: their names are checked against the tables.
    const entry = methodTableEntry(version, method);
    return entry === undefined ? undefined : tableOnlyInfo(version, entry);
  },
  checkOutgoing(version, method, part, value) {
    return (loadedRuntime() ?? notLoaded(version)).checkOutgoing(version, method, part, value);
  },
  legacyMethod: (_version, method) => loadedRuntime()?.detectLegacyMethod(method),
};

/** Every version the registry knows, newest last. */
export const KNOWN_VERSIONS: readonly ProtocolVersion[] = PROTOCOL_VERSIONS;
