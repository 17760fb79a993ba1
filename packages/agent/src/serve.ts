// serveAgent: wires an AgentDefinition to a Connection. It owns initialize (dual-version
// negotiation), authenticate, session/new, session/load, session/prompt and session/cancel;
// per-turn behaviour lives in turn.ts and writer.ts.
import {
  Connection,
  DiagnosticEmitter,
  acceptedPromptBlocks,
  ErrorCode,
  RpcError,
  isAcpError,
  negotiateVersion,
  type CloseInfo,
  type Diagnostic,
  type RequestContext,
  type Transport,
} from "@acpkit/core";
import { mcpServersFromV1 } from "@acpkit/core/bridge";
import { validateParams, type ProtocolVersion, type ValidationError, type v1, type v2 } from "@acpkit/schema";
import { initializeResult, readClientInfo } from "./initialize.js";
import { checkPromptBlocks } from "./prompt-check.js";
import { type AgentSideConnection, type PromptResponse, V2SessionWire, type SessionWire } from "./session-wire.js";
import { checkPromptResult } from "./stop-reason.js";
import { TurnImpl } from "./turn.js";
import type { AgentDefinition, ClientInfo, McpServer, PromptResult, ServeOptions } from "./types.js";
import { V1SessionWire } from "./v1-wire.js";
import { SessionIds, UpdateWriter, type WriterScope } from "./writer.js";

/** A running agent: one connection to one client. */
export interface AgentServer {
  /** The underlying JSON-RPC connection. */
  readonly connection: Connection<"agent">;
  /** The negotiated version, once `initialize` succeeded. */
  readonly protocolVersion: ProtocolVersion | undefined;
  /** What the client said about itself in `initialize`. */
  readonly client: ClientInfo | undefined;
  /** Resolves when the transport closed. */
  readonly closed: Promise<CloseInfo>;
  /** Diagnostics from the connection and the runtime (dropped updates, lossy v1 conversions, …). */
  onDiagnostic(listener: (diagnostic: Diagnostic) => void): () => void;
  /** Close the connection; running turns see their signal abort. */
  close(reason?: string): Promise<void>;
}

/** One session on this connection. */
class AgentSession implements WriterScope {
  readonly ids = new SessionIds();
  /** The running turn, or a session/load replay in progress. */
  busy: TurnImpl | UpdateWriter | undefined;
  constructor(
    readonly sessionId: string,
    readonly client: ClientInfo,
    readonly connection: AgentSideConnection,
    readonly wire: SessionWire,
    readonly report: (diagnostic: Diagnostic) => void,
  ) {}
}

const DEFAULT_VERSIONS: readonly ProtocolVersion[] = [1, 2];

let fallbackSessionCounter = 0;
function newSessionId(): string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return `sess_${uuid ?? `${Date.now().toString(36)}_${++fallbackSessionCounter}`}`;
}

/** MCP servers in the model (v2) shape; v1 stdio servers get `type: "stdio"`, SSE is reported (§7.1). */
function modelMcpServers(version: ProtocolVersion, servers: v1.McpServer[] | v2.McpServer[], report: (diagnostic: Diagnostic) => void): McpServer[] {
  // The connection validated the params against `version`'s schema, so the servers are that version's shape.
  if (version === 2) return servers as v2.McpServer[];
  return mcpServersFromV1(servers as v1.McpServer[], {
    onLossy: (event) => report({ code: `lossy_${event.code}`, message: event.detail, detail: event.update }),
  });
}

/** A handler failure as the JSON-RPC error the client sees (docs/protocol.md §4.11: -32603). */
function toRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  if (isAcpError(error)) return new RpcError(ErrorCode.InternalError, `Agent error: ${error.message}`, { code: error.code });
  const message = error instanceof Error ? error.message : String(error);
  return new RpcError(ErrorCode.InternalError, `Agent error: ${message}`);
}

function checkDefinition(agent: AgentDefinition): void {
  if (typeof agent?.prompt !== "function") throw new TypeError("serveAgent: the agent definition needs a prompt(turn) function");
  if ((agent.authMethods?.length ?? 0) > 0 && typeof agent.authenticate !== "function") {
    throw new TypeError("serveAgent: the agent lists authMethods but has no authenticate(methodId) function");
  }
  if (agent.features?.loadSession && typeof agent.loadSession !== "function") {
    throw new TypeError("serveAgent: features.loadSession is set but the agent has no loadSession(request, replay) function");
  }
  for (const version of agent.versions ?? DEFAULT_VERSIONS) {
    if (version !== 1 && version !== 2) throw new TypeError(`serveAgent: unsupported protocol version ${JSON.stringify(version)} in versions (1 and 2 exist)`);
  }
}

/**
 * One agent connection: the state `serveAgent` keeps (negotiated version, client, sessions,
 * authentication) and one method per protocol method it answers.
 */
