// Stand-in for the public validators of `../../src/index.ts` while those are being generated:
// the same signatures (docs/architecture.md §2), backed by Ajv over the canonical schema files.
// Only the tests use it; `api.ts` decides which implementation the tests exercise.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { toValidationErrors } from "../../src/ajv-errors.js";
import { repoRoot } from "./protocol-examples.js";

export type ProtocolVersion = 1 | 2;
export type ValidationError = { path: string; message: string };
export type ValidationResult = { valid: true } | { valid: false; errors: ValidationError[] };

const VALID: ValidationResult = Object.freeze({ valid: true });
const ANNOTATIONS = ["x-method", "x-direction", "x-kind", "x-result-of", "x-unknown", "x-open-enum", "x-discriminator"];

const integerFormat = (min: number, max: number) => ({
  type: "number" as const,
  validate: (n: number) => Number.isInteger(n) && n >= min && n <= max,
});

interface Loaded {
  ajv: Ajv2020;
  defs: Record<string, Record<string, unknown>>;
  params: Map<string, string>;
  results: Map<string, string>;
  compiled: Map<string, ValidateFunction>;
}

const loaded = new Map<ProtocolVersion, Loaded>();

function load(version: ProtocolVersion): Loaded {
  const cached = loaded.get(version);
  if (cached) return cached;
  const file = resolve(repoRoot, "schema", `v${version}`, "acp.schema.json");
  const schema = JSON.parse(readFileSync(file, "utf8")) as { $defs: Record<string, Record<string, unknown>> };
  const ajv = new Ajv2020({ strict: "log", discriminator: true });
  for (const keyword of ANNOTATIONS) ajv.addKeyword(keyword);
  ajv.addFormat("int32", integerFormat(-2147483648, 2147483647));
  ajv.addFormat("uint16", integerFormat(0, 65535));
  ajv.addFormat("uint32", integerFormat(0, 4294967295));
  ajv.addFormat("int64", integerFormat(-Number.MAX_VALUE, Number.MAX_VALUE));
  ajv.addFormat("uint64", integerFormat(0, Number.MAX_VALUE));
  ajv.addFormat("double", { type: "number", validate: () => true });
  ajv.addSchema(schema, "acp");
  const params = new Map<string, string>();
  const results = new Map<string, string>();
  for (const [name, def] of Object.entries(schema.$defs)) {
    if (typeof def["x-method"] === "string") params.set(def["x-method"], name);
    if (typeof def["x-result-of"] === "string") results.set(def["x-result-of"], name);
  }
  const entry: Loaded = { ajv, defs: schema.$defs, params, results, compiled: new Map() };
  loaded.set(version, entry);
  return entry;
}

function run(version: ProtocolVersion, name: string, value: unknown): ValidationResult {
  const entry = load(version);
  if (!entry.defs[name]) return { valid: false, errors: [{ path: "", message: `v${version} has no definition "${name}"` }] };
  let validate = entry.compiled.get(name);
  if (!validate) {
    validate = entry.ajv.getSchema(`acp#/$defs/${name}`)!;
    entry.compiled.set(name, validate);
  }
  if (validate(value)) return VALID;
  // The package's own Ajv-error translation, so paths and messages match the public API.
  return { valid: false, errors: toValidationErrors(validate.errors) };
}

export function validateDefinition(version: ProtocolVersion, name: string, value: unknown): ValidationResult {
  return run(version, name, value);
}

export function validateParams(version: ProtocolVersion, method: string, params: unknown): ValidationResult {
  const name = load(version).params.get(method);
  if (!name) return { valid: false, errors: [{ path: "", message: `"${method}" is not a v${version} method` }] };
  return run(version, name, params);
}

export function validateResult(version: ProtocolVersion, method: string, result: unknown): ValidationResult {
  const name = load(version).results.get(method);
  if (!name) return { valid: false, errors: [{ path: "", message: `"${method}" has no v${version} result` }] };
  return run(version, name, result);
}
