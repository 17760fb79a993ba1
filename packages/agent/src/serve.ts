// serveAgent: wires an AgentDefinition to a Connection. It owns initialize (dual-version
// negotiation), authenticate, session/new, session/load, session/prompt and session/cancel;
// per-turn behaviour lives in turn.ts and writer.ts.
import {
  Connection,
  DiagnosticEmitter,
  ErrorCode,
  RpcError,
  isAcpError,
  negotiateVersion,
  type CloseInfo,
  type Diagnostic,
  type Transport,
} from "@acpkit/core";
import { mcpServersFromV1 } from "@acpkit/core/bridge";
import { validateParams, type ProtocolVersion, type ValidationError, type v1, type v2 } from "@acpkit/schema";
import { acceptedPromptBlocks, initializeResult, readClientInfo } from "./initialize.js";
import { checkPromptBlocks } from "./prompt-check.js";
import { V2SessionWire, type SessionWire } from "./session-wire.js";
import { checkPromptResult } from "./stop-reason.js";
import { TurnImpl } from "./turn.js";
import type { AgentDefinition, ClientInfo, McpServer, PromptResult, ServeOptions } from "./types.js";
import { V1SessionWire } from "./v1-wire.js";
import { SessionIds, UpdateWriter, type WriterScope } from "./writer.js";

