// @acpkit/client: drive an ACP agent (v1 or v2) with one session model.
export type { ClientDiagnostic, ClientDiagnosticCode } from "./diagnostics.js";
export { connectAgent, MAX_PARKED_UPDATES, type ConnectedAgent, type AgentConnection } from "./connect.js";
export { ClientSession } from "./session.js";
export { MAX_KEPT_TURN_UPDATES, Turn } from "./turn.js";
export type {
  AgentCapabilities,
  AuthMethod,
  AvailableCommand,
  ConfigOption,
  ConfigValue,
  ConnectOptions,
  ContentBlock,
  CreateTerminalRequest,
  ElicitationHandlers,
  ElicitationResult,
  ElicitationSchema,
  FileSystemHandlers,
  FormElicitationRequest,
  Implementation,
  ListSessionsOptions,
  LoadSessionOptions,
  McpServer,
  Meta,
  SessionUpdate,
  NewSessionOptions,
  PermissionContext,
  PermissionOption,
  PermissionOutcome,
  PermissionRequest,
  PromptOptions,
  PromptOutcome,
  ResumeSessionOptions,
  SessionList,
  SessionListEntry,
  SessionMode,
  SessionModes,
  StopReason,
  TerminalContext,
  TerminalExitStatus,
  TerminalHost,
  TerminalOutput,
  ToolCallPatch,
  UrlElicitationRequest,
} from "./types.js";
// The session model (written by the state module): SessionState and its reducer.
export * from "./state/index.js";
