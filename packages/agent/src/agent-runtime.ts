// One agent connection: the state serveAgent keeps (negotiated version, client, sessions,
// authentication), the wiring of every method it serves to the module that answers it, and the
// methods that are the runtime's own: initialize, authenticate, session/prompt, session/cancel.
//
// What it serves: initialize, authenticate (when the agent lists methods), session/new, load
// (with features.loadSession), prompt, cancel, set_mode, set_config_option, close, list, resume
// and delete (when the agent has the hook), and logout (idem).
import {
  acceptedPromptBlocks,
  CANCEL_TERMINAL_METHOD,
  CANCEL_TOOL_CALL_METHOD,
  type CloseInfo,
  Connection,
  defaultValidateOutgoing,
  type Dialect,
  DiagnosticEmitter,
  dialectAwareRegistry,
  dialectTransport,
  type DialectTransport,
  ErrorCode,
  isAcpError,
  negotiateVersion,
  type RequestContext,
  RpcError,
  schemaRegistry,
  type Transport,
} from "@acpkit/core";
import type { AgentDiagnostic, AgentDiagnostic as Diagnostic } from "./diagnostics.js";
import type { ProtocolVersion, v1, v2 } from "@acpkit/schema";
import { AgentSession } from "./agent-session.js";
import { answerCancel } from "./cancellable-work.js";
import { isAbortError, toRpcError } from "./hooks.js";
import { initializeResult, invalidInitializeParams, readClientInfo } from "./initialize.js";
import { loadOnInitialize } from "./load-on-initialize.js";
import { checkPromptBlocks } from "./prompt-check.js";
import type { RuntimeScope } from "./runtime-scope.js";
import { closeSession, deleteSession, listSessions, logout, setConfigOption, setMode } from "./session-controls.js";
import { newSession, openSession } from "./session-setup.js";
import { maxSessionsOption, SessionTable } from "./session-table.js";
import { type AgentSideConnection, type PromptResponse, type SessionWire, V2SessionWire } from "./session-wire.js";
import { checkPromptResult } from "./stop-reason.js";
import { TurnImpl } from "./turn.js";
import type { AgentDefinition, ClientInfo, PromptResult, ServeOptions } from "./types.js";
import { V1SessionWire } from "./v1-wire.js";

/** The versions an agent serves unless its definition says otherwise. */
export const DEFAULT_VERSIONS: readonly ProtocolVersion[] = [1, 2];

export class AgentRuntime implements RuntimeScope {
  readonly connection: AgentSideConnection;
  readonly closed: Promise<CloseInfo>;
  readonly agent: AgentDefinition;
  readonly sessions: SessionTable;
  readonly report = (diagnostic: Diagnostic): void => this.#diagnostics.emit(diagnostic);
  readonly #options: ServeOptions;
  readonly #versions: readonly ProtocolVersion[];
  readonly #diagnostics = new DiagnosticEmitter<AgentDiagnostic["code"]>();
  readonly #acceptedBlocks: ReadonlySet<string>;
  readonly #wire: DialectTransport;
  #version: ProtocolVersion | undefined;
  #client: ClientInfo | undefined;
  #authenticated: boolean;