/** A running agent: one connection to one client. */
export interface AgentServer {
  /** The underlying JSON-RPC connection. */
  readonly connection: Connection;
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
    readonly connection: Connection,
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
 * Serve `agent` over `transport`: answers initialize for protocol v1 and v2, runs one prompt turn
 * at a time per session and guarantees every update of a turn is written before its response.
 */
export function serveAgent(transport: Transport, agent: AgentDefinition, options: ServeOptions = {}): AgentServer {
  checkDefinition(agent);
  const versions = agent.versions ?? DEFAULT_VERSIONS;
  const connection = new Connection(transport, {
    side: "agent",
    requireInitialize: true,
    ...(options.validateOutgoing === undefined ? {} : { validateOutgoing: options.validateOutgoing }),
  });
  const diagnostics = new DiagnosticEmitter();
  if (options.onDiagnostic) diagnostics.subscribe(options.onDiagnostic);
  const report = (diagnostic: Diagnostic): void => diagnostics.emit(diagnostic);
  connection.onDiagnostic(report);

  const sessions = new Map<string, AgentSession>();
  const acceptedBlocks = acceptedPromptBlocks(agent.features);
  let version: ProtocolVersion | undefined;
  let client: ClientInfo | undefined;
  let authenticated = (agent.authMethods?.length ?? 0) === 0 || agent.requireAuthentication !== true;

  const wireFor = (sessionId: string, negotiated: ProtocolVersion): SessionWire =>
    negotiated === 2 ? new V2SessionWire(connection, sessionId) : new V1SessionWire(connection, sessionId, { strict: options.strictBridge === true, report });

  const requireSession = (sessionId: string): AgentSession => {
    const session = sessions.get(sessionId);
    if (!session) throw new RpcError(ErrorCode.ResourceNotFound, `Unknown session "${sessionId}"`, { sessionId });
    return session;
  };
  const requireIdle = (session: AgentSession): void => {
    if (session.busy) {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Session ${session.sessionId} already has a prompt turn in progress; send the next prompt after the previous response`,
        {
          reason: "turn_in_progress",
        },
      );
    }
  };
  const requireAuthenticated = (): void => {
    if (!authenticated) throw new RpcError(ErrorCode.AuthRequired, "Authentication required: call authenticate with one of the listed authMethods first");
  };

  connection.onRequest("initialize", (params) => {
    // Nothing validated these params yet (there is no version before this answer): read only
    // protocolVersion first, then validate the rest with the chosen version's schema (§1.2).
    const negotiated = negotiateVersion((params as { protocolVersion?: unknown } | null)?.protocolVersion, versions);
    if (!negotiated.ok) throw negotiated.error;
    const checked = validateParams(negotiated.version, "initialize", params);
    if (!checked.valid) throw invalidInitializeParams(checked.errors);
    version = negotiated.version;
    connection.setVersion(version);
    client = readClientInfo(version, params);
    return initializeResult(version, agent);
  });

  if ((agent.authMethods?.length ?? 0) > 0) {
    connection.onRequest("authenticate", async (params) => {
      const known = agent.authMethods!.map((method) => method.id);
      if (!known.includes(params.methodId)) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Unknown authentication method "${params.methodId}"; the agent lists ${known.map((id) => `"${id}"`).join(", ")}`,
          {
            path: "/methodId",
          },
        );
      }
      await agent.authenticate!(params.methodId, client!);
      authenticated = true;
      return {};
    });
  }

  connection.onRequest("session/new", async (params) => {
    requireAuthenticated();
    const result = await agent.newSession?.({
      cwd: params.cwd,
      mcpServers: modelMcpServers(version!, params.mcpServers, report),
      _meta: params._meta,
      client: client!,
    });
    const sessionId = result?.sessionId ?? newSessionId();
    if (sessions.has(sessionId))
      throw new RpcError(ErrorCode.InternalError, `Agent error: newSession returned session id "${sessionId}", which already exists on this connection`);
    sessions.set(sessionId, new AgentSession(sessionId, client!, connection, wireFor(sessionId, version!), report));
    return result?._meta === undefined ? { sessionId } : { sessionId, _meta: result._meta };
  });

  if (agent.loadSession && agent.features?.loadSession) {
    connection.onRequest("session/load", async (params) => {
      requireAuthenticated();
      const existing = sessions.get(params.sessionId);
      if (existing) requireIdle(existing);
      const session = existing ?? new AgentSession(params.sessionId, client!, connection, wireFor(params.sessionId, version!), report);
      session.wire.beginRequest?.("load");
      const replay = new UpdateWriter(session, true);
      session.busy = replay;
      try {
        await agent.loadSession!(
          {
            sessionId: params.sessionId,
            cwd: params.cwd,
            mcpServers: modelMcpServers(version!, params.mcpServers, report),
            _meta: params._meta,
            client: client!,
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
      sessions.set(params.sessionId, session);
      return {};
    });
  }

  connection.onRequest("session/prompt", async (params, ctx) => {
    const session = requireSession(params.sessionId);
    requireIdle(session);
    checkPromptBlocks(params.prompt, acceptedBlocks);
    session.wire.beginRequest?.("prompt");
    const turn = new TurnImpl(session, params.prompt, params._meta);
    session.busy = turn;
    // v1 `$/cancel_request` for the prompt. Never removed: once the turn closed, cancel is a no-op.
    ctx.onCancel(() => turn.cancel("The client cancelled the session/prompt request"));

    let result: PromptResult;
    let failure: { error: unknown } | undefined;
    try {
      // A cancel that arrived before the handler could start still ends the turn "cancelled".
      if (!turn.cancelled) result = await agent.prompt(turn);
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
        report({
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
  });

  connection.onNotification("session/cancel", (params) => {
    // C10: a cancel for an unknown or idle session is ignored.
    const busy = sessions.get(params.sessionId)?.busy;
    if (busy instanceof TurnImpl) busy.cancel("The client sent session/cancel");
  });

  void connection.closed.then((info) => {
    for (const session of sessions.values()) {
      if (session.busy instanceof TurnImpl) session.busy.abortForClose(`The connection closed: ${info.reason}`);
    }
  });

  return {
    connection,
    get protocolVersion() {
      return version;
    },
    get client() {
      return client;
    },
    closed: connection.closed,
    onDiagnostic: (listener) => diagnostics.subscribe(listener),
    close: (reason) => connection.close(reason),
  };
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
