// The validators the v2 schema tests exercise: the package's public API (schema validation plus,
// for validateParams/validateResult, legacy-shape detection). `local-validator.ts` offers the
// same signatures straight over schema/v2/acp.schema.json, for checking an edited schema before
// the generated validators are regenerated.
export { validateDefinition, validateParams, validateResult } from "../../src/index.js";
