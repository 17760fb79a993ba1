// @acpkit/cli as a library: the pieces behind the `acpkit` commands that are useful on their own.
// - `main(argv, io?)` runs a command exactly as the binary does and returns its exit code.
// - `validateTranscript` / `formatProblem` check a recorded ndjson transcript (`acpkit validate`);
//   `TranscriptLineValidator` checks one line at a time, for transcripts too large to hold.
// - `proxyAgent` serves an agent reached in one dialect to an editor speaking another (`acpkit proxy`).
// - `createBuiltinAgent` is the test agent of `acpkit agent`, to serve in-process with
//   `serveAgent` (for example over `@acpkit/transport-memory` in a client's tests).
export { main, mainUsage } from "./main.js";
export { proxyAgent, type AgentProxy, type ProxyDiagnostic, type ProxyOptions } from "./proxy/proxy-agent.js";
export { processIO, Exit, type CommandIO } from "./io.js";
export type { Style } from "./style.js";
export {
  TranscriptLineValidator,
  formatProblem,
  validateTranscript,
  type TranscriptLineOptions,
  type TranscriptSummary,
  type TranscriptOptions,
  type TranscriptProblem,
  type TranscriptProtocol,
  type TranscriptReport,
} from "@acpkit/schema";
export {
  checkScript,
  createBuiltinAgent,
  formatScriptProblems,
  type AgentScript,
  type BuiltinAgentOptions,
  type ScriptCheck,
  type ScriptCondition,
  type ScriptProblem,
  type ScriptStep,
} from "@acpkit/conformance/test-agent";
