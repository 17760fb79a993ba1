// @acpkit/schema: generated TypeScript types, standalone validators and the method registry
// for ACP v1, v2 and the later v2 draft (docs/architecture.md §2). No Node built-ins: runs in browsers too.
//
// This entry loads every version's validators when it is imported, so every function works at
// once, and adds the transcript tools. `@acpkit/schema/lazy` has the rest of its exports and loads
// a version's validators only when `loadProtocolVersion` asks for them (what the agent and client
// runtimes use).
import * as v1Validators from "./generated/v1/validators.js";
import * as v2Validators from "./generated/v2/validators.js";
import * as laterV2Validators from "./generated/v2-later/validators.js";
// From ./lazy.js, the entry that owns the registry, so both entries share one registry (each entry
// is bundled on its own; scripts/bundle-package.mjs).
import { provideValidators, type VersionValidators } from "./lazy.js";

provideValidators(1, v1Validators as unknown as VersionValidators);
provideValidators(2, v2Validators as unknown as VersionValidators);
provideValidators("v2-later", laterV2Validators as unknown as VersionValidators);

export * from "./lazy.js";
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