  constructor(transport: Transport, agent: AgentDefinition, options: ServeOptions) {
    this.agent = agent;
    this.#options = options;
    this.#versions = agent.versions ?? DEFAULT_VERSIONS;
    this.#acceptedBlocks = acceptedPromptBlocks(agent.features?.prompt);
    this.#authenticated = (agent.authMethods?.length ?? 0) === 0 || agent.requireAuthentication !== true;
    this.sessions = new SessionTable(maxSessionsOption(options.maxSessions), this.report);
    if (options.onDiagnostic) this.#diagnostics.subscribe(options.onDiagnostic);
    const validateOutgoing = options.validateOutgoing ?? defaultValidateOutgoing();
    // Checking what we send needs all of a version's validators; checking what we receive only the agent's part.
    // The runtime speaks the model (v1 or pinned-v2 messages); this layer maps a later-v2 client to it.
    this.#wire = dialectTransport(transport, {
      side: "agent",
      loadLaterV2: () => import("@acpkit/core/later-v2"),
      versions: this.#versions,
      onLossy: (event) => this.report({ code: `lossy_${event.code}`, message: event.detail, sessionId: event.sessionId, detail: event.update }),
    });
    const connection = new Connection(
      loadOnInitialize(this.#wire, this.#versions, () => this.#version !== undefined, validateOutgoing ? undefined : "agent"),
      {
        side: "agent",
        requireInitialize: true,
        // The later draft's shapes are right on a later-v2 connection (the codec sends them on).
        registry: dialectAwareRegistry(schemaRegistry, () => this.#client?.dialect === "v2-later"),
        validateOutgoing,
        ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
        ...(options.maxRunningRequests === undefined ? {} : { maxRunningRequests: options.maxRunningRequests }),
      },
    );
    this.connection = connection;
    this.closed = connection.closed;
    connection.onDiagnostic(this.report);
    this.#serve(connection, agent);
    void connection.closed.then((info) => {
      for (const session of this.sessions.values()) {
        if (session.busy instanceof TurnImpl) session.busy.abortForClose(`The connection closed: ${info.reason}`);
      }
    });
  }

  /** Registers a handler for every method this agent serves (the header lists them). */
  #serve(connection: AgentSideConnection, agent: AgentDefinition): void {
    connection.onRequest("initialize", (params) => this.#initialize(params));
    if ((agent.authMethods?.length ?? 0) > 0) connection.onRequest("authenticate", (params) => this.#authenticate(params.methodId));
    connection.onRequest("session/new", (params, ctx) => newSession(this, params, ctx));
    if (agent.loadSession && agent.features?.loadSession) connection.onRequest("session/load", (params, ctx) => openSession(this, "session/load", params, ctx));
    connection.onRequest("session/prompt", (params, ctx) => this.#prompt(params, ctx));
    connection.onRequest("session/set_mode", (params) => setMode(this, params));
    connection.onRequest("session/set_config_option", (params) => setConfigOption(this, params));
    connection.onRequest("session/close", (params) => closeSession(this, params.sessionId));
    if (agent.listSessions) connection.onRequest("session/list", (params) => listSessions(this, params));
    if (agent.resumeSession) connection.onRequest("session/resume", (params, ctx) => openSession(this, "session/resume", params, ctx));
    if (agent.deleteSession) connection.onRequest("session/delete", (params) => deleteSession(this, params.sessionId));
    if (agent.logout) connection.onRequest("logout", () => logout(this));
    // Cancelling one tool call or agent terminal (the later draft's tool_call/cancel, terminal/cancel; A10).
    // Work the agent announced itself (agent.cancelWork) is cancelled by the agent.
    const cancelOwn = agent.cancelWork?.bind(agent);
    connection.onRequest(CANCEL_TOOL_CALL_METHOD, (params) => answerCancel(this.#sessionOf(params)?.work, "tool_call", params, cancelOwn));
    connection.onRequest(CANCEL_TERMINAL_METHOD, (params) => answerCancel(this.#sessionOf(params)?.work, "terminal", params, cancelOwn));
    connection.onNotification("session/cancel", (params) => {
      // C10: a cancel for an unknown or idle session is ignored.
      const busy = this.sessions.get(params.sessionId)?.busy;
      if (busy instanceof TurnImpl) busy.cancel("The client sent session/cancel");
    });
  }

  #sessionOf(params: unknown): AgentSession | undefined {
    const sessionId = (params as { sessionId?: unknown } | null)?.sessionId;
    return typeof sessionId === "string" ? this.sessions.get(sessionId) : undefined;
  }

  get protocolVersion(): ProtocolVersion | undefined {
    return this.#version;
  }

  /** The wire dialect, once initialize succeeded (`v2-later` is served through the later-v2 codec). */
  get dialect(): Dialect | undefined {
    return this.#wire.dialect;
  }

  get version(): ProtocolVersion {
    return this.#version!;
  }

  get client(): ClientInfo {
    return this.#client!;
  }

  /** What the client said about itself, once initialize succeeded (AgentServer.client). */
  get clientInfo(): ClientInfo | undefined {
    return this.#client;
  }

  onDiagnostic(listener: (diagnostic: Diagnostic) => void): () => void {
    return this.#diagnostics.subscribe(listener);
  }

  close(reason?: string): Promise<void> {
    return this.connection.close(reason);
  }

  requireAuthenticated(): void {
    if (!this.#authenticated) throw new RpcError(ErrorCode.AuthRequired, "Authentication required: call authenticate with one of the listed authMethods first");
  }

  signOut(): void {
    if ((this.agent.authMethods?.length ?? 0) > 0 && this.agent.requireAuthentication === true) this.#authenticated = false;
  }

  createSession(sessionId: string): AgentSession {
    const version = this.#version!;
    const wire: SessionWire =
      version === 2
        ? new V2SessionWire(this.connection, sessionId, this.#client!.dialect === "v2-later")
        : new V1SessionWire(this.connection, sessionId, { strict: this.#options.strictBridge === true, report: this.report });
    return new AgentSession(sessionId, this.#client!, this.connection, wire, this.report, this.agent);
  }

  #initialize(params: unknown): v1.InitializeResponse | v2.InitializeResponse {
    // Nothing validated these params yet (there is no version before this answer): read only
    // protocolVersion first, then validate the rest with the chosen version's schema (§1.2).
    const negotiated = negotiateVersion((params as { protocolVersion?: unknown } | null)?.protocolVersion, this.#versions);
    if (!negotiated.ok) throw negotiated.error;
    const checked = schemaRegistry.getMethod(negotiated.version, "initialize")!.validateParams(params);
    if (!checked.valid) throw invalidInitializeParams(checked.errors);
    const version = negotiated.version;
    this.#version = version;
    this.connection.setVersion(version);
    this.#client = readClientInfo(version, params, this.#wire.answeringLaterInitialize);
    return initializeResult(version, this.agent);
  }

  async #authenticate(methodId: string): Promise<Record<string, never>> {
    const known = this.agent.authMethods!.map((method) => method.id);
    if (!known.includes(methodId)) {
      throw new RpcError(ErrorCode.InvalidParams, `Unknown authentication method "${methodId}"; the agent lists ${known.map((id) => `"${id}"`).join(", ")}`, {
        path: "/methodId",
      });
    }
    await this.agent.authenticate!(methodId, this.#client!);
    this.#authenticated = true;
    return {};
  }

  async #prompt(params: v1.PromptRequest | v2.PromptRequest, ctx: RequestContext): Promise<PromptResponse> {
    const session = this.sessions.require(params.sessionId);
    session.requireIdle();
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
      if (!turn.cancelled) result = await this.agent.prompt(turn);
    } catch (error) {
      failure = { error };
    }
    // What of the turn runs on in the background goes out with the turn, before its response.
    session.background.beforeAnswer(turn);
    // Every update of the turn is written before the response (O1, C6).
    const writing = turn.close();
    if (writing !== undefined) await writing;
    session.busy = undefined;

    if (turn.cancelled) {
      // C7: a cancelled turn answers "cancelled", even when aborting made the handler throw.
      if (failure && !isAbortError(failure.error)) {
        this.report({
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
}
