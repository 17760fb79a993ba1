// The method registry and the validation entry points (docs/architecture.md §2), built once
// per version from the generated tables. Validating a valid value costs one generated
// validator call (plus, on v2, the legacy scan for the few methods whose open unions accept
// legacy shapes) and returns the shared frozen VALID: nothing is allocated on success.

import { toValidationErrors } from "./ajv-errors.js";
import type { CompiledValidator, MethodDirection, MethodKind, MethodTableEntry } from "./compiled-validator.js";
import { findReservedOpenValues, type OpenValuePlan } from "./conformance.js";
import { methodTable as v1Table } from "./generated/v1/methods.js";
import * as v1Validators from "./generated/v1/validators.js";
import { methodTable as v2Table } from "./generated/v2/methods.js";
import { openValuePlan as v2OpenValues } from "./generated/v2/open-values.js";
import * as v2Validators from "./generated/v2/validators.js";
import { detectLegacyMethod, detectLegacyResult, detectLegacyShape, scanLegacyEvenWhenValid } from "./legacy.js";
import { invalid, VALID, type ValidationError, type ValidationResult } from "./validation-result.js";

/** A protocol version acpkit speaks (docs/protocol.md §0). */
export type ProtocolVersion = 1 | 2;

/** Every protocol version acpkit speaks, oldest first. */
export const PROTOCOL_VERSIONS: readonly [1, 2] = Object.freeze([1, 2] as const);

/** Whether `value` is a protocol version acpkit speaks. */
export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return value === 1 || value === 2;
}

/** One method of one protocol version, with its validators. */
export interface MethodInfo {
  readonly method: string;
  readonly direction: MethodDirection;
  readonly kind: MethodKind;
  /** Name of the params $def (a type in the version's namespace, e.g. `v2.PromptRequest`). */
  readonly paramsType: string;
  /** Name of the result $def; absent for notifications. */
  readonly resultType?: string;
  /** Schema validation, then legacy-shape detection (named legacy shapes lead the errors). */
  validateParams(params: unknown): ValidationResult;
  /** Present for requests only. */
  validateResult?(result: unknown): ValidationResult;
}

interface VersionTables {
  methods: ReadonlyMap<string, MethodInfo>;
  validators: Readonly<Record<string, CompiledValidator | undefined>>;
  /** Where open values sit, for the `_` rule; only pinned v2 has that rule (docs/protocol.md §3.3). */
  openValues?: OpenValuePlan;
}

function hasOwn(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}

function schemaFailure(validate: CompiledValidator, legacyShape: ValidationError | undefined): ValidationResult {
  const errors = toValidationErrors(validate.errors);
  return invalid(legacyShape ? [legacyShape, ...errors] : errors);
}

function makeMethodInfo(version: ProtocolVersion, entry: MethodTableEntry): MethodInfo {
  const { method, params, result } = entry;
  const scanValidParams = scanLegacyEvenWhenValid(version, method, "params");
  const info: MethodInfo = {
    method,
    direction: entry.direction,
    kind: entry.kind,
    paramsType: entry.paramsType,
    ...(entry.resultType ? { resultType: entry.resultType } : {}),
    validateParams(value: unknown): ValidationResult {
      if (params(value)) {
        if (!scanValidParams) return VALID;
        const legacyShape = detectLegacyShape(version, method, value);
        return legacyShape ? invalid([legacyShape]) : VALID;
      }
      return schemaFailure(params, detectLegacyShape(version, method, value));
    },
  };
  if (result) {
    const scanValidResult = scanLegacyEvenWhenValid(version, method, "result");
    info.validateResult = (value: unknown): ValidationResult => {
      if (result(value)) {
        if (!scanValidResult) return VALID;
        const legacyShape = detectLegacyResult(version, method, value);
        return legacyShape ? invalid([legacyShape]) : VALID;
      }
      return schemaFailure(result, detectLegacyResult(version, method, value));
    };
  }
  return Object.freeze(info);
}

function buildTables(version: ProtocolVersion, table: readonly MethodTableEntry[], validators: object, openValues?: OpenValuePlan): VersionTables {
  const methods = new Map<string, MethodInfo>();
  for (const entry of table) methods.set(entry.method, makeMethodInfo(version, entry));
  return { methods, validators: validators as VersionTables["validators"], ...(openValues ? { openValues } : {}) };
}

