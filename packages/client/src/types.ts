// Public shapes of @acpkit/client. The application sees the v2-shaped model whatever version the
// connection runs (docs/protocol.md §7); v1 wire data is converted by the client-side bridge.
import type {
  AvailableCommand,
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
  SessionListEntry,
  SessionMode,
  SessionModes,
  StopReason,
  TerminalExitStatus,
  ToolCallPatch,
} from "@acpkit/core";
import type { ClientDiagnostic as Diagnostic } from "./diagnostics.js";
import type { ProtocolVersion } from "@acpkit/schema";

// The model's names are core's, shared with @acpkit/agent.
export type {
  AvailableCommand,
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
  SessionListEntry,
  SessionMode,
  SessionModes,
  StopReason,
  TerminalExitStatus,
  ToolCallPatch,
};

/** What a prompt turn ended with. */
export interface PromptOutcome {
  stopReason: StopReason;
  _meta?: Meta | null;
}

/** Name and version of a peer (`clientInfo` / `agentInfo`). */
export interface Implementation {
  name: string;
  version: string;
  title?: string | null;
}

/** The agent's capabilities, read from either version's layout (docs/protocol.md §1.3). */
export interface AgentCapabilities {
  /**
   * The agent serves sessions (`session/new`, `session/prompt`, `session/cancel`): always on v1
   * (baseline), on v2 only when it advertised `capabilities.session` (docs/protocol.md §1.3, N6).
   */
  sessions: boolean;
  loadSession: boolean;
  prompt: { image: boolean; audio: boolean; embeddedContext: boolean };
  mcp: { stdio: boolean; http: boolean; sse: boolean };
  /** Optional session methods the agent serves (v1 `sessionCapabilities.*`, v2 `session.*` markers). */
  session: { list: boolean; resume: boolean; close: boolean; delete: boolean; additionalDirectories: boolean };
  /** The agent serves `logout` (`auth.logout`). */
  logout: boolean;
  /** The capability object exactly as the agent sent it (v1 `agentCapabilities` / v2 `capabilities`). */
  raw: Record<string, unknown>;
}

/** An authentication method offered by the agent (model shape: `type` is always set). */
export interface AuthMethod {
  type: string;
  id: string;
  name: string;
  description?: string | null;
}

/** A permission request as the application's handler receives it. */
export interface PermissionRequest {
  sessionId: string;
  /** The operation, in the model's tool-call patch shape. */
  toolCall: ToolCallPatch;
  options: PermissionOption[];
  /**
   * What is asked about when it is not the tool call itself: a later-v2 agent's `command` subject
   * (`{type: "command", command, cwd, toolCallId?, terminalId?}`) or a newer kind, as it came.
   * `toolCall` then describes the same operation as a tool call of kind `execute`.
   */
  subject?: { type: string; [key: string]: unknown };
  _meta?: Meta | null;
}

/** The second argument of `ConnectOptions.requestPermission`. */
export interface PermissionContext {
  /** Aborted when the turn is cancelled; the request was then already answered "cancelled". */
  signal: AbortSignal;
}

/** Client-side file system for v1 agents (`fs/read_text_file`, `fs/write_text_file`). */
export interface FileSystemHandlers {
  /** Serve `fs/read_text_file`: the file's text (from `line`, at most `limit` lines). */
  readTextFile?(request: { sessionId: string; path: string; line?: number | null; limit?: number | null }): string | Promise<string>;
  /** Serve `fs/write_text_file`: write `content` to `path`, creating the file if it is missing. */
  writeTextFile?(request: { sessionId: string; path: string; content: string }): void | Promise<void>;
}

/** What a terminal request is about: the session it belongs to and that session's working directory. */
export interface TerminalContext {
  sessionId: string;
  /** The session's working directory: terminals are confined to it. */
  sessionCwd: string;
}

/** `terminal/create` as the application's terminal host receives it. */
export interface CreateTerminalRequest {
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  /** Absolute working directory asked for; the session's when null. */
  cwd: string | null;
  /** Keep at most this many bytes of output; null for the host's default. */
  outputByteLimit: number | null;
}

/** The output of a terminal so far (`terminal/output`). */
export interface TerminalOutput {
  output: string;
  truncated: boolean;
  exitStatus: TerminalExitStatus | null;
}

/**
 * Runs the agent's commands (v1 `terminal/*`); advertised as `clientCapabilities.terminal` when
 * given. `createNodeTerminalHost` from `@acpkit/client/node` is one for Node. A host throws
 * `RpcError` to answer with that error (for instance -32602 for a cwd outside the session).
 */
export interface TerminalHost {
  /** Start the command (`terminal/create`) and return the id the agent will use for it. */
  create(request: CreateTerminalRequest, context: TerminalContext): { terminalId: string } | Promise<{ terminalId: string }>;
  /** The output so far, without waiting (`terminal/output`). */
  output(terminalId: string): TerminalOutput | Promise<TerminalOutput>;
  /** Resolves when the command exited (`terminal/wait_for_exit`). */
  waitForExit(terminalId: string): Promise<TerminalExitStatus>;
  /** Stop the command; its output stays readable. */
  kill(terminalId: string): void | Promise<void>;
  /** Stop the command if it still runs and forget the terminal. */
  release(terminalId: string): void | Promise<void>;
}

/** A form elicitation as the application receives it. */
export interface FormElicitationRequest {
  mode: "form";
  sessionId: string | null;
  toolCallId: string | null;
  message: string;
  requestedSchema: ElicitationSchema;
}

/** A URL elicitation as the application receives it: open `url` for the user. */
export interface UrlElicitationRequest {
  mode: "url";
  sessionId: string | null;
  toolCallId: string | null;
  message: string;
  url: string;
  elicitationId: string;
}

