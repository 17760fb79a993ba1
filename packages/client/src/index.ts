// @acpkit/client: drive an ACP agent (v1 or v2) with one session model.
export { connectAgent, MAX_PARKED_UPDATES, type AgentConnection } from "./connect.js";
export { ClientSession } from "./session.js";
export { Turn } from "./turn.js";
export type {
  AgentCapabilities,
  AuthMethod,
  ConnectOptions,
  ContentBlock,
  FileSystemHandlers,
  Implementation,
  LoadSessionOptions,
  McpServer,
  Meta,
  ModelUpdate,
  NewSessionOptions,
  PermissionContext,
  PermissionOption,
  PermissionOutcome,
  PermissionRequest,
  PromptOptions,
  PromptOutcome,
  StopReason,
  ToolCallPatch,
} from "./types.js";
// The session model (written by the state module): SessionState and its reducer.
export * from "./state/index.js";
