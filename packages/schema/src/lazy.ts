// @acpkit/schema/lazy: the method registry and the validation functions, without loading any
// version's validators up front. Validation in a version works once `await
// loadProtocolVersion(version)` resolved (docs/architecture.md §2). @acpkit/core imports this entry
// with its first `loadProtocolVersion`, so every agent and client loads it during initialize: it
// holds only what validating a message needs (the registry, the legacy-shape detectors that name a
// failure, the conformance checks of outgoing messages, error wording). The root entry is this, with
// both versions loaded, plus the transcript tools. No Node built-ins: runs in browsers too.

/** Types of ACP v1 (`v1.SessionUpdate`, `v1.MethodMap`, …). */
export type * as v1 from "./generated/v1/types.js";
/** Types of pinned ACP v2 (`v2.SessionUpdate`, `v2.MethodMap`, …); open unions end in an `…Unknown` variant. */
export type * as v2 from "./generated/v2/types.js";
/** Types of the later v2 draft, the v2 of `@agentclientprotocol/sdk` 2.4 (`laterV2.SessionUpdate`, `laterV2.MethodMap`, …). */
export type * as laterV2 from "./generated/v2-later/types.js";

export type { ValidationError, ValidationResult } from "./validation-result.js";
export type { AjvErrorObject, CompiledValidator, MethodDirection, MethodKind } from "./compiled-validator.js";
export {
  LATER_V2,
  PROTOCOL_VERSIONS,
  SCHEMA_VERSIONS,
  checkOutgoing,
  isProtocolVersionLoaded,
  loadProtocolVersion,
  provideValidators,
  getMethod,
  isProtocolVersion,
  isSchemaVersion,
  methods,
  schemaVersionLabel,
  validateDefinition,
  validateParams,
  validateResult,
  type MethodInfo,
  type ProtocolVersion,
  type ReceivingSide,
  type SchemaVersion,
  type VersionValidators,
} from "./registry.js";
export { detectLegacyMethod, detectLegacyResult, detectLegacyShape, type LegacyVersion } from "./legacy.js";
export {
  isJsonObject,
  methodTable,
  ownEntry,
  SESSION_UPDATE_TAGS,
  STOP_REASONS,
  type MethodTableEntry,
} from "./methods.js";
