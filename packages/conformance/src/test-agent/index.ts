// The built-in test agent of `acpkit agent`, for in-process use (tests, `acpkit demo`).
export { createBuiltinAgent, type BuiltinAgentOptions } from "./builtin-agent.js";
export { folderSessionStore, memorySessionStore, type SessionStore, type StoredSession } from "./session-store.js";
export { COMMAND_SYNOPSES, MAX_STREAM_CHUNKS, parseCommand } from "./commands.js";
export { DEMO_PACE_MS, DEMO_READ_FILE } from "./demo-turn.js";
export { EDIT_PERMISSION_OPTIONS, EXAMPLE_EDIT } from "./tools.js";
export {
  checkScript,
  formatScriptProblems,
  loadScriptFile,
  MAX_SLEEP_MS,
  type AgentScript,
  type ScriptCheck,
  type ScriptCondition,
  type ScriptProblem,
  type ScriptStep,
} from "./script.js";
export { KNOWN_STOP_REASONS, stopReasonProblem } from "./stop-reasons.js";
