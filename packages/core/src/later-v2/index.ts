// `@acpkit/core/later-v2`: the later v2 draft (the v2 of `@agentclientprotocol/sdk` 2.4) as a dialect
// of the model. A codec per side maps each JSON-RPC message between the draft and the model
// (pinned-v2 messages plus acpkit's `_acpkit/…` updates), with the draft's version rule and what it
// cannot carry reported as lossy steps. `dialectTransport` (core's main entry) loads this module
// when an `initialize` shows the later draft, so a connection that never meets it never loads it.

/**
 * The later v2 draft as a dialect: the agent-side and client-side codecs, the version rule, and the stateless conversions they use.
 *
 * @module
 */
export { LaterV2AgentCodec, type LaterV2AgentCodecOptions } from "./agent-codec.js";
export { LaterV2ClientCodec, type LaterV2ClientCodecOptions } from "./client-codec.js";
export { chooseLaterVersion, type LaterVersionChoice } from "./negotiation.js";
export { type LaterLossy, laterLossy } from "./lossy.js";
export { diffFromLater, diffToLater, gitPatchOf } from "./diffs.js";
export {
  initializeParamsFromLater,
  initializeResultFromLater,
  initializeResultToLater,
  LATER_BASELINE_SESSION_METHODS,
  sessionParamsFromLater,
  sessionResultFromLater,
  sessionResultToLater,
  setConfigOptionFromLater,
  setConfigOptionToLater,
  UNKNOWN_IMPLEMENTATION,
} from "./handshake.js";
export {
  commandsFromLater,
  commandToLater,
  configOptionFromLater,
  configOptionToLater,
  permissionOutcomeFromLater,
  permissionRequestFromLater,
  permissionRequestToLater,
  sessionUpdateFromLater,
  sessionUpdateToLater,
  toolCallFromLater,
  toolCallToLater,
} from "./session-updates.js";
