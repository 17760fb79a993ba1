// The method registry and the validation entry points (docs/architecture.md §2), built once
// per version from the generated tables. Validating a valid value costs one generated
// validator call (plus, on v2, the legacy scan for the few methods whose open unions accept
// legacy shapes) and returns the shared frozen VALID: nothing is allocated on success.
//
// The method tables (names, directions, kinds) are small and always here. The validators are
// most of the package's code, so each version's are a module of their own, loaded by
// `loadProtocolVersion` (a dynamic import: a separate chunk for bundlers) when that version is
// negotiated. The package's root entry loads both at once, for tools that validate anything
// anytime; the agent and client runtimes use the `@acpkit/schema/lazy` entry and load only the
// version they speak.

import { toValidationErrors } from "./ajv-errors.js";
import type { CompiledValidator, MethodTableEntry } from "./compiled-validator.js";
import { findReservedOpenValues, type OpenValuePlan } from "./conformance.js";
import { openValuePlan as v2OpenValues } from "./generated/v2/open-values.js";
import { detectLegacyMethod, detectLegacyResult, detectLegacyShape, scanLegacyEvenWhenValid } from "./legacy.js";
import { LATER_V2, isSchemaVersion, methodTable, schemaVersionLabel, type SchemaVersion } from "./methods.js";
import { invalid, VALID, type ValidationError, type ValidationResult } from "./validation-result.js";

export {
  LATER_V2,
  PROTOCOL_VERSIONS,
  SCHEMA_VERSIONS,
  isProtocolVersion,
  isSchemaVersion,
  schemaVersionLabel,
  type ProtocolVersion,
  type SchemaVersion,
} from "./methods.js";

export type { MethodInfo } from "./method-info.js";
import type { MethodInfo } from "./method-info.js";

/** One version's validators, by $def name. */
export type VersionValidators = Readonly<Record<string, CompiledValidator | undefined>>;

interface VersionTables {
  methods: ReadonlyMap<string, MethodInfo>;
  /** Where open values sit, for the `_` rule; only pinned v2 has that rule (docs/protocol.md §3.3). */
  openValues?: OpenValuePlan;
}

/**
 * The side of a connection whose incoming messages are validated: an agent receives the params of
 * what a client sends and the results of its own requests, a client the reverse.
 */
export type ReceivingSide = "agent" | "client";

/** A module of a version's validators: all of them, or what one side receives (generated/vN/{agent,client}-receives.ts). */
type ValidatorSet = "all" | ReceivingSide;

// What is loaded, and what is loading, per version and set. A side's part is used only while the
// whole version is not loaded.
const loaded: { [V in SchemaVersion]?: { [S in ValidatorSet]?: VersionValidators } } = {};
const loading: { [V in SchemaVersion]?: { [S in ValidatorSet]?: Promise<void> } } = {};
const LOADED: Promise<void> = Promise.resolve();

function isReceivingSide(value: unknown): value is ReceivingSide {
  return value === "agent" || value === "client";
}

/**
 * Whether `version`'s validators are loaded (validation in that version works synchronously).
 * With `side`: whether what that side receives can be validated (its part, or everything, is loaded).
 */
export function isProtocolVersionLoaded(version: SchemaVersion, side?: ReceivingSide): boolean {
  const sets = loaded[version];
  return sets?.all !== undefined || (side !== undefined && sets?.[side] !== undefined);
}

/**
 * Load `version`'s validators (once; later calls share the first). Until they are loaded,
 * validating anything in that version throws an Error saying to call this first. The agent and
 * client runtimes call it during `initialize`; the root `@acpkit/schema` entry has both loaded.
 *
 * With `side`, only the validators of what that side receives are loaded (v1: about a third of
 * the code for an agent, two thirds for a client): enough for a connection that validates incoming
 * messages but not its own outgoing ones, which is what the runtimes load in production. Anything
 * else in that version (`validateDefinition`, `checkOutgoing`, the other side's messages) then
 * throws until the whole version is loaded.
 */
export function loadProtocolVersion(version: SchemaVersion, side?: ReceivingSide): Promise<void> {
  if (isProtocolVersionLoaded(version, side)) return LOADED;
  if (!isSchemaVersion(version)) return Promise.reject(new RangeError(unsupportedMessage(version)));
  if (side !== undefined && !isReceivingSide(side)) return Promise.reject(new RangeError(`side must be "agent" or "client", got ${JSON.stringify(side)}`));
  const set: ValidatorSet = side ?? "all";
  return ((loading[version] ??= {})[set] ??= importValidators(version, set).then((validators) => {
    (loaded[version] ??= {})[set] ??= validators as unknown as VersionValidators;
  }));
}

