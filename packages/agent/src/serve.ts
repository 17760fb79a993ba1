// serveAgent: wires an AgentDefinition to a Connection. It owns initialize (dual-version
// negotiation), authenticate, session/new, session/load, session/prompt and session/cancel;
// per-turn behaviour lives in turn.ts and writer.ts.
import {
  Connection,
  defaultValidateOutgoing,
  describeTransportProblem,
  DiagnosticEmitter,
  acceptedPromptBlocks,
  checkAbsolutePathParam,
  ErrorCode,
  RpcError,
  isAcpError,
  negotiateVersion,
  schemaRegistry,
  type CloseInfo,
  type Diagnostic,
  type RequestContext,
  type Transport,
} from "@acpkit/core";
import type { ProtocolVersion, ValidationError, v1, v2 } from "@acpkit/schema";
import { initializeResult, readClientInfo } from "./initialize.js";
import { loadOnInitialize } from "./load-on-initialize.js";
import { v1Bridge } from "./v1-bridge.js";
import { SessionSettings } from "./session-settings.js";
import { checkPromptBlocks } from "./prompt-check.js";
import { type AgentSideConnection, type PromptResponse, V2SessionWire, type SessionWire } from "./session-wire.js";
import { checkPromptResult } from "./stop-reason.js";
import { TurnImpl } from "./turn.js";
import type {
  AgentDefinition,
  ClientInfo,
  ConfigOption,
  ConfigValue,
  LoadSessionRequest,
  McpServer,
  PromptResult,
  ServeOptions,
  SessionSetup,
  SessionSetupResult,
} from "./types.js";
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
  readonly settings: SessionSettings;
  /** The running turn, or a session/load replay in progress. */
  busy: TurnImpl | UpdateWriter | undefined;
  constructor(
    readonly sessionId: string,
    readonly client: ClientInfo,
    readonly connection: AgentSideConnection,
    readonly wire: SessionWire,
    readonly report: (diagnostic: Diagnostic) => void,
    defaults: AgentDefinition,
  ) {
    // Pinned v2 has no modes: a v2 session never has any, so nothing can leak onto a v2 wire.
    this.settings = new SessionSettings(client.protocolVersion === 1 ? defaults.modes : undefined, defaults.configOptions);
  }

  /** Apply what a setup handler returned (fields it left out keep the defaults). */
  adopt(setup: SessionSetup | undefined): void {
    if (setup === undefined) return;
    if (setup.modes !== undefined && this.client.protocolVersion === 1) this.settings.modes = setup.modes ?? undefined;
    if (setup.configOptions !== undefined) this.settings.configOptions = setup.configOptions ?? [];
  }

  /** The `modes` / `configOptions` of a session/new, load or resume result, in this version's shape. */
  setupFields(): { modes?: v1.SessionModeState; configOptions?: ConfigOption[] } {
    const out: { modes?: v1.SessionModeState; configOptions?: ConfigOption[] } = {};
    const modes = this.settings.modes;
    if (modes !== undefined) out.modes = { currentModeId: modes.currentModeId, availableModes: modes.availableModes.map((mode) => ({ ...mode })) };
    if (this.settings.configOptions.length > 0) out.configOptions = [...this.settings.configOptions];
    return out;
  }
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
  return v1Bridge().mcpServersFromV1(servers as v1.McpServer[], {
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
  if (agent.modes && !agent.modes.availableModes.some((mode) => mode.id === agent.modes!.currentModeId)) {
    throw new TypeError(`serveAgent: modes.currentModeId "${agent.modes.currentModeId}" is not one of modes.availableModes`);
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
  /** Sessions whose new, load or resume request is under way: they count against maxSessions too. */
  #sessionsStarting = 0;
  /** Ids a session/load or session/resume is setting up right now (not in the map yet). */
  readonly #settingUp = new Set<string>();
  readonly #maxSessions: number;
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
    this.#maxSessions = maxSessionsOption(options.maxSessions);
    if (options.onDiagnostic) this.#diagnostics.subscribe(options.onDiagnostic);
    const validateOutgoing = options.validateOutgoing ?? defaultValidateOutgoing();
    // Checking what we send needs all of a version's validators; checking what we receive only the agent's part.
    const connection = new Connection(
      loadOnInitialize(transport, this.#versions, () => this.#version !== undefined, validateOutgoing ? undefined : "agent"),
      {
        side: "agent",
        requireInitialize: true,
        validateOutgoing,
        ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
        ...(options.maxRunningRequests === undefined ? {} : { maxRunningRequests: options.maxRunningRequests }),
      },
    );
    this.connection = connection;
    this.closed = connection.closed;
    connection.onDiagnostic(this.#report);
    connection.onRequest("initialize", (params) => this.#initialize(params));
    if ((agent.authMethods?.length ?? 0) > 0) connection.onRequest("authenticate", (params) => this.#authenticate(params.methodId));
    connection.onRequest("session/new", (params, ctx) => this.#newSession(params, ctx));
    if (agent.loadSession && agent.features?.loadSession) connection.onRequest("session/load", (params, ctx) => this.#loadSession(params, ctx));
    connection.onRequest("session/prompt", (params, ctx) => this.#prompt(params, ctx));
    connection.onRequest("session/set_mode", (params) => this.#setMode(params));
    connection.onRequest("session/set_config_option", (params) => this.#setConfigOption(params));
    connection.onRequest("session/close", (params) => this.#closeSession(params.sessionId));
    if (agent.listSessions) connection.onRequest("session/list", (params) => this.#listSessions(params));
    if (agent.resumeSession) connection.onRequest("session/resume", (params, ctx) => this.#resumeSession(params, ctx));
    if (agent.deleteSession) connection.onRequest("session/delete", (params) => this.#deleteSession(params.sessionId));
    if (agent.logout) connection.onRequest("logout", () => this.#logout());
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
    const checked = schemaRegistry.getMethod(negotiated.version, "initialize")!.validateParams(params);
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

  /**
   * Hold a place for a session `method` is about to open, or refuse with -32603 when the
   * connection already has maxSessions (counting those still being set up, whose requests can
   * arrive together). A request for a session that is already open needs no place. Returns the
   * release to call once the request is settled (the session then counts through the map).
   */
  readonly #releaseSession = (): void => void this.#sessionsStarting--;

  #reserveSession(method: string, existing: AgentSession | undefined): () => void {
    if (existing !== undefined) return noop;
    const limit = this.#maxSessions;
    if (this.#sessions.size + this.#sessionsStarting >= limit) {
      const why = `this connection already has ${limit} sessions open (maxSessions); close one with session/close, or open another connection`;
      this.#report({ code: "too_many_sessions", message: `Refused ${method}: ${why}`, method });
      throw new RpcError(ErrorCode.InternalError, `Too many sessions: ${why}`, { reason: "too_many_sessions", limit });
    }
    this.#sessionsStarting++;
    return this.#releaseSession;
  }

  /**
   * `#reserveSession` for a load or resume of `sessionId`, which must not be under way already: two
   * at once would each run the agent's loadSession/resumeSession for one id and build two session
   * objects, the later replacing the earlier in the map. An open session is guarded by
   * requireIdle (its load marks it busy); this covers an id not open yet.
   */
  #reserveSetup(method: string, sessionId: string, existing: AgentSession | undefined): () => void {
    if (existing !== undefined) return noop;
    if (this.#settingUp.has(sessionId)) {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Session ${sessionId} is already being set up by an earlier session/load or session/resume; send ${method} again after its response`,
        { reason: "setup_in_progress" },
      );
    }
    const release = this.#reserveSession(method, existing);
    this.#settingUp.add(sessionId);
    return () => {
      this.#settingUp.delete(sessionId);
      release();
    };
  }

  async #newSession(params: v1.NewSessionRequest | v2.NewSessionRequest, ctx: RequestContext): Promise<v1.NewSessionResponse | v2.NewSessionResponse> {
    // H10: the schema lets any string through as a cwd; the agent's code only ever sees absolute ones.
    checkAbsolutePathParam("session/new", "/cwd", params.cwd);
    this.#requireAuthenticated();
    const release = this.#reserveSession("session/new", undefined);
    let result: (SessionSetup & { sessionId?: string }) | undefined;
    try {
      result = (await this.#agent.newSession?.({
        cwd: params.cwd,
        mcpServers: modelMcpServers(this.#version!, params.mcpServers, this.#report),
        _meta: params._meta,
        client: this.#client!,
      })) as (SessionSetup & { sessionId?: string }) | undefined;
    } finally {
      release();
    }
    const sessionId = result?.sessionId ?? newSessionId();
    if (this.#sessions.has(sessionId)) {
      throw new RpcError(ErrorCode.InternalError, `Agent error: newSession returned session id "${sessionId}", which already exists on this connection`);
    }
    const session = this.#createSession(sessionId);
    session.adopt(result);
    this.#sessions.set(sessionId, session);
    this.#announceCommands(session, result, ctx);
    const response = { sessionId, ...session.setupFields() };
    return result?._meta === undefined ? response : { ...response, _meta: result._meta };
  }

  async #loadSession(params: v1.LoadSessionRequest | v2.LoadSessionRequest, ctx: RequestContext): Promise<v1.LoadSessionResponse | v2.LoadSessionResponse> {
    checkAbsolutePathParam("session/load", "/cwd", params.cwd);
    this.#requireAuthenticated();
    const existing = this.#sessions.get(params.sessionId);
    if (existing) requireIdle(existing);
    const release = this.#reserveSetup("session/load", params.sessionId, existing);
    const session = existing ?? this.#createSession(params.sessionId);
    let setup: SessionSetupResult;
    try {
      session.wire.beginRequest?.("load");
      const replay = new UpdateWriter(session, true);
      session.busy = replay;
      try {
        setup = await this.#agent.loadSession!(this.#setupRequest(params), replay);
      } catch (error) {
        await replay.close();
        session.busy = undefined;
        throw toRpcError(error);
      }
      await replay.close();
      session.busy = undefined;
      session.adopt(setup ?? undefined);
      this.#sessions.set(params.sessionId, session);
    } finally {
      // Released once the session is in the map (or failed): it counts through one or the other throughout.
      release();
    }
    this.#announceCommands(session, setup ?? undefined, ctx);
    return setupResponse(session, setup ?? undefined);
  }

  async #resumeSession(
    params: v1.ResumeSessionRequest | v2.ResumeSessionRequest,
    ctx: RequestContext,
  ): Promise<v1.ResumeSessionResponse | v2.ResumeSessionResponse> {
    checkAbsolutePathParam("session/resume", "/cwd", params.cwd);
    this.#requireAuthenticated();
    const existing = this.#sessions.get(params.sessionId);
    if (existing) requireIdle(existing);
    const release = this.#reserveSetup("session/resume", params.sessionId, existing);
    const session = existing ?? this.#createSession(params.sessionId);
    let setup: SessionSetupResult;
    try {
      try {
        setup = await this.#agent.resumeSession!({ ...this.#setupRequest({ ...params, mcpServers: params.mcpServers ?? [] }) });
      } catch (error) {
        throw toRpcError(error);
      }
      session.adopt(setup ?? undefined);
      this.#sessions.set(params.sessionId, session);
    } finally {
      release();
    }
    this.#announceCommands(session, setup ?? undefined, ctx);
    return setupResponse(session, setup ?? undefined);
  }

  #setupRequest(params: { sessionId: string; cwd: string; mcpServers: v1.McpServer[] | v2.McpServer[]; _meta?: unknown }): LoadSessionRequest {
    return {
      sessionId: params.sessionId,
      cwd: params.cwd,
      mcpServers: modelMcpServers(this.#version!, params.mcpServers, this.#report),
      _meta: params._meta as LoadSessionRequest["_meta"],
      client: this.#client!,
    };
  }

  /** A setup's `availableCommands` go out right after the response, once the client knows the session. */
  #announceCommands(session: AgentSession, setup: SessionSetup | undefined, ctx: RequestContext): void {
    const commands = setup?.availableCommands;
    if (commands === undefined) return;
    ctx.afterResponse(() => {
      const writer = new UpdateWriter(session, false);
      writer.availableCommands(commands);
      void writer.close();
    });
  }

  async #setMode(params: v1.SetSessionModeRequest): Promise<Record<string, never>> {
    const session = this.#requireSession(params.sessionId);
    session.settings.checkModeRequest(params.modeId);
    try {
      await this.#agent.setMode?.({ sessionId: session.sessionId, modeId: params.modeId, client: this.#client! });
    } catch (error) {
      throw toRpcError(error);
    }
    session.settings.setMode(params.modeId);
    return {};
  }

  async #setConfigOption(params: v1.SetSessionConfigOptionRequest | v2.SetSessionConfigOptionRequest): Promise<{ configOptions: ConfigOption[] }> {
    const session = this.#requireSession(params.sessionId);
    const value = configValueOf(session, params);
    const updated = session.settings.withValueForRequest(params.configId, value);
    let replaced: void | readonly ConfigOption[];
    try {
      replaced = await this.#agent.setConfigOption?.({
        sessionId: session.sessionId,
        configId: params.configId,
        value,
        configOptions: updated,
        client: this.#client!,
      });
    } catch (error) {
      throw toRpcError(error);
    }
    session.settings.configOptions = replaced ? [...replaced] : updated;
    return { configOptions: [...session.settings.configOptions] };
  }

  async #closeSession(sessionId: string): Promise<Record<string, never>> {
    const session = this.#requireSession(sessionId);
    // Closing ends whatever the session was doing: its turn is cancelled like session/cancel (it
    // answers "cancelled"), and the session is forgotten once the handler agreed.
    if (session.busy instanceof TurnImpl) session.busy.cancel("The client closed the session");
    try {
      await this.#agent.closeSession?.({ sessionId, client: this.#client! });
    } catch (error) {
      throw toRpcError(error);
    }
    this.#sessions.delete(sessionId);
    return {};
  }

  async #listSessions(params: v1.ListSessionsRequest | v2.ListSessionsRequest): Promise<v1.ListSessionsResponse> {
    // The filter is optional; when given, it is a directory like any session's cwd.
    if (params.cwd != null) checkAbsolutePathParam("session/list", "/cwd", params.cwd);
    this.#requireAuthenticated();
    try {
      const page = await this.#agent.listSessions!({ cwd: params.cwd ?? null, cursor: params.cursor ?? null, client: this.#client! });
      const result: v1.ListSessionsResponse = { sessions: [...page.sessions] };
      if (page.nextCursor != null) result.nextCursor = page.nextCursor;
      return result;
    } catch (error) {
      throw toRpcError(error);
    }
  }

  async #deleteSession(sessionId: string): Promise<Record<string, never>> {
    this.#requireAuthenticated();
    const session = this.#sessions.get(sessionId);
    if (session?.busy instanceof TurnImpl) session.busy.cancel("The client deleted the session");
    try {
      await this.#agent.deleteSession!({ sessionId, client: this.#client! });
    } catch (error) {
      throw toRpcError(error);
    }
    this.#sessions.delete(sessionId);
    return {};
  }

  async #logout(): Promise<Record<string, never>> {
    try {
      await this.#agent.logout!(this.#client!);
    } catch (error) {
      throw toRpcError(error);
    }
    if ((this.#agent.authMethods?.length ?? 0) > 0 && this.#agent.requireAuthentication === true) this.#authenticated = false;
    return {};
  }

  #requireSession(sessionId: string): AgentSession {
    const session = this.#sessions.get(sessionId);
    if (!session) throw new RpcError(ErrorCode.ResourceNotFound, `Unknown session "${sessionId}"`, { sessionId });
    return session;
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
    return new AgentSession(sessionId, this.#client!, this.connection, wire, this.#report, this.#agent);
  }

  #requireAuthenticated(): void {
    if (!this.#authenticated) throw new RpcError(ErrorCode.AuthRequired, "Authentication required: call authenticate with one of the listed authMethods first");
  }
}

/** The result of session/load or session/resume: the session's modes (v1) and config options, and any `_meta`. */
function setupResponse(session: AgentSession, setup: SessionSetup | undefined): v1.LoadSessionResponse & v2.LoadSessionResponse {
  const response: Record<string, unknown> = session.setupFields();
  if (setup?._meta !== undefined) response._meta = setup._meta;
  return response as v1.LoadSessionResponse & v2.LoadSessionResponse;
}

/**
 * The value of a session/set_config_option request: v1 sends booleans as `{type: "boolean", value}`;
 * pinned v2 has value ids only, so a boolean option there is set with "true" or "false".
 */
function configValueOf(session: AgentSession, params: v1.SetSessionConfigOptionRequest | v2.SetSessionConfigOptionRequest): ConfigValue {
  const value = params.value as ConfigValue;
  const option = session.settings.configOptions.find((candidate) => candidate.id === params.configId);
  if (option?.type === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
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
  const transportProblem = describeTransportProblem(transport);
  if (transportProblem !== undefined) throw new TypeError(`serveAgent: ${transportProblem}`);
  checkDefinition(agent);
  return new AgentRuntime(transport, agent, options);
}

/** Default of `ServeOptions.maxSessions`: open sessions per connection. */
export const DEFAULT_MAX_SESSIONS = 1024;

const noop = (): void => {};

function maxSessionsOption(value: number | null | undefined): number {
  if (value === undefined) return DEFAULT_MAX_SESSIONS;
  if (value === null) return Number.POSITIVE_INFINITY;
  if (!Number.isInteger(value) || value <= 0) throw new TypeError(`serveAgent: options.maxSessions must be a positive integer or null, got ${String(value)}`);
  return value;
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
