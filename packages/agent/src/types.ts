// The public shapes of @acpkit/agent. The application writes against the v2-shaped model
// (docs/protocol.md §7: one agent implementation serves v1 and v2); the runtime converts on v1.
import type { ProtocolVersion } from "@acpkit/schema";
import type {
  AvailableCommand,
  CompactionStatus,
  ConfigOption,
  ConfigValue,
  ContentBlock,
  Diagnostic,
  ElicitationResult,
  ElicitationSchema,
  McpServer,
  Meta,
  ModelUpdate,
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

/** Name and version the agent reports in `initialize` (`agentInfo`). */
export interface AgentInfo {
  name: string;
  version: string;
  title?: string | null;
}

/**
 * What the agent supports, independent of the protocol version. The runtime writes it as v1
 * booleans or v2 markers (docs/protocol.md §1.3). Anything omitted is "not supported".
 */
export interface AgentFeatures {
  /** `session/load` is served (requires `AgentDefinition.loadSession`). */
  loadSession?: boolean;
  /** Prompt blocks beyond the baseline `text` and `resource_link`. */
  prompt?: { image?: boolean; audio?: boolean; embeddedContext?: boolean };
  /** MCP transports the agent can connect to besides stdio (`sse` exists only on v1). */
  mcp?: { http?: boolean; sse?: boolean };
}

/** One way to authenticate, listed in `initialize` (`authMethods`). */
export interface AgentAuthMethod {
  id: string;
  name: string;
  description?: string | null;
}

/** What the agent learned about the client in `initialize`. */
export interface ClientInfo {
  /** The negotiated protocol version of the connection. */
  protocolVersion: ProtocolVersion;
  /** `clientInfo` from `initialize`, when the client sent one. */
  info: { name: string; version: string; title?: string | null } | null;
  /** The client serves `fs/read_text_file` (v1 with `fs.readTextFile: true` only). */
  canReadTextFile: boolean;
  /** The client serves `fs/write_text_file` (v1 with `fs.writeTextFile: true` only). */
  canWriteTextFile: boolean;
  /** The client serves `terminal/*` (v1 with `terminal: true` only). */
  canUseTerminal: boolean;
  /** The client answers form elicitations (v1 with `elicitation.form` only). */
  canElicitForm: boolean;
  /** The client answers URL elicitations (v1 with `elicitation.url` only). */
  canElicitUrl: boolean;
  /** The client shows `notice` updates (v1 with `session.notices` only). */
  supportsNotices: boolean;
  /** The client shows compaction updates (v1 with `session.compaction` only). */
  supportsCompaction: boolean;
  /** The client can show boolean config options (v1 with `session.configOptions.boolean`; pinned v2 options are select only in practice). */
  supportsBooleanConfigOptions: boolean;
}

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
export type PromptResult = void | undefined | StopReason | { stopReason: StopReason; _meta?: Meta | null };

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
  prompt(turn: Turn): PromptResult | Promise<PromptResult>;
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

/** A message or thought of the agent, addressed by a stable `messageId`. */
export interface MessageHandle {
  readonly messageId: string;
  /** Stream one more block (a string is one text block). */
  append(block: ContentBlock | string): void;
  /** Replace the whole content (v2 upsert; on v1 only an extension can be sent, see README). */
  replace(content: readonly ContentBlock[] | string): void;
  /** Replace (object) or clear (`null`) the message's `_meta`. */
  setMeta(meta: Meta | null): void;
}

/** Fields of a tool call the agent may set; `null` clears a field (v2 semantics). */
export interface ToolCallFields {
  title?: string | null;
  kind?: ToolKind | null;
  status?: ToolCallStatus | null;
  content?: ToolCallContent[] | null;
  locations?: ToolCallLocation[] | null;
  rawInput?: unknown;
  rawOutput?: unknown;
  _meta?: Meta | null;
}

/** The fields of a new tool call (`SessionWriter.toolCall`): a title is required. */
export interface ToolCallStart extends Omit<ToolCallFields, "title"> {
  title: string;
  /** Use this id instead of a generated one (it must be new in the session). */
  toolCallId?: string;
}

/**
 * A tool call of the running turn, returned by `toolCall()`: every method writes one update at once.
 * A location or diff whose `path` is not absolute fails with AcpError "InvalidArgument" and sends nothing.
 */
export interface ToolCallHandle {
  readonly toolCallId: string;
  /** Change the fields given; absent fields stay as they are. */
  update(fields: ToolCallFields): void;
  /** Append one content item (a string becomes a text `content` item). */
  appendContent(item: ToolCallContent | string): void;
  /** Mark the call `completed`, optionally setting more fields. */
  complete(fields?: Omit<ToolCallFields, "status">): void;
  /** Mark the call `failed`, optionally setting more fields. */
  fail(fields?: Omit<ToolCallFields, "status">): void;
  /** Ask the client for permission to run this call. Resolves `cancelled` when the turn is cancelled. */
  requestPermission(options: readonly PermissionOption[], fields?: ToolCallFields): Promise<PermissionOutcome>;
}

/** A permission request sent by `Turn.requestPermission`: the tool call it concerns and the options to choose from. */
export interface PermissionRequest {
  toolCall: { toolCallId: string } & ToolCallFields;
  options: readonly PermissionOption[];
  _meta?: Meta | null;
}

/** Context-window usage for a `usage_update`: tokens used, window size and an optional cost. */
export interface UsageReport {
  used: number;
  size: number;
  cost?: { amount: number; currency: string; _meta?: Meta | null } | null;
  _meta?: Meta | null;
}

/**
 * Sends updates for one session: used for a prompt turn and for `session/load` replay.
 * Every method returns at once; updates are written in call order, and the response of the
 * request being served is sent only after all of them were written.
 */
export interface SessionWriter {
  readonly sessionId: string;
  readonly client: ClientInfo;
  /** Start an agent message; `content` (if given) is its initial content. */
  message(content?: readonly ContentBlock[] | string): MessageHandle;
  /** Start an agent thought. */
  thought(content?: readonly ContentBlock[] | string): MessageHandle;
  /** Report a user message (history replay; agents do not echo the live prompt, docs/protocol.md M11). */
  userMessage(content: readonly ContentBlock[] | string): MessageHandle;
  /** Replace the entries of a plan (`id` defaults to "main"). Returns the plan id. */
  plan(entries: readonly PlanEntry[], options?: { id?: string; _meta?: Meta | null }): string;
  /** Create a tool call (status defaults to `pending`). */
  toolCall(start: ToolCallStart): ToolCallHandle;
  /** Report context-window usage. */
  usage(report: UsageReport): void;
  /** Send any model update as is (escape hatch for custom `_…` updates). */
  update(update: ModelUpdate): void;
  /** The session's modes as the runtime tracks them (`undefined` without modes or on v2). */
  readonly modes: SessionModes | undefined;
  /** The session's config options with their current values. */
  readonly configOptions: readonly ConfigOption[];
  /**
   * Switch the session's mode and tell the client (`current_mode_update`). Throws AcpError
   * "Unsupported" on v2 (no modes) and "InvalidArgument" for a mode the session does not have.
   */
  setMode(modeId: string): void;
  /** Replace the session's config options and tell the client (`config_option_update`). */
  setConfigOptions(options: readonly ConfigOption[]): void;
  /** Set one option's current value and tell the client (`config_option_update` with every option). */
  setConfigValue(configId: string, value: ConfigValue): void;
  /** Announce the commands the client may offer as slash commands (`available_commands_update`). */
  availableCommands(commands: readonly AvailableCommand[]): void;
  /** Change the session's title or last-activity time (`session_info_update`; `null` clears a field). */
  sessionInfo(info: { title?: string | null; updatedAt?: string | null; _meta?: Meta | null }): void;
  /** Show a notice (v1 `notice`). Throws AcpError "Unsupported" unless the client advertised notices. */
  notice(notice: Notice): void;
  /** Start a context compaction (v1 `compaction_update`). Throws AcpError "Unsupported" unless the client advertised compaction. */
  compaction(options?: { compactionId?: string }): CompactionHandle;
  /** Resolves once every update sent so far was written to the transport (backpressure). */
  flush(): Promise<void>;
}

/** A compaction started by `SessionWriter.compaction()`: each method writes one update at once. */
export interface CompactionHandle {
  readonly compactionId: string;
  /** Stream one piece of the summary (`compaction_summary_chunk`). */
  appendSummary(block: ContentBlock | string): void;
  /** Mark it `completed`, optionally with the whole summary. */
  complete(summary?: readonly ContentBlock[] | string): void;
  /** Mark it `failed` with the reason. */
  fail(error: string): void;
  /** Mark it `cancelled`. */
  cancel(): void;
}

/** What `Turn.createTerminal` runs on the client. */
export interface TerminalRequest {
  command: string;
  args?: readonly string[];
  env?: readonly { name: string; value: string }[];
  /** Absolute working directory; the session's when omitted. */
  cwd?: string | null;
  /** Keep at most this many bytes of output (the client drops the oldest). */
  outputByteLimit?: number | null;
}

/** The output of a client terminal so far. */
export interface TerminalOutput {
  output: string;
  /** Output was dropped to honour `outputByteLimit`. */
  truncated: boolean;
  /** Set once the command exited. */
  exitStatus: TerminalExitStatus | null;
}

/** A command running on the client (v1 `terminal/*`). Release it when done; the client frees it then. */
export interface TerminalHandle {
  readonly terminalId: string;
  /** A tool call content item that shows this terminal live (`toolCall({ content: [terminal.content] })`). */
  readonly content: ToolCallContent;
  /** The output so far (`terminal/output`). */
  output(): Promise<TerminalOutput>;
  /** Resolves when the command exits (`terminal/wait_for_exit`). */
  waitForExit(): Promise<TerminalExitStatus>;
  /** Stop the command; output stays readable until `release` (`terminal/kill`). */
  kill(): Promise<void>;
  /** Kill the command if it still runs and free the terminal (`terminal/release`); the id is invalid afterwards. */
  release(): Promise<void>;
}

/** A form elicitation (`Turn.elicit`). */
export interface FormElicitation {
  /** What is asked and why, shown to the user. */
  message: string;
  /** The form: a flat object schema of string, number, integer, boolean and multi-select fields. */
  requestedSchema: ElicitationSchema;
  /** The tool call the question belongs to, if any. */
  toolCallId?: string | null;
}

/** A URL elicitation (`Turn.elicitUrl`): the client opens `url`; the agent calls `completeElicitation` when the flow finished. */
export interface UrlElicitation {
  message: string;
  url: string;
  /** Defaults to a fresh id. */
  elicitationId?: string;
  toolCallId?: string | null;
}

/** One prompt turn, handed to `AgentDefinition.prompt`. */
export interface Turn extends SessionWriter {
  /** The prompt content, as the client sent it. */
  readonly prompt: readonly ContentBlock[];
  /** The `_meta` of the `session/prompt` request. */
  readonly promptMeta: Meta | null | undefined;
  /** Aborted by `session/cancel` (or `$/cancel_request` on the prompt, or the connection closing). */
  readonly signal: AbortSignal;
  /** True once the client cancelled the turn. */
  readonly cancelled: boolean;
  /** Ask the client for permission (`session/request_permission`); resolves `cancelled` when the turn is cancelled. */
  requestPermission(request: PermissionRequest): Promise<PermissionOutcome>;
  /** Read a file through the client (v1 with the client capability only). `path` is absolute and `line` 1-based, else AcpError "InvalidArgument" before anything is sent. */
  readTextFile(request: { path: string; line?: number | null; limit?: number | null }): Promise<string>;
  /** Write a file through the client (v1 with the client capability only). `path` is absolute, else AcpError "InvalidArgument". */
  writeTextFile(request: { path: string; content: string }): Promise<void>;
  /**
   * Run a command on the client (`terminal/create`; v1 with `clientCapabilities.terminal` only,
   * else AcpError "Unsupported"; a `cwd` that is not absolute: "InvalidArgument"). Embed
   * `terminal.content` in a tool call to show it live.
   */
  createTerminal(request: TerminalRequest): Promise<TerminalHandle>;
  /** Ask the user to fill in a form (`elicitation/create`, form mode; v1 with `elicitation.form` only). Resolves `cancel` when the turn is cancelled. */
  elicit(request: FormElicitation): Promise<ElicitationResult>;
  /** Send the user to a URL (`elicitation/create`, URL mode; v1 with `elicitation.url` only). */
  elicitUrl(request: UrlElicitation): Promise<ElicitationResult & { elicitationId: string }>;
  /** Tell the client a URL elicitation's flow finished (`elicitation/complete`). */
  completeElicitation(elicitationId: string): Promise<void>;
}