let tables: Record<ProtocolVersion, VersionTables> | undefined;

/** Built on first use, so importing the package costs nothing until a validator is needed. */
function tablesFor(version: ProtocolVersion): VersionTables | undefined {
  tables ??= {
    1: buildTables(1, v1Table, v1Validators),
    2: buildTables(2, v2Table, v2Validators, v2OpenValues),
  };
  return isProtocolVersion(version) ? tables[version] : undefined;
}

function unsupportedVersion(version: unknown): ValidationResult {
  return invalid([{ path: "", message: `unsupported protocol version ${JSON.stringify(version)} (acpkit speaks ${PROTOCOL_VERSIONS.join(" and ")})` }]);
}

function unknownMethod(version: ProtocolVersion, method: string): ValidationResult {
  const message = `unknown method ${JSON.stringify(method)} in protocol v${version}`;
  const legacyMethod = detectLegacyMethod(method);
  if (!legacyMethod) return invalid([{ path: "", message }]);
  return invalid([{ path: "", message: `${message}: legacy method name, use ${legacyMethod.expected}`, ...legacyMethod }]);
}

/** The methods of `version`, by name. Throws a RangeError for a version acpkit does not speak. */
export function methods(version: ProtocolVersion): ReadonlyMap<string, MethodInfo> {
  const found = tablesFor(version);
  if (!found) throw new RangeError(`unsupported protocol version ${JSON.stringify(version)} (acpkit speaks ${PROTOCOL_VERSIONS.join(" and ")})`);
  return found.methods;
}

/** One method of `version`, or undefined if the version has no such method. */
export function getMethod(version: ProtocolVersion, method: string): MethodInfo | undefined {
  return tablesFor(version)?.methods.get(method);
}

/**
 * Validates the params of `method` under `version`: schema, then legacy-shape detection. An
 * unknown method is invalid, with a message saying so.
 */
export function validateParams(version: ProtocolVersion, method: string, params: unknown): ValidationResult {
  const found = tablesFor(version);
  if (!found) return unsupportedVersion(version);
  const info = found.methods.get(method);
  return info ? info.validateParams(params) : unknownMethod(version, method);
}

/** Validates the result of request `method` under `version`. Notifications have no result. */
export function validateResult(version: ProtocolVersion, method: string, result: unknown): ValidationResult {
  const found = tablesFor(version);
  if (!found) return unsupportedVersion(version);
  const info = found.methods.get(method);
  if (!info) return unknownMethod(version, method);
  if (!info.validateResult) return invalid([{ path: "", message: `"${method}" is a notification in protocol v${version}; it has no result` }]);
  return info.validateResult(result);
}

/** Validates `value` against the $def `name` of `version` (e.g. `validateDefinition(2, "SessionUpdate", u)`). */
export function validateDefinition(version: ProtocolVersion, name: string, value: unknown): ValidationResult {
  const found = tablesFor(version);
  if (!found) return unsupportedVersion(version);
  const validate = hasOwn(found.validators, name) ? found.validators[name] : undefined;
  if (!validate) return invalid([{ path: "", message: `unknown definition ${JSON.stringify(name)} in protocol v${version}` }]);
  return validate(value) ? VALID : invalid(toValidationErrors(validate.errors));
}

/**
 * The check for values we are about to send: schema and legacy shapes (as validateParams /
 * validateResult), then conformance: on v2, every open enum value and open union tag that is
 * not a known one must start with `_` (docs/protocol.md §3.3). Extension methods (`_…`) have no schema
 * and pass.
 */
export function checkOutgoing(version: ProtocolVersion, method: string, part: "params" | "result", value: unknown): ValidationResult {
  const found = tablesFor(version);
  if (!found) return unsupportedVersion(version);
  const info = found.methods.get(method);
  if (!info) return method.startsWith("_") ? VALID : unknownMethod(version, method);
  const schemaResult = part === "params" ? info.validateParams(value) : validateResult(version, method, value);
  if (!schemaResult.valid || !found.openValues) return schemaResult;
  const typeName = part === "params" ? info.paramsType : info.resultType!;
  const reserved = findReservedOpenValues(found.openValues, found.validators, typeName, value);
  return reserved.length > 0 ? invalid(reserved) : VALID;
}
