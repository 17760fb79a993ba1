// The public shapes of @acpkit/agent. The application writes against the v2-shaped model
// (docs/protocol.md §7: one agent implementation serves v1 and v2); the runtime converts on v1.
import type { ProtocolVersion } from "@acpkit/schema";
import type {
  AvailableCommand,
  CompactionStatus,
  ConfigOption,
  ConfigValue,
  ContentBlock,
  ElicitationResult,
  ElicitationSchema,
  McpServer,
  Meta,
  ModelUpdate,
  SessionUpdate,
  PermissionOption,
  PermissionOutcome,
  Notice,
  PlanEntry,
  SessionListEntry,
  SessionModes,
  StopReason,
  TerminalExitStatus,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from "@acpkit/core";
import type { AgentDiagnostic as Diagnostic } from "./diagnostics.js";

// The model's names are core's, shared with @acpkit/client.
export type { SessionMode } from "@acpkit/core";
export type {
  AvailableCommand,
  CompactionStatus,
  ConfigOption,
  ConfigValue,
  ContentBlock,
  ElicitationResult,
  ElicitationSchema,
  McpServer,
  Meta,
  ModelUpdate,
  SessionUpdate,
  Notice,
  PermissionOption,
  PermissionOutcome,
  PlanEntry,
  SessionListEntry,
  SessionModes,
  StopReason,
  TerminalExitStatus,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
};
import type { AgentAuthMethod, AgentFeatures, AgentInfo, ClientInfo } from "./peer-types.js";
import type { SessionWriter, AgentTurn } from "./turn-types.js";

export type { AgentAuthMethod, AgentFeatures, AgentInfo, ClientInfo } from "./peer-types.js";
export type * from "./turn-types.js";

/** What `AgentDefinition.newSession` receives for `session/new`. */
export interface NewSessionRequest {
  cwd: string;
  /** MCP servers in the model (v2) shape; v1 stdio servers get `type: "stdio"`. */
  mcpServers: McpServer[];
  _meta?: Meta | null;
  client: ClientInfo;
}

/** What `AgentDefinition.loadSession` receives for `session/load`: the new-session fields plus the id to load. */
export interface LoadSessionRequest extends NewSessionRequest {
  sessionId: string;
}

/**
 * How a session starts out, returned by `newSession`, `loadSession` and `resumeSession`. Every
 * field is optional; `modes` and `configOptions` default to `AgentDefinition.modes` / `.configOptions`.
 */
export interface SessionSetup {
  /** Modes of this session (v1 only: pinned v2 has no modes, so a v2 client never sees them). */
  modes?: SessionModes | null;
  /** Config options of this session, with their current values. */
  configOptions?: readonly ConfigOption[] | null;
  /** Commands to announce with an `available_commands_update` right after the response. */
  availableCommands?: readonly AvailableCommand[];
  _meta?: Meta | null;
}

/** What `newSession` may return: nothing (the runtime picks an id), or the id to use and how the session starts out. */
export type NewSessionResult = void | undefined | (SessionSetup & { sessionId?: string });

/** What `loadSession` and `resumeSession` may return: nothing, or how the session starts out. */
export type SessionSetupResult = void | undefined | SessionSetup;

/** What `AgentDefinition.resumeSession` receives for `session/resume` (same fields as `session/load`, no replay). */
export type ResumeSessionRequest = LoadSessionRequest;

/** What the session handlers without other parameters receive: the session and the client. */
export interface SessionRequest {
  sessionId: string;
  client: ClientInfo;
}

/** What `AgentDefinition.setMode` receives (the runtime already checked `modeId` is one of the session's modes). */
export interface SetModeRequest extends SessionRequest {
  modeId: string;
}

/** What `AgentDefinition.setConfigOption` receives (the runtime already checked the option and value exist). */
export interface SetConfigOptionRequest extends SessionRequest {
  configId: string;
  value: ConfigValue;
  /** The session's options with this value already applied. */
  configOptions: readonly ConfigOption[];
}

/** What `AgentDefinition.listSessions` receives. */
export interface ListSessionsRequest {
  /** Only sessions in this working directory, when set. */
  cwd: string | null;
  /** The `nextCursor` of the previous page, when the client asks for the next one. */
  cursor: string | null;
  client: ClientInfo;
}

/** One page of `session/list`. */
export interface ListSessionsResult {
  sessions: readonly SessionListEntry[];
  /** Set when more sessions follow. */
  nextCursor?: string | null;
}

/** What a prompt handler returns: a stop reason, or nothing for `end_turn`. */
export type PromptResult =
  | void
  | undefined
  | StopReason
  | { stopReason: StopReason; _meta?: Meta | null }
  /** End the turn with a failure (the later v2 draft's stop reason `error`; an error response on v1 and the pinned v2). */
  | { stopReason: "error"; error: { code?: number; message: string; data?: unknown }; _meta?: Meta | null };

/**
 * The agent implementation handed to `serveAgent`. Only `prompt` is required.
 */
export interface AgentDefinition {
  info?: AgentInfo;
  /** Versions this agent speaks; default `[1, 2]`. */
  versions?: readonly ProtocolVersion[];
  features?: AgentFeatures;
  /** Authentication methods; when non-empty, `authenticate` must be given. */
  authMethods?: readonly AgentAuthMethod[];
  /** When true, `session/new` and `session/load` answer -32000 until `authenticate` succeeded. */
  requireAuthentication?: boolean;
  /** Called for `authenticate` with one of the listed method ids. Throw to refuse. */
  authenticate?(methodId: string, client: ClientInfo): void | Promise<void>;
  /** Called for `session/new`. May return the session id to use. */
  newSession?(request: NewSessionRequest): NewSessionResult | Promise<NewSessionResult>;
  /**
   * Called for `session/load`. Replay the session's history through `replay` (user messages
   * included); the response is sent after every replayed update was written. Throw
   * `RpcError(-32002)` for an unknown session. May return how the session starts out.
   */
  loadSession?(request: LoadSessionRequest, replay: SessionWriter): SessionSetupResult | Promise<SessionSetupResult>;
  /** Runs one prompt turn. Resolve with the stop reason; throw to answer with a JSON-RPC error. */
  prompt(turn: AgentTurn): PromptResult | Promise<PromptResult>;
  /** Modes every new session starts with (v1 only; see `SessionSetup.modes`). */
  modes?: SessionModes;
  /** Config options every new session starts with, with their default values. */
  configOptions?: readonly ConfigOption[];
  /**
   * Called for `session/set_mode` after the runtime checked the mode exists. Throw to refuse; on
   * success the runtime records the new mode (v1 only: pinned v2 has no `session/set_mode`).
   */
  setMode?(request: SetModeRequest): void | Promise<void>;
  /**
   * Called for `session/set_config_option` after the runtime checked the option and value. Throw
   * to refuse; return the full option list when a change affects other options (for instance a
   * model change that alters the effort levels), or nothing to keep the runtime's update.
   */
  setConfigOption?(request: SetConfigOptionRequest): void | readonly ConfigOption[] | Promise<void | readonly ConfigOption[]>;
  /** Serves `session/list` (advertised only when given). */
  listSessions?(request: ListSessionsRequest): ListSessionsResult | Promise<ListSessionsResult>;
  /** Serves `session/resume`: reattach to a stored session without replaying it (advertised only when given). */
  resumeSession?(request: ResumeSessionRequest): SessionSetupResult | Promise<SessionSetupResult>;
  /**
   * Called for `session/close` after the runtime cancelled the session's turn and before it forgets
   * the session. `session/close` is always advertised: the runtime can always close.
   */
  closeSession?(request: SessionRequest): void | Promise<void>;
  /** Serves `session/delete` (advertised only when given). Throw `RpcError(-32002)` for an unknown session. */
  deleteSession?(request: SessionRequest): void | Promise<void>;
  /** Serves `logout` (advertised only when given); afterwards sessions need `authenticate` again when `requireAuthentication` is set. */
  logout?(client: ClientInfo): void | Promise<void>;
  /**
   * Cancels a tool call or agent terminal the agent announced itself (with `turn.update`, not
   * `turn.toolCall` / `turn.agentTerminal`, whose `cancellable` work the runtime cancels): called
   * for the later v2 draft's `tool_call/cancel` / `terminal/cancel` of an id in an open session
   * that the runtime holds no such work for. Resolve once the cancel is accepted (its final status
   * follows as an update); throw an `RpcError` to refuse. A proxy forwards these to its agent.
   */
  cancelWork?(request: { sessionId: string; kind: "tool_call" | "terminal"; id: string }): void | Promise<void>;
}

/** Options of `serveAgent`. */
export interface ServeOptions {
  /** Check outgoing messages against the schema (default: on unless NODE_ENV is production). */
  validateOutgoing?: boolean;
  /** v1 bridge: turn every lossy conversion into an error instead of a diagnostic. */
  strictBridge?: boolean;
  /** Default timeout of requests to the client (fs reads; permission questions never time out). See `ConnectionOptions.requestTimeoutMs`. */
  requestTimeoutMs?: number | null;
  /**
   * How many of the client's requests run at once; one more is answered -32603 "too many requests"
   * (docs/protocol.md E8). See `ConnectionOptions.maxRunningRequests`: default 1024, `null` for no limit.
   */
  maxRunningRequests?: number | null;
  /**
   * How many sessions one connection may hold open (created, loaded or resumed, not yet closed);
   * one more `session/new`, `session/load` or `session/resume` is answered -32603 with
   * `data: {"reason": "too_many_sessions", "limit": n}` before the agent's code runs. A session
   * costs the runtime about 1.3 KB, so without a bound a client could grow the agent without end.
   * Default `DEFAULT_MAX_SESSIONS` (1024); `null` for no limit.
   */
  maxSessions?: number | null;
  /** Receives every diagnostic (also available through `AgentServer.onDiagnostic`). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}
