// @acpkit/schema/validation: the method registry and the validation functions, without loading
// any version's validators up front and without the transcript tools. This is what @acpkit/core
// imports with the first `loadProtocolVersion`, so every agent and client loads it during
// initialize: it holds only what validating a message needs (the registry, the legacy-shape
// detectors that name a failure, the conformance checks of outgoing messages, error wording).
// `@acpkit/schema/lazy` is this plus the transcript checker. No Node built-ins: runs in browsers too.

/** Types of ACP v1 (`v1.SessionUpdate`, `v1.MethodMap`, …). */
export type * as v1 from "./generated/v1/types.js";
/** Types of pinned ACP v2 (`v2.SessionUpdate`, `v2.MethodMap`, …); open unions end in an `…Unknown` variant. */
export type * as v2 from "./generated/v2/types.js";

export type { ValidationError, ValidationResult } from "./validation-result.js";
export type { AjvErrorObject, CompiledValidator, MethodDirection, MethodKind } from "./compiled-validator.js";
export {
  PROTOCOL_VERSIONS,
  checkOutgoing,
  isProtocolVersionLoaded,
  loadProtocolVersion,
  provideValidators,
  getMethod,
  isProtocolVersion,
  methods,
  validateDefinition,
  validateParams,
  validateResult,
  type MethodInfo,
  type ProtocolVersion,
  type ReceivingSide,
  type VersionValidators,
} from "./registry.js";
export { detectLegacyMethod, detectLegacyResult, detectLegacyShape, type LegacyVersion } from "./legacy.js";
// Three facts about JSON values every acpkit package needs, defined in the small `methods` entry:
// every module of this package imports them from there, so the package holds one copy of each.
export { isJsonObject, ownEntry, setOwnField, SESSION_UPDATE_TAGS, STOP_REASONS } from "./methods.js";