// Literal specifiers, so bundlers see every import and give each module a chunk of its own.
function importValidators(version: SchemaVersion, set: ValidatorSet): Promise<unknown> {
  if (version === 1) {
    if (set === "all") return import("./generated/v1/validators.js");
    return set === "agent" ? import("./generated/v1/agent-receives.js") : import("./generated/v1/client-receives.js");
  }
  if (version === 2) {
    if (set === "all") return import("./generated/v2/validators.js");
    return set === "agent" ? import("./generated/v2/agent-receives.js") : import("./generated/v2/client-receives.js");
  }
  if (set === "all") return import("./generated/v2-later/validators.js");
  return set === "agent" ? import("./generated/v2-later/agent-receives.js") : import("./generated/v2-later/client-receives.js");
}

/**
 * Hand over a version's validators that were imported statically instead of through
 * `loadProtocolVersion`: the root `@acpkit/schema` entry does this for both versions when it is
 * imported. The first validators handed over for a version are the ones used.
 */
export function provideValidators(version: SchemaVersion, validators: VersionValidators): void {
  (loaded[version] ??= {}).all ??= validators;
}

function validatorsOf(version: SchemaVersion): VersionValidators {
  const validators = loaded[version]?.all;
  if (validators === undefined) {
    throw new Error(
      `The ${schemaVersionLabel(version)} validators are not loaded: await loadProtocolVersion(${JSON.stringify(version)}) first (the @acpkit/agent and @acpkit/client runtimes do this during initialize; the root @acpkit/schema entry loads every version)`,
    );
  }
  return validators;
}

/** The validator of $def `name` in `version`, from everything or a loaded side's part (throws when neither has it). */
function validatorNamed(version: SchemaVersion, name: string): CompiledValidator {
  const sets = loaded[version];
  if (sets !== undefined && sets.all === undefined) {
    const validate = sets.agent?.[name] ?? sets.client?.[name];
    if (validate !== undefined) return validate;
    const sides = (Object.keys(sets) as ReceivingSide[]).join(" and ");
    throw new Error(
      `The ${schemaVersionLabel(version)} validator of ${name} is not loaded: only what the ${sides} receives is. await loadProtocolVersion(${JSON.stringify(version)}) loads all of the version's validators`,
    );
  }
  const validate = validatorsOf(version)[name];
  if (validate === undefined) throw new Error(`the generated ${schemaVersionLabel(version)} validators have no ${name}`);
  return validate;
}

function hasOwn(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}

function schemaFailure(validate: CompiledValidator, legacyShape: ValidationError | undefined): ValidationResult {
  const errors = toValidationErrors(validate.errors);
  return invalid(legacyShape ? [legacyShape, ...errors] : errors);
}

function makeMethodInfo(version: SchemaVersion, entry: MethodTableEntry): MethodInfo {
  const { method } = entry;
  // Looked up on first use: the version's validators may be loaded after the table was built.
  let params: CompiledValidator | undefined;
  let result: CompiledValidator | undefined;
  // The legacy-shape detectors (legacy.ts) name other drafts' shapes in a v1 or pinned-v2 message;
  // the later draft is the newest of them all, so nothing is scanned there.
  const legacyVersion = version === LATER_V2 ? undefined : version;
  const scanValidParams = legacyVersion !== undefined && scanLegacyEvenWhenValid(legacyVersion, method, "params");
  const legacyShape = (value: unknown) => (legacyVersion === undefined ? undefined : detectLegacyShape(legacyVersion, method, value));
  const legacyResult = (value: unknown) => (legacyVersion === undefined ? undefined : detectLegacyResult(legacyVersion, method, value));
  const info: MethodInfo = {
    method,
    direction: entry.direction,
    kind: entry.kind,
    paramsType: entry.paramsType,
    ...(entry.resultType ? { resultType: entry.resultType } : {}),
    validateParams(value: unknown): ValidationResult {
      params ??= validatorNamed(version, entry.paramsType);
      if (params(value)) {
        if (!scanValidParams) return VALID;
        const found = legacyShape(value);
        return found ? invalid([found]) : VALID;
      }
      return schemaFailure(params, legacyShape(value));
    },
  };
  const resultType = entry.resultType;
  if (resultType !== undefined) {
    const scanValidResult = legacyVersion !== undefined && scanLegacyEvenWhenValid(legacyVersion, method, "result");
    info.validateResult = (value: unknown): ValidationResult => {
      result ??= validatorNamed(version, resultType);
      if (result(value)) {
        if (!scanValidResult) return VALID;
        const found = legacyResult(value);
        return found ? invalid([found]) : VALID;
      }
      return schemaFailure(result, legacyResult(value));
    };
  }
  return Object.freeze(info);
}

