// @acpkit/schema: generated TypeScript types, standalone validators and the method registry
// for ACP v1 and v2 (docs/architecture.md §2). No Node built-ins: runs in browsers too.

/** Types of ACP v1 (`v1.SessionUpdate`, `v1.MethodMap`, …). */
export type * as v1 from "./generated/v1/types.js";
/** Types of pinned ACP v2 (`v2.SessionUpdate`, `v2.MethodMap`, …); open unions end in an `…Unknown` variant. */
export type * as v2 from "./generated/v2/types.js";

export type { ValidationError, ValidationResult } from "./validation-result.js";
export type { MethodDirection, MethodKind } from "./compiled-validator.js";
export {
  PROTOCOL_VERSIONS,
  checkOutgoing,
  getMethod,
  isProtocolVersion,
  methods,
  validateDefinition,
  validateParams,
  validateResult,
  type MethodInfo,
  type ProtocolVersion,
} from "./registry.js";
export { detectLegacyMethod, detectLegacyResult, detectLegacyShape, type LegacyVersion } from "./legacy.js";
export { isJsonObject, ownEntry } from "./json-object.js";
export {
  AGENT_MARK,
  CLIENT_MARK,
  TranscriptChecker,
  formatProblem,
  parseTranscriptLine,
  validateTranscript,
  type TranscriptDirection,
  type TranscriptOptions,
  type TranscriptProblem,
  type TranscriptProtocol,
  type TranscriptReport,
} from "./transcript.js";
