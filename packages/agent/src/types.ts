// The public shapes of @acpkit/agent. The application writes against the v2-shaped model
// (docs/protocol.md §7: one agent implementation serves v1 and v2); the runtime converts on v1.
import type { ProtocolVersion } from "@acpkit/schema";
import type {
  ContentBlock,
  Diagnostic,
  McpServer,
  Meta,
  ModelUpdate,
  PermissionOption,
  PermissionOutcome,
  PlanEntry,
  StopReason,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from "@acpkit/core";

// The model's names are core's, shared with @acpkit/client.
export type {
  ContentBlock,
  McpServer,
  Meta,
  ModelUpdate,
  PermissionOption,
  PermissionOutcome,
  PlanEntry,
  StopReason,
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

/** What `newSession` may return: nothing (the runtime picks an id), or the id to use. */
export type NewSessionResult = void | undefined | { sessionId?: string; _meta?: Meta | null };

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
   * `RpcError(-32002)` for an unknown session.
   */
  loadSession?(request: LoadSessionRequest, replay: SessionWriter): void | Promise<void>;
  /** Runs one prompt turn. Resolve with the stop reason; throw to answer with a JSON-RPC error. */
  prompt(turn: Turn): PromptResult | Promise<PromptResult>;
}

/** Options of `serveAgent`. */
export interface ServeOptions {
  /** Check outgoing messages against the schema (default: on unless NODE_ENV is production). */
  validateOutgoing?: boolean;
  /** v1 bridge: turn every lossy conversion into an error instead of a diagnostic. */
  strictBridge?: boolean;
  /** Default timeout of requests to the client (fs reads; permission questions never time out). See `ConnectionOptions.requestTimeoutMs`. */
  requestTimeoutMs?: number | null;
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

/** A tool call of the running turn, returned by `toolCall()`: every method writes one update at once. */
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
  /** Send any model update as is (escape hatch, e.g. `session_info_update`). */
  update(update: ModelUpdate): void;
  /** Resolves once every update sent so far was written to the transport (backpressure). */
  flush(): Promise<void>;
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
  /** Read a file through the client (v1 with the client capability only). */
  readTextFile(request: { path: string; line?: number | null; limit?: number | null }): Promise<string>;
  /** Write a file through the client (v1 with the client capability only). */
  writeTextFile(request: { path: string; content: string }): Promise<void>;
}
