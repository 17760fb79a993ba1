// The validators the v1 tests run against. Points at the local Ajv stand-in until
// @acpkit/schema's public API (src/index.ts) exports validateDefinition and friends.
export { validateDefinition, validateParams, validateResult } from "./v1-ajv-api.js";
