// @acpkit/schema/lazy: everything the root entry has, without loading any version's validators
// up front. Validation in a version works once `await loadProtocolVersion(version)` resolved
// (docs/architecture.md §2). It is the `validation` entry (what the agent and client runtimes
// load) plus the transcript checker, which only tools use. No Node built-ins: runs in browsers too.

export * from "./validation.js";
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
