// An independent oracle for v1 wire messages: the OFFICIAL v1 JSON Schema shipped in
// @agentclientprotocol/sdk, compiled with Ajv 2020 exactly as docs/protocol.md §0.1 prescribes (strict
// off, integer/double formats registered, no discriminator option). It shares nothing with
// acpkit's own schema or validators, so a bug there cannot hide a bug here.
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { officialAjv } from "@acpkit/test-support/official-ajv";

const require = createRequire(import.meta.url);
const officialV1 = require("@agentclientprotocol/sdk/schema/v1/schema.json") as {
  $defs: Record<string, { "x-method"?: string; "x-side"?: string }>;
};

const ajv = officialAjv();
ajv.addSchema(officialV1, "official-v1");

const compiled = new Map<string, ValidateFunction>();
function validatorFor(definition: string): ValidateFunction {
  let validate = compiled.get(definition);
  if (validate === undefined) {
    if (!(definition in officialV1.$defs)) throw new Error(`the official v1 schema has no $defs/${definition}`);
    validate = ajv.compile({ $ref: `official-v1#/$defs/${definition}` });
    compiled.set(definition, validate);
  }
  return validate;
}

// Method → definition, read from the schema's own x-method / x-side annotations (pitfall 7: validate
// by method, never against the root). x-side names the side that HANDLES the message.
const paramsDefinition = new Map<string, string>();
const resultDefinition = new Map<string, string>();
for (const [name, definition] of Object.entries(officialV1.$defs)) {
  const method = definition["x-method"];
  if (method === undefined) continue;
  if (name.endsWith("Response")) resultDefinition.set(method, name);
  else paramsDefinition.set(method, name);
}

/** Why `value` fails `definition` in the official v1 schema, or undefined when it is valid. */
export function officialV1Problem(definition: string, value: unknown): string | undefined {
  const validate = validatorFor(definition);
  if (validate(value)) return undefined;
  const first = validate.errors?.[0];
  return `${definition}${first?.instancePath ?? ""} ${first?.message ?? "is invalid"} (${JSON.stringify(first?.params ?? {})})`;
}

/** The official definition for `method`'s params / result, if v1 has the method. */
export function officialV1ParamsDefinition(method: string): string | undefined {
  return paramsDefinition.get(method);
}
export function officialV1ResultDefinition(method: string): string | undefined {
  return resultDefinition.get(method);
}
