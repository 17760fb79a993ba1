// @acpkit/schema/lazy: everything the root entry has, without loading any version's validators
// up front. Validation in a version works once `await loadProtocolVersion(version)` resolved
// (docs/architecture.md §2); the agent and client runtimes do that during initialize, so an
// application that speaks one version never loads (or bundles into its first chunk) the other's.
// No Node built-ins: runs in browsers too.

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
export { isJsonObject, ownEntry, setOwnField } from "./json-object.js";
export {
  AGENT_MARK,
  CLIENT_MARK,
  MAX_OPEN_REQUESTS,
  TranscriptChecker,
  formatProblem,
  parseTranscriptLine,
  type TranscriptDirection,
  type TranscriptOptions,
  type TranscriptProblem,
  type TranscriptProtocol,
  type TranscriptReport,
} from "./transcript.js";
export {
  TranscriptLineValidator,
  VERSION_LOOKAHEAD_CHARS,
  validateTranscript,
  type TranscriptLineOptions,
  type TranscriptSummary,
} from "./transcript-lines.js";
