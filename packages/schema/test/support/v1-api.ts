// The validators the v1 tests run against: the public API of @acpkit/schema (generated
// standalone validators + legacy-shape detection). ./v1-ajv-api.ts compiles schema/v1 with Ajv
// at test time instead; point this file there to check an edited schema before `pnpm codegen`.
export { validateDefinition, validateParams, validateResult } from "../../src/index.js";