class AgentRuntime implements AgentServer {
  readonly connection: AgentSideConnection;
  readonly closed: Promise<CloseInfo>;
  readonly #agent: AgentDefinition;
  readonly #options: ServeOptions;
  readonly #versions: readonly ProtocolVersion[];
  readonly #diagnostics = new DiagnosticEmitter();
  readonly #sessions = new Map<string, AgentSession>();
  readonly #acceptedBlocks: ReadonlySet<string>;
  #version: ProtocolVersion | undefined;
  #client: ClientInfo | undefined;
  #authenticated: boolean;
  readonly #report = (diagnostic: Diagnostic): void => this.#diagnostics.emit(diagnostic);

  constructor(transport: Transport, agent: AgentDefinition, options: ServeOptions) {
    this.#agent = agent;
    this.#options = options;
    this.#versions = agent.versions ?? DEFAULT_VERSIONS;
    this.#acceptedBlocks = acceptedPromptBlocks(agent.features?.prompt);
    this.#authenticated = (agent.authMethods?.length ?? 0) === 0 || agent.requireAuthentication !== true;
    if (options.onDiagnostic) this.#diagnostics.subscribe(options.onDiagnostic);
    const connection = new Connection(transport, {
      side: "agent",
      requireInitialize: true,
      ...(options.validateOutgoing === undefined ? {} : { validateOutgoing: options.validateOutgoing }),
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    });
    this.connection = connection;
    this.closed = connection.closed;
    connection.onDiagnostic(this.#report);
    connection.onRequest("initialize", (params) => this.#initialize(params));
    if ((agent.authMethods?.length ?? 0) > 0) connection.onRequest("authenticate", (params) => this.#authenticate(params.methodId));
    connection.onRequest("session/new", (params) => this.#newSession(params));
    if (agent.loadSession && agent.features?.loadSession) connection.onRequest("session/load", (params) => this.#loadSession(params));
    connection.onRequest("session/prompt", (params, ctx) => this.#prompt(params, ctx));
    connection.onNotification("session/cancel", (params) => {
      // C10: a cancel for an unknown or idle session is ignored.
      const busy = this.#sessions.get(params.sessionId)?.busy;
      if (busy instanceof TurnImpl) busy.cancel("The client sent session/cancel");
    });
    void connection.closed.then((info) => {
      for (const session of this.#sessions.values()) {
        if (session.busy instanceof TurnImpl) session.busy.abortForClose(`The connection closed: ${info.reason}`);
      }
    });
  }

  get protocolVersion(): ProtocolVersion | undefined {
    return this.#version;
  }

  get client(): ClientInfo | undefined {
    return this.#client;
  }

  onDiagnostic(listener: (diagnostic: Diagnostic) => void): () => void {
    return this.#diagnostics.subscribe(listener);
  }

  close(reason?: string): Promise<void> {
    return this.connection.close(reason);
  }

  #initialize(params: unknown): v1.InitializeResponse | v2.InitializeResponse {
    // Nothing validated these params yet (there is no version before this answer): read only
    // protocolVersion first, then validate the rest with the chosen version's schema (§1.2).
    const negotiated = negotiateVersion((params as { protocolVersion?: unknown } | null)?.protocolVersion, this.#versions);
    if (!negotiated.ok) throw negotiated.error;
    const checked = validateParams(negotiated.version, "initialize", params);
    if (!checked.valid) throw invalidInitializeParams(checked.errors);
    const version = negotiated.version;
    this.#version = version;
    this.connection.setVersion(version);
    this.#client = readClientInfo(version, params);
    return initializeResult(version, this.#agent);
  }

  async #authenticate(methodId: string): Promise<Record<string, never>> {
    const known = this.#agent.authMethods!.map((method) => method.id);
    if (!known.includes(methodId)) {
      throw new RpcError(ErrorCode.InvalidParams, `Unknown authentication method "${methodId}"; the agent lists ${known.map((id) => `"${id}"`).join(", ")}`, {
        path: "/methodId",
      });
    }
    await this.#agent.authenticate!(methodId, this.#client!);
    this.#authenticated = true;
    return {};
  }

  async #newSession(params: v1.NewSessionRequest | v2.NewSessionRequest): Promise<v2.NewSessionResponse> {
    this.#requireAuthenticated();
    const result = await this.#agent.newSession?.({
      cwd: params.cwd,
      mcpServers: modelMcpServers(this.#version!, params.mcpServers, this.#report),
      _meta: params._meta,
      client: this.#client!,
    });
    const sessionId = result?.sessionId ?? newSessionId();
    if (this.#sessions.has(sessionId)) {
      throw new RpcError(ErrorCode.InternalError, `Agent error: newSession returned session id "${sessionId}", which already exists on this connection`);
    }
    this.#sessions.set(sessionId, this.#createSession(sessionId));
    return result?._meta === undefined ? { sessionId } : { sessionId, _meta: result._meta };
  }

  async #loadSession(params: v1.LoadSessionRequest | v2.LoadSessionRequest): Promise<Record<string, never>> {
    this.#requireAuthenticated();
    const existing = this.#sessions.get(params.sessionId);
    if (existing) requireIdle(existing);
    const session = existing ?? this.#createSession(params.sessionId);
    session.wire.beginRequest?.("load");
    const replay = new UpdateWriter(session, true);
    session.busy = replay;
    try {
      await this.#agent.loadSession!(
        {
          sessionId: params.sessionId,
          cwd: params.cwd,
          mcpServers: modelMcpServers(this.#version!, params.mcpServers, this.#report),
          _meta: params._meta,
          client: this.#client!,
        },
        replay,
      );
    } catch (error) {
      await replay.close();
      session.busy = undefined;
      throw toRpcError(error);
    }
    await replay.close();
    session.busy = undefined;
    this.#sessions.set(params.sessionId, session);
    return {};
  }

  async #prompt(params: v1.PromptRequest | v2.PromptRequest, ctx: RequestContext): Promise<PromptResponse> {
    const session = this.#sessions.get(params.sessionId);
    if (!session) throw new RpcError(ErrorCode.ResourceNotFound, `Unknown session "${params.sessionId}"`, { sessionId: params.sessionId });
    requireIdle(session);
    checkPromptBlocks(params.prompt, this.#acceptedBlocks);
    session.wire.beginRequest?.("prompt");
    const turn = new TurnImpl(session, params.prompt, params._meta);
    session.busy = turn;
    // v1 `$/cancel_request` for the prompt. Never removed: once the turn closed, cancel is a no-op.
    ctx.onCancel(() => turn.cancel("The client cancelled the session/prompt request"));

    let result: PromptResult;
    let failure: { error: unknown } | undefined;
    try {
      // A cancel that arrived before the handler could start still ends the turn "cancelled".
      if (!turn.cancelled) result = await this.#agent.prompt(turn);
    } catch (error) {
      failure = { error };
    }
    // Every update of the turn is written before the response (O1, C6).
    const writing = turn.close();
    if (writing !== undefined) await writing;
    session.busy = undefined;

    if (turn.cancelled) {
      // C7: a cancelled turn answers "cancelled", even when aborting made the handler throw.
      if (failure && !isAbortError(failure.error)) {
        this.#report({
          code: "handler_error_after_cancel",
          message: `The prompt handler failed after session ${session.sessionId} was cancelled; answered "cancelled"`,
          sessionId: session.sessionId,
          detail: failure.error,
        });
      }
      return session.wire.promptResponse("cancelled", undefined);
    }
    if (failure) throw toRpcError(failure.error);
    const writeFailure = turn.writeFailure;
    if (isAcpError(writeFailure, "OutgoingInvalid")) {
      throw new RpcError(ErrorCode.InternalError, `Agent error: an update of this turn was invalid and was not sent: ${writeFailure.message}`);
    }
    const { stopReason, _meta } = checkPromptResult(result);
    return session.wire.promptResponse(stopReason, _meta);
  }

  #createSession(sessionId: string): AgentSession {
    const version = this.#version!;
    const wire: SessionWire =
      version === 2
        ? new V2SessionWire(this.connection, sessionId)
        : new V1SessionWire(this.connection, sessionId, { strict: this.#options.strictBridge === true, report: this.#report });
    return new AgentSession(sessionId, this.#client!, this.connection, wire, this.#report);
  }

  #requireAuthenticated(): void {
    if (!this.#authenticated) throw new RpcError(ErrorCode.AuthRequired, "Authentication required: call authenticate with one of the listed authMethods first");
  }
}

/** O4: one turn at a time per session; a second prompt gets -32600 with `reason: "turn_in_progress"`. */
function requireIdle(session: AgentSession): void {
  if (session.busy) {
    throw new RpcError(
      ErrorCode.InvalidRequest,
      `Session ${session.sessionId} already has a prompt turn in progress; send the next prompt after the previous response`,
      { reason: "turn_in_progress" },
    );
  }
}

/**
 * Serve `agent` over `transport`: answers initialize for protocol v1 and v2, runs one prompt turn
 * at a time per session and guarantees every update of a turn is written before its response.
 */
export function serveAgent(transport: Transport, agent: AgentDefinition, options: ServeOptions = {}): AgentServer {
  checkDefinition(agent);
  return new AgentRuntime(transport, agent, options);
}

/**
 * -32602 for initialize params that fail the negotiated version's schema, with the same `data`
 * as every other invalid request (`path`, `message`), and for a legacy shape the docs/protocol.md §9
 * pair `{legacyShape, expected}` (e.g. the later draft's `info` on pinned v2).
 */
function invalidInitializeParams(errors: readonly ValidationError[]): RpcError {
  const first = errors[0] ?? { path: "", message: "is invalid" };
  const data: Record<string, unknown> = { path: first.path, message: first.message };
  let message = `Invalid initialize params at ${first.path || "/"}: ${first.message}`;
  if (first.legacyShape !== undefined) {
    data.legacyShape = first.legacyShape;
    data.expected = first.expected;
    message = `Invalid params for initialize: expected ${first.expected ?? "the current shape"}, got the legacy shape ${first.legacyShape}`;
  }
  if (errors.length > 1) data.errors = errors;
  return new RpcError(ErrorCode.InvalidParams, message, data);
}

function isAbortError(error: unknown): boolean {
  return (error instanceof Error && error.name === "AbortError") || isAcpError(error, "Cancelled") || isAcpError(error, "ConnectionClosed");
}