function buildTables(version: SchemaVersion, table: readonly MethodTableEntry[], openValues?: OpenValuePlan): VersionTables {
  const methods = new Map<string, MethodInfo>();
  for (const entry of table) methods.set(entry.method, makeMethodInfo(version, entry));
  return { methods, ...(openValues ? { openValues } : {}) };
}

const tables: { [V in SchemaVersion]?: VersionTables } = {};

/**
 * Built on first use, so importing the package costs nothing until a validator is needed. Only
 * the pinned v2 has the `_` rule for open values (docs/protocol.md §3.3).
 */
function tablesFor(version: SchemaVersion): VersionTables | undefined {
  if (!isSchemaVersion(version)) return undefined;
  return (tables[version] ??= buildTables(version, methodTable(version), version === 2 ? v2OpenValues : undefined));
}

function unsupportedMessage(version: unknown): string {
  return `unsupported protocol version ${JSON.stringify(version)} (acpkit speaks 1 and 2, and validates the later v2 draft as ${JSON.stringify(LATER_V2)})`;
}

function unsupportedVersion(version: unknown): ValidationResult {
  return invalid([{ path: "", message: unsupportedMessage(version) }]);
}

function unknownMethod(version: SchemaVersion, method: string): ValidationResult {
  const message = `unknown method ${JSON.stringify(method)} in ${schemaVersionLabel(version)}`;
  const legacyMethod = detectLegacyMethod(method);
  if (!legacyMethod) return invalid([{ path: "", message }]);
  return invalid([{ path: "", message: `${message}: legacy method name, use ${legacyMethod.expected}`, ...legacyMethod }]);
}

/** The methods of `version`, by name. Throws a RangeError for a version acpkit does not speak. */
export function methods(version: SchemaVersion): ReadonlyMap<string, MethodInfo> {
  const found = tablesFor(version);
  if (!found) throw new RangeError(unsupportedMessage(version));
  return found.methods;
}

/** One method of `version`, or undefined if the version has no such method. */
export function getMethod(version: SchemaVersion, method: string): MethodInfo | undefined {
  return tablesFor(version)?.methods.get(method);
}

/**
 * Validates the params of `method` under `version`: schema, then legacy-shape detection. An
 * unknown method is invalid, with a message saying so.
 */
export function validateParams(version: SchemaVersion, method: string, params: unknown): ValidationResult {
  const found = tablesFor(version);
  if (!found) return unsupportedVersion(version);
  const info = found.methods.get(method);
  return info ? info.validateParams(params) : unknownMethod(version, method);
}

/** Validates the result of request `method` under `version`. Notifications have no result. */
export function validateResult(version: SchemaVersion, method: string, result: unknown): ValidationResult {
  const found = tablesFor(version);
  if (!found) return unsupportedVersion(version);
  const info = found.methods.get(method);
  if (!info) return unknownMethod(version, method);
  if (!info.validateResult) return invalid([{ path: "", message: `"${method}" is a notification in ${schemaVersionLabel(version)}; it has no result` }]);
  return info.validateResult(result);
}

/** Validates `value` against the $def `name` of `version` (e.g. `validateDefinition(2, "SessionUpdate", u)`). */
export function validateDefinition(version: SchemaVersion, name: string, value: unknown): ValidationResult {
  const found = tablesFor(version);
  if (!found) return unsupportedVersion(version);
  const validators = validatorsOf(version);
  const validate = hasOwn(validators, name) ? validators[name] : undefined;
  if (!validate) return invalid([{ path: "", message: `unknown definition ${JSON.stringify(name)} in ${schemaVersionLabel(version)}` }]);
  return validate(value) ? VALID : invalid(toValidationErrors(validate.errors));
}

/**
 * The check for values we are about to send: schema and legacy shapes (as validateParams /
 * validateResult), then conformance: on v2, every open enum value and open union tag that is
 * not a known one must start with `_` (docs/protocol.md §3.3). Extension methods (`_…`) have no schema
 * and pass.
 */
export function checkOutgoing(version: SchemaVersion, method: string, part: "params" | "result", value: unknown): ValidationResult {
  const found = tablesFor(version);
  if (!found) return unsupportedVersion(version);
  const info = found.methods.get(method);
  if (!info) return method.startsWith("_") ? VALID : unknownMethod(version, method);
  const schemaResult = part === "params" ? info.validateParams(value) : validateResult(version, method, value);
  if (!schemaResult.valid || !found.openValues) return schemaResult;
  const typeName = part === "params" ? info.paramsType : info.resultType!;
  const reserved = findReservedOpenValues(found.openValues, validatorsOf(version), typeName, value);
  return reserved.length > 0 ? invalid(reserved) : VALID;
}
