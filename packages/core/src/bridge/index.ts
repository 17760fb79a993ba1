// The v1⇄v2 bridge (docs/protocol.md §7): per-session stateful converters for session updates and
// permission requests, plus stateless conversions for initialize, capabilities, auth methods,
// MCP servers, prompts and stop reasons. Every lossy step is reported through `onLossy`.

/**
 * The v1 ⇄ v2 bridge: stateful per-session converters (`AgentSideV1Bridge`, `ClientSideV1Bridge`) and the stateless conversions, reporting every lossy step.
 *
 * @module
 */
export { AgentSideV1Bridge, type V1PermissionRequest } from "./agent-side.js";
export { ClientSideV1Bridge } from "./client-side.js";
export { type LossyCode, type LossyEvent, type LossyOptions, LossyReporter, type V1BridgeOptions } from "./lossy.js";
export {
  COMPACTION_SUMMARY_CHUNK,
  COMPACTION_UPDATE,
  CURRENT_MODE_UPDATE,
  NOTICE_UPDATE,
  SYNTH_MESSAGE_ID_PREFIX,
  TERMINAL_CONTENT_TYPE,
  V1_ONLY_UPDATES,
  V1_PLAN_ID,
  V2_STOP_REASON_META_KEY,
} from "./model-names.js";
export {
  contentBlockToV1,
  contentBlocksToV1,
  jsonEqual,
  toolCallContentFromV1,
  toolCallContentToV1,
  toolCallContentsFromV1,
  toolCallContentsToV1,
} from "./content.js";
export { DEFAULT_TOOL_TITLE, toolCallCreateToV1, toolCallPatchFromV1, toolCallPatchToV1 } from "./tool-calls.js";
export {
  agentCapabilitiesFromV1,
  agentCapabilitiesToV1,
  authMethodsFromV1,
  authMethodsToV1,
  initializeParamsFromV1,
  initializeParamsToV1,
  initializeResultFromV1,
  initializeResultToV1,
  mcpServersFromV1,
  mcpServersToV1,
  permissionOptionsToV1,
  promptToV1,
  sessionSetupParamsFromV1,
  sessionSetupParamsToV1,
  stopReasonToV1,
  type V1ClientCapabilityOptions,
} from "./stateless.js";