/** Answers `elicitation/create` (v1); each mode is advertised only when its handler is given. */
export interface ElicitationHandlers {
  /** Answer a form: `accept` with the values, `decline`, or `cancel`. Its signal aborts when the turn is cancelled. */
  form?(request: FormElicitationRequest, context: PermissionContext): ElicitationResult | Promise<ElicitationResult>;
  /** Answer a URL request: `accept` once the user went through the flow, `decline` or `cancel`. */
  url?(request: UrlElicitationRequest, context: PermissionContext): ElicitationResult | Promise<ElicitationResult>;
  /** `elicitation/complete`: the URL flow of `elicitationId` finished. */
  complete?(elicitationId: string): void;
}

/** Options of `connectAgent`. */
export interface ConnectOptions {
  /**
   * The highest protocol version to offer; default 1 (the stable one). With 1 the request
   * carries v1 fields (and the fs capability); with 2, v2 fields (v2 has no client fs).
   */
  protocolVersion?: ProtocolVersion;
  clientInfo?: Implementation;
  /**
   * Answers `session/request_permission`. Without it every request is answered "cancelled"
   * (not approved) and a diagnostic is raised.
   */
  requestPermission?(request: PermissionRequest, context: PermissionContext): PermissionOutcome | Promise<PermissionOutcome>;
  /** File access served to v1 agents; advertised only for the methods given. */
  fs?: FileSystemHandlers;
  /** Runs the agent's commands (v1 `terminal/*`); advertised only when given. */
  terminal?: TerminalHost;
  /** Answers the agent's questions (v1 `elicitation/create`); each mode advertised only when given. */
  elicitation?: ElicitationHandlers;
  /**
   * v1 session updates to advertise (`clientCapabilities.session`): notices, compaction and
   * boolean config options. All default to true: SessionState keeps each of them.
   */
  sessionFeatures?: { notices?: boolean; compaction?: boolean; booleanConfigOptions?: boolean };
  /** Check outgoing messages against the schema (default: on unless NODE_ENV is production). */
  validateOutgoing?: boolean;
  /** v1 bridge: turn every lossy conversion into an error instead of a diagnostic. */
  strictBridge?: boolean;
  /** Default timeout of requests to the agent (see `ConnectionOptions.requestTimeoutMs`; session/prompt never times out). */
  requestTimeoutMs?: number | null;
  /**
   * How many of the agent's requests run at once; one more is answered -32603 "too many requests"
   * (docs/protocol.md E8). See `ConnectionOptions.maxRunningRequests`: default 1024, `null` for no limit.
   */
  maxRunningRequests?: number | null;
  /** Called for every diagnostic: dropped input, lossy v1 conversions, protocol violations by the agent. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Aborts the `initialize` request (and closes the connection). */
  signal?: AbortSignal;
  /**
   * With `protocolVersion: 2`: when the agent answers the v2 `initialize` with a JSON-RPC error,
   * retry once offering v1 (a `v2_fallback` diagnostic says so). Default true.
   */
  fallbackToV1?: boolean;
  /**
   * Which v2 dialect a v2 offer may end in: `"auto"` (default) offers the pinned draft's shape
   * first and, when the agent refuses it with a JSON-RPC error, the later draft's (`info`, what
   * `@agentclientprotocol/sdk` 2.4 agents speak) on the same connection; `"pinned"` or `"later"`
   * offers only that one. `ConnectedAgent.dialect` says which one answered.
   */
  v2Dialect?: "auto" | "pinned" | "later";
  /**
   * While waiting for the first `initialize` answer of this version in this process, run the
   * client's first exchange once against a scripted in-process agent, so the code it needs is
   * compiled before the real answers arrive (otherwise idle time of a process that just started
   * its agent; nothing of it reaches this connection). Off by default: it runs code in your
   * process that you did not ask for. A command-line client whose first turn's latency matters
   * turns it on (`acpkit run` does).
   */
  warmUp?: boolean;
}

/** Options of `ConnectedAgent.newSession` (`session/new`). */
export interface NewSessionOptions {
  /** Absolute working directory of the session (POSIX `/home/u/p` or Windows `C:\Users\u\p`); anything else fails with AcpError "InvalidArgument". */
  cwd: string;
  /** MCP servers in the model (v2) shape; default none. */
  mcpServers?: McpServer[];
  _meta?: Meta | null;
}

/** Options of `ConnectedAgent.loadSession` (`session/load`): the new-session fields plus the id to load. */
export interface LoadSessionOptions extends NewSessionOptions {
  sessionId: string;
  /**
   * Called with each update the agent replays, as it arrives (the session itself is handed over
   * only once the load is answered). Not called after the load; use `ClientSession.onUpdate` then.
   */
  onReplay?: (update: SessionUpdate) => void;
}

/** Options of `ConnectedAgent.resumeSession` (`session/resume`): reattach without a replay. */
export interface ResumeSessionOptions extends LoadSessionOptions {
  /** Further workspace roots, each absolute like `cwd` (needs the agent's `session.additionalDirectories`). */
  additionalDirectories?: string[];
}

/** Options of `ConnectedAgent.listSessions` (`session/list`). */
export interface ListSessionsOptions {
  /** Only sessions in this working directory (absolute, like a session's `cwd`). */
  cwd?: string;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** One page of `session/list`. */
export interface SessionList {
  sessions: SessionListEntry[];
  /** Set when another page follows. */
  nextCursor?: string;
}

/** Options of `ClientSession.prompt`. */
export interface PromptOptions {
  /** Aborting it cancels the turn (`session/cancel`). */
  signal?: AbortSignal;
  _meta?: Meta | null;
}
