// Stand-in for the public validators of @acpkit/schema (validateParams / validateResult /
// validateDefinition, docs/architecture.md §2) while they are being written: compiles
// schema/v1/acp.schema.json with Ajv at test time, and reuses the package's own error
// translation and legacy-shape detection so paths and messages match the real API.
// Tests import the API through ./v1-api.ts, which picks the real one once it exists.
import Ajv2020 from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { toValidationErrors } from "../../src/ajv-errors.js";
import type { AjvErrorObject } from "../../src/compiled-validator.js";
import { detectLegacyResult, detectLegacyShape } from "../../src/legacy.js";
import type { ValidationError, ValidationResult } from "../../src/validation-result.js";

const schemaPath = resolve(fileURLToPath(import.meta.url), "../../../../../schema/v1/acp.schema.json");
export const v1Schema = JSON.parse(readFileSync(schemaPath, "utf8")) as { $defs: Record<string, Record<string, unknown>> };

const ajv = new Ajv2020.default({ strict: "log", discriminator: true, allErrors: false, logger: false });
for (const keyword of ["x-method", "x-direction", "x-kind", "x-result-of", "x-discriminator", "x-open-enum", "x-unknown"]) ajv.addKeyword(keyword);
const integer = (min: number, max: number) => ({ type: "number" as const, validate: (n: number) => Number.isInteger(n) && n >= min && n <= max });
ajv.addFormat("int32", integer(-2147483648, 2147483647));
ajv.addFormat("int64", integer(-Number.MAX_VALUE, Number.MAX_VALUE));
ajv.addFormat("uint16", integer(0, 65535));
ajv.addFormat("uint32", integer(0, 4294967295));
ajv.addFormat("uint64", integer(0, Number.MAX_VALUE));
ajv.addFormat("double", { type: "number", validate: Number.isFinite });
ajv.addSchema(v1Schema, "v1");

const paramsDef = new Map<string, string>();
const resultDef = new Map<string, string>();
for (const [name, def] of Object.entries(v1Schema.$defs)) {
  if (typeof def["x-method"] === "string") paramsDef.set(def["x-method"], name);
  if (typeof def["x-result-of"] === "string") resultDef.set(def["x-result-of"], name);
}

const VALID: ValidationResult = Object.freeze({ valid: true });

function check(name: string, value: unknown): ValidationError[] | undefined {
  const validate = ajv.getSchema(`v1#/$defs/${name}`) as ValidateFunction | undefined;
  if (!validate || !v1Schema.$defs[name]) return [{ path: "", message: `unknown v1 definition "${name}"` }];
  return validate(value) ? undefined : toValidationErrors(validate.errors as AjvErrorObject[]);
}

function result(errors: ValidationError[] | undefined, legacy?: ValidationError): ValidationResult {
  if (!errors) return VALID;
  return { valid: false, errors: legacy ? [legacy, ...errors] : errors };
}

export function validateDefinition(version: 1 | 2, name: string, value: unknown): ValidationResult {
  if (version !== 1) throw new Error("the local stand-in knows only v1");
  return result(check(name, value));
}

export function validateParams(version: 1 | 2, method: string, params: unknown): ValidationResult {
  if (version !== 1) throw new Error("the local stand-in knows only v1");
  const name = paramsDef.get(method);
  const errors = name ? check(name, params) : [{ path: "", message: `unknown v1 method "${method}"` }];
  return result(errors, errors ? detectLegacyShape(1, method, params) : undefined);
}

export function validateResult(version: 1 | 2, method: string, value: unknown): ValidationResult {
  if (version !== 1) throw new Error("the local stand-in knows only v1");
  const name = resultDef.get(method);
  const errors = name ? check(name, value) : [{ path: "", message: `v1 method "${method}" has no result` }];
  return result(errors, errors ? detectLegacyResult(1, method, value) : undefined);
}
