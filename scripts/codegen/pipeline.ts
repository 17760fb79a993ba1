// The codegen as a pure function: schema files in, generated files (path → text) out. `main.ts`
// writes them or, with --check, compares them with what is committed.

import { join } from "node:path";
import { emitMethods } from "./emit-methods.js";
import { emitConstants } from "./emit-constants.js";
import { emitCoreTables } from "./emit-core-tables.js";
import { emitOpenValues } from "./emit-open-values.js";
import { emitReceiverValidators } from "./emit-receiver-validators.js";
import { emitTypes } from "./emit-types.js";
import { emitValidators } from "./emit-validators.js";
import { SchemaModel } from "./schema-model.js";

export const REPO_ROOT = join(import.meta.dirname, "..", "..");
export const GENERATED_DIR = join(REPO_ROOT, "packages", "schema", "src", "generated");
/** @acpkit/core's generated folder: its own copy of the method tables and closed lists (emit-core-tables.ts). */
export const CORE_GENERATED_DIR = join(REPO_ROOT, "packages", "core", "src", "generated");
/**
 * The schemas under schema/, one folder each: v1, the pinned v2 and the later v2 draft. Adding a
 * dialect means adding its folder here (and its entry in @acpkit/schema's registry).
 */
export const VERSIONS = ["v1", "v2", "v2-later"] as const;
/** The versions @acpkit/core keeps tables of: the ones its runtimes speak natively (the later draft reaches them through its codec). */
const CORE_VERSIONS: ReadonlySet<string> = new Set(["v1", "v2"]);

export function schemaPath(version: string): string {
  return join(REPO_ROOT, "schema", version, "acp.schema.json");
}

/** Everything generated for one schema, keyed by path relative to the output directory. */
export function generateVersion(model: SchemaModel, version: string): Map<string, string> {
  return new Map([
    [`${version}/types.ts`, emitTypes(model, version)],
    [`${version}/validators.ts`, emitValidators(model, version)],
    [`${version}/methods.ts`, emitMethods(model, version)],
    [`${version}/open-values.ts`, emitOpenValues(model, version)],
    [`${version}/constants.ts`, emitConstants(model, version)],
    [`${version}/agent-receives.ts`, emitReceiverValidators(model, version, "agent")],
    [`${version}/client-receives.ts`, emitReceiverValidators(model, version, "client")],
  ]);
}

/**
 * Everything generated from the schemas: `files` for @acpkit/schema's generated folder,
 * `coreFiles` for @acpkit/core's (each keyed by path relative to its folder).
 */
export function generateAll(): { files: Map<string, string>; coreFiles: Map<string, string>; models: Map<string, SchemaModel> } {
  const files = new Map<string, string>();
  const models = new Map<string, SchemaModel>();
  for (const version of VERSIONS) {
    const model = SchemaModel.load(schemaPath(version));
    models.set(version, model);
    for (const [path, text] of generateVersion(model, version)) files.set(path, text);
  }
  const coreModels = new Map([...models].filter(([version]) => CORE_VERSIONS.has(version)));
  return { files, coreFiles: new Map([["protocol-tables.ts", emitCoreTables(coreModels)]]), models };
}
