// Public shapes of @acpkit/client. The application sees the v2-shaped model whatever version the
// connection runs (docs/protocol.md §7); v1 wire data is converted by the client-side bridge.
import type { ContentBlock, Diagnostic, McpServer, Meta, ModelUpdate, PermissionOption, PermissionOutcome, StopReason, ToolCallPatch } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";

// The model's names are core's, shared with @acpkit/agent.
export type { ContentBlock, McpServer, Meta, ModelUpdate, PermissionOption, PermissionOutcome, StopReason, ToolCallPatch };

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
  /** Check outgoing messages against the schema (default: on unless NODE_ENV is production). */
  validateOutgoing?: boolean;
  /** v1 bridge: turn every lossy conversion into an error instead of a diagnostic. */
  strictBridge?: boolean;
  /** Default timeout of requests to the agent (see `ConnectionOptions.requestTimeoutMs`; session/prompt never times out). */
  requestTimeoutMs?: number | null;
  /** Called for every diagnostic: dropped input, lossy v1 conversions, protocol violations by the agent. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Aborts the `initialize` request (and closes the connection). */
  signal?: AbortSignal;
}

/** Options of `AgentConnection.newSession` (`session/new`). */
export interface NewSessionOptions {
  /** Absolute working directory of the session. */
  cwd: string;
  /** MCP servers in the model (v2) shape; default none. */
  mcpServers?: McpServer[];
  _meta?: Meta | null;
}

/** Options of `AgentConnection.loadSession` (`session/load`): the new-session fields plus the id to load. */
export interface LoadSessionOptions extends NewSessionOptions {
  sessionId: string;
}

/** Options of `ClientSession.prompt`. */
export interface PromptOptions {
  /** Aborting it cancels the turn (`session/cancel`). */
  signal?: AbortSignal;
  _meta?: Meta | null;
}
