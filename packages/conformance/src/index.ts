// @acpkit/conformance: the ACP conformance kit as a library.
// - `checkAgent(target, options)` / `checkClient(target, options)` check an agent or a client, as
//   a command, over WebSocket (agents) or in-process, and return a typed report with an honest
//   verdict: conformant | not_conformant | inconclusive.
// - The requirement registry (AGENT_REQUIREMENTS, CLIENT_REQUIREMENTS, RequirementId) to list
//   and filter what is judged; `toJUnit` and the baseline helpers for CI gates.
// - `createBuiltinAgent`: the scriptable test agent behind `acpkit agent`, to serve in-process.
// - The transport suite is a separate entry: `@acpkit/conformance/transport`.
export { checkAgent, AGENT_CHECK_GROUPS } from "./agent/check-agent.js";
export {
  AgentUnavailable,
  type AgentCheckOptions,
  type AgentTarget,
  type CommandTarget,
  type InProcessTarget,
  type WebSocketTarget,
} from "./agent/target.js";
export { checkClient } from "./client/check-client.js";
export { CLIENT_CHECK_GROUPS } from "./client/judges.js";
export { CLIENT_SCENARIOS, type ClientScenario } from "./client/peer.js";
export { runClientPeer, runClientPeerCommand } from "./client/peer-stdio.js";
export type { ClientCheckOptions, ClientCommandTarget, ClientTarget, InProcessClientTarget } from "./client/target.js";
export {
  verdictOf,
  type AgentCheckReport,
  type CheckResult,
  type CheckStatus,
  type ClientCheckReport,
  type Verdict,
} from "./report.js";
export {
  AGENT_REQUIREMENTS,
  CLIENT_REQUIREMENTS,
  isRequirementId,
  requirement,
  requirementSide,
  type AgentRequirementId,
  type ClientRequirementId,
  type Requirement,
  type RequirementId,
  type Side,
  type Tier,
} from "./requirements.js";
export type { CheckGroup } from "./results.js";
export { toJUnit } from "./junit.js";
export { BaselineError, compareWithBaseline, parseBaseline, type BaselineComparison } from "./baseline.js";
export {
  checkScript,
  COMMAND_SYNOPSES,
  createBuiltinAgent,
  folderSessionStore,
  memorySessionStore,
  type SessionStore,
  type StoredSession,
  DEMO_PACE_MS,
  DEMO_READ_FILE,
  EDIT_PERMISSION_OPTIONS,
  EXAMPLE_EDIT,
  formatScriptProblems,
  KNOWN_STOP_REASONS,
  loadScriptFile,
  MAX_SLEEP_MS,
  MAX_STREAM_CHUNKS,
  parseCommand,
  stopReasonProblem,
  type AgentScript,
  type BuiltinAgentOptions,
  type ScriptCheck,
  type ScriptCondition,
  type ScriptProblem,
  type ScriptStep,
} from "./test-agent/index.js";
