// connectAgent: initialize (offer the highest version, accept the answer), then route the agent's
// session/update notifications and requests to the ClientSession they belong to.
import {
  AcpError,
  checkAbsolutePathArgument,
  checkAbsolutePathParam,
  COMPACTION_SUMMARY_CHUNK,
  COMPACTION_UPDATE,
  NOTICE_UPDATE,
  Connection,
  defaultValidateOutgoing,
  describeTransportProblem,
  isJsonObject,
  isRpcError,
  loadProtocolVersion,
  DiagnosticEmitter,
  ErrorCode,
  acceptedPromptBlocks,
  RpcError,
  isProtocolVersion,
  type CloseInfo,
  type Diagnostic,
  type Transport,
} from "@acpkit/core";
import type { V1BridgeOptions } from "@acpkit/core/bridge";
import type { ProtocolVersion, v1, v2 } from "@acpkit/schema";
import { initializeParams, readInitializeResult, type AgentDescription } from "./initialize.js";
import { ClientSession, type SessionHost } from "./session.js";
import { V2ClientSessionWire, type ClientSessionWire, type WireUpdate } from "./session-wire.js";
import type { SessionSetupFields } from "./state/reducer.js";
import type {
  AgentCapabilities,
  AuthMethod,
  ConnectOptions,
  ElicitationHandlers,
  ElicitationResult,
  Implementation,
  ListSessionsOptions,
  LoadSessionOptions,
  McpServer,
  Meta,
  NewSessionOptions,
  ResumeSessionOptions,
  SessionList,
  TerminalHost,
} from "./types.js";
import { V1ClientSessionWire, loadV1Bridge, type BridgeModule } from "./v1-wire.js";
import { warmUpOnce } from "./warm-up.js";

/** A connection to an initialized agent. */
export interface AgentConnection {
  /** The underlying JSON-RPC connection. */
  readonly connection: Connection;
  /** The version the agent answered (one per connection). */
  readonly protocolVersion: ProtocolVersion;
  readonly agentCapabilities: AgentCapabilities;
  readonly agentInfo: Implementation | null;
  readonly authMethods: readonly AuthMethod[];
  /** Resolves when the transport closed. */
  readonly closed: Promise<CloseInfo>;
  /** Call `authenticate` with one of `authMethods`. */
  authenticate(methodId: string): Promise<void>;
  /**
   * Create a session (`session/new`). A `cwd` that is not absolute fails with AcpError "InvalidArgument" before anything is sent;
   * an answer naming a session already open on this connection fails with AcpError "ProtocolViolation".
   */
  newSession(options: NewSessionOptions): Promise<ClientSession>;
  /** Load a session (`session/load`); its history arrives as updates before this resolves. */
  loadSession(options: LoadSessionOptions): Promise<ClientSession>;
  /** Reattach to a session without a replay (`session/resume`; needs the agent's `session.resume`). */
  resumeSession(options: ResumeSessionOptions): Promise<ClientSession>;
  /** One page of the agent's sessions (`session/list`; needs the agent's `session.list`). */
  listSessions(options?: ListSessionsOptions): Promise<SessionList>;
  /** Close a session (`session/close`); the open ClientSession, if any, stops receiving. */
  closeSession(sessionId: string): Promise<void>;
  /** Delete a stored session (`session/delete`; needs the agent's `session.delete`). */
  deleteSession(sessionId: string): Promise<void>;
  /** End the authenticated state (`logout`; needs the agent's `auth.logout`). */
  logout(): Promise<void>;
  /** Diagnostics from the connection, the v1 bridge and the sessions. */
  onDiagnostic(listener: (diagnostic: Diagnostic) => void): () => void;
  /** Close the connection (for a spawned agent: end its stdin, then stop the process); pending requests reject. */
  close(reason?: string): Promise<void>;
}

/** Updates for a session whose `session/new` answer is still being processed. */
/**
 * How many updates for a session not created yet are kept while `session/new` is pending; more are
 * dropped (reported `unknown_session`). An agent streams to a session only after announcing it, so
 * a few are normal; an unbounded number is a flood.
 */
export const MAX_PARKED_UPDATES = 1024;

const ignore = (): void => {};

interface ParkedUpdate {
  sessionId: string;
  update: WireUpdate;
}

class AgentConnectionImpl implements AgentConnection, SessionHost {
  readonly protocolVersion: ProtocolVersion;
  readonly agentCapabilities: AgentCapabilities;
  readonly agentInfo: Implementation | null;
  readonly authMethods: readonly AuthMethod[];
  readonly acceptedPromptBlocks: ReadonlySet<string>;
  readonly requestPermission: ConnectOptions["requestPermission"];
  readonly terminalHost: TerminalHost | undefined;
  readonly elicitation: ElicitationHandlers | undefined;
  readonly unadvertisedUpdates: ReadonlySet<string>;
  private readonly sessions = new Map<string, ClientSession>();
  private sessionsBeingCreated = 0;
  private parked: ParkedUpdate[] = [];

  constructor(
    readonly connection: Connection,
    description: AgentDescription,
    /** The version we offered: fs was advertised only in a v1 offer (§1.2). */
    private readonly offered: ProtocolVersion,
    private readonly options: ConnectOptions,
    private readonly diagnostics: DiagnosticEmitter,
    /** `@acpkit/core/bridge` on a v1 connection (loaded by connectAgent), undefined on v2. */
    private readonly bridge: BridgeModule | undefined,
  ) {
    this.protocolVersion = description.protocolVersion;
    this.agentCapabilities = description.agentCapabilities;
    this.agentInfo = description.agentInfo;
    this.authMethods = description.authMethods;
    this.acceptedPromptBlocks = acceptedPromptBlocks(description.agentCapabilities.prompt);
    this.requestPermission = options.requestPermission;
    // What the agent saw advertised: client features exist only in a v1 offer answered with v1 (§1.2).
    const v1Offer = this.protocolVersion === 1 && offered === 1;
    this.terminalHost = v1Offer ? options.terminal : undefined;
    this.elicitation = v1Offer ? options.elicitation : undefined;
    const features = v1Offer ? (options.sessionFeatures ?? {}) : { notices: false, compaction: false };
    const unadvertised = new Set<string>();
    if (features.notices === false) unadvertised.add(NOTICE_UPDATE);
    if (features.compaction === false) {
      unadvertised.add(COMPACTION_UPDATE);
      unadvertised.add(COMPACTION_SUMMARY_CHUNK);
    }
    this.unadvertisedUpdates = unadvertised;
    this.registerHandlers();
    void connection.closed.then(() => {
      for (const session of this.sessions.values()) session.connectionClosed();
    });
  }

  get closed(): Promise<CloseInfo> {
    return this.connection.closed;
  }

  report(diagnostic: Diagnostic): void {
    this.diagnostics.emit(diagnostic);
  }

  onDiagnostic(listener: (diagnostic: Diagnostic) => void): () => void {
    return this.diagnostics.subscribe(listener);
  }

  async authenticate(methodId: string): Promise<void> {
    await this.connection.request("authenticate", { methodId });
  }

  async newSession(options: NewSessionOptions): Promise<ClientSession> {
    this.requireSessions("session/new");
    // H10: refused here rather than sent: the agent could only answer -32602, or worse, resolve a
    // relative path against its own working directory.
    checkAbsolutePathArgument("newSession", "/cwd", options?.cwd);
    const params = this.setupParams(options);
    this.sessionsBeingCreated++;
    try {
      const result = await this.connection.request("session/new", params);
      if (this.sessions.has(result.sessionId)) {
        // Taking it would route the open session's updates to the new object and orphan the old.
        throw new AcpError(
          "ProtocolViolation",
          `The agent answered session/new with session id ${JSON.stringify(result.sessionId)}, which is already open on this connection`,
        );
      }
      const session = this.createSession(result.sessionId, options.cwd);
      session.applySetup(result as SessionSetupFields);
      this.sessions.set(session.sessionId, session);
      this.releaseParked(session);
      return session;
    } finally {
      this.sessionsBeingCreated--;
      this.dropParkedIfIdle();
    }
  }

  async loadSession(options: LoadSessionOptions): Promise<ClientSession> {
    this.requireSessions("session/load");
    if (!this.agentCapabilities.loadSession) {
      throw new AcpError("Unsupported", "The agent did not advertise session loading (v1 loadSession / v2 session.load)");
    }
    checkAbsolutePathArgument("loadSession", "/cwd", options?.cwd);
    if (this.sessions.has(options.sessionId)) {
      throw new AcpError("ProtocolViolation", `Session ${options.sessionId} is already open on this connection`);
    }
    // The replay arrives before the response, so the session must be routable first.
    const session = this.createSession(options.sessionId, options.cwd);
    this.sessions.set(options.sessionId, session);
    session.beginLoad();
    try {
      const result = await this.connection.request("session/load", { ...this.setupParams(options), sessionId: options.sessionId });
      session.applySetup((result ?? {}) as SessionSetupFields);
      return session;
    } catch (error) {
      this.sessions.delete(options.sessionId);
      throw error;
    }
  }

  async resumeSession(options: ResumeSessionOptions): Promise<ClientSession> {
    this.requireSessions("session/resume");
    this.requireSessionMethod("resume", "session/resume");
    checkAbsolutePathArgument("resumeSession", "/cwd", options?.cwd);
    for (const [index, directory] of (options.additionalDirectories ?? []).entries()) {
      checkAbsolutePathArgument("resumeSession", `/additionalDirectories/${index}`, directory);
    }
    if (this.sessions.has(options.sessionId)) throw new AcpError("ProtocolViolation", `Session ${options.sessionId} is already open on this connection`);
    const session = this.createSession(options.sessionId, options.cwd);
    this.sessions.set(options.sessionId, session);
    try {
      const params: Record<string, unknown> = { ...this.setupParams(options), sessionId: options.sessionId };
      if (options.additionalDirectories !== undefined) params.additionalDirectories = options.additionalDirectories;
      const result = await this.connection.request("session/resume", params as never);
      session.applySetup((result ?? {}) as SessionSetupFields);
      return session;
    } catch (error) {
      this.sessions.delete(options.sessionId);
      throw error;
    }
  }

  async listSessions(options: ListSessionsOptions = {}): Promise<SessionList> {
    this.requireSessionMethod("list", "session/list");
    const params: v1.ListSessionsRequest = {};
    if (options.cwd !== undefined) {
      checkAbsolutePathArgument("listSessions", "/cwd", options.cwd);
      params.cwd = options.cwd;
    }
    if (options.cursor !== undefined) params.cursor = options.cursor;
    const result = await this.connection.request("session/list", params);
    const page: SessionList = { sessions: result.sessions as SessionList["sessions"] };
    if (typeof result.nextCursor === "string") page.nextCursor = result.nextCursor;
    return page;
  }

  async closeSession(sessionId: string): Promise<void> {
    const open = this.sessions.get(sessionId);
    if (open) return open.close();
    this.requireSessionMethod("close", "session/close");
    await this.connection.request("session/close", { sessionId });
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.requireSessionMethod("delete", "session/delete");
    await this.connection.request("session/delete", { sessionId });
    this.sessions.get(sessionId)?.markClosed();
  }

  async logout(): Promise<void> {
    if (!this.agentCapabilities.logout) throw new AcpError("Unsupported", "logout: the agent did not advertise auth.logout");
    await this.connection.request("logout", {});
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  private requireSessionMethod(capability: keyof AgentCapabilities["session"], method: string): void {
    if (!this.agentCapabilities.session[capability]) {
      throw new AcpError("Unsupported", `${method}: the agent did not advertise it (v1 sessionCapabilities.${capability} / v2 session.${capability})`);
    }
  }

  close(reason?: string): Promise<void> {
    return this.connection.close(reason);
  }

  // N6: an omitted capability is unsupported. A v2 agent without `capabilities.session` has no
  // session methods at all (§1.3), so asking for one would only earn a -32601.
  private requireSessions(method: string): void {
    if (!this.agentCapabilities.sessions) {
      throw new AcpError(
        "Unsupported",
        `${method}: the agent did not advertise capabilities.session, so it serves no session methods (protocol v${this.protocolVersion})`,
      );
    }
  }

  private setupParams(options: NewSessionOptions): v1.NewSessionRequest | v2.NewSessionRequest {
    const servers: McpServer[] = options.mcpServers ?? [];
    const meta = options._meta === undefined ? {} : { _meta: options._meta as Meta | null };
    if (this.protocolVersion === 1) return { cwd: options.cwd, mcpServers: this.bridge!.mcpServersToV1(servers, this.lossyOptions()), ...meta };
    return { cwd: options.cwd, mcpServers: servers, ...meta };
  }

  private lossyOptions(): Omit<V1BridgeOptions, "sessionId"> {
    return {
      strict: this.options.strictBridge === true,
      onLossy: (event) => this.report({ code: `lossy_${event.code}`, message: event.detail, sessionId: event.sessionId, detail: event.update }),
      // V4: a v1 agent's update for a tool call it never introduced (v1_tool_call_missing).
      onDiagnostic: (diagnostic) => this.report(diagnostic),
    };
  }

  private createSession(sessionId: string, cwd: string): ClientSession {
    const wire: ClientSessionWire =
      this.protocolVersion === 2 ? new V2ClientSessionWire(sessionId) : new V1ClientSessionWire(sessionId, this.lossyOptions(), this.bridge!);
    return new ClientSession(this, sessionId, wire, cwd);
  }

  private registerHandlers(): void {
    const connection = this.connection;
    connection.onNotification("session/update", (params) => {
      const session = this.sessions.get(params.sessionId);
      if (session) return session.receiveUpdate(params.update);
      if (this.sessionsBeingCreated > 0 && this.parked.length < MAX_PARKED_UPDATES) {
        // Sent right after a session/new answer we have not finished processing: keep it (up to a
        // bound: a peer must not grow client memory by streaming to a session that does not exist yet).
        this.parked.push({ sessionId: params.sessionId, update: params.update });
        return;
      }
      this.report({
        code: "unknown_session",
        message: `Dropped a session/update for unknown session ${params.sessionId}`,
        sessionId: params.sessionId,
        detail: params.update,
      });
    });
    connection.onRequest("session/request_permission", (params, ctx) => this.requireSession(params.sessionId).handlePermission(params, ctx));
    // Serve fs only where the agent saw the capability: a v1 answer to a v2 offer (downgrade)
    // advertised no fs, so fs/* stays -32601 there instead of reaching the application (§1.2).
    if (this.protocolVersion === 1 && this.offered === 1) this.registerFileSystem();
    if (this.terminalHost !== undefined) this.registerTerminals(this.terminalHost);
    if (this.elicitation !== undefined) this.registerElicitation(this.elicitation);
  }

  /** terminal/* for the sessions of this connection; a terminal id is only valid in the session that created it. */
  private registerTerminals(host: TerminalHost): void {
    const owner = (params: { sessionId: string; terminalId: string }): ClientSession => {
      const session = this.requireSession(params.sessionId);
      if (!session.ownsTerminal(params.terminalId)) {
        throw new RpcError(ErrorCode.ResourceNotFound, `Unknown terminal "${params.terminalId}" in session ${params.sessionId}`, {
          terminalId: params.terminalId,
        });
      }
      return session;
    };
    this.connection.onRequest("terminal/create", (params) => {
      const session = this.requireSession(params.sessionId);
      // E4, for every TerminalHost: the Node host also confines the directory to the session's.
      if (params.cwd != null) checkAbsolutePathParam("terminal/create", "/cwd", params.cwd);
      return session.createTerminal(host, params);
    });
    this.connection.onRequest("terminal/output", async (params) => {
      const output = await owner(params).snapshotTerminal(host, params.terminalId);
      return output.exitStatus === null ? { output: output.output, truncated: output.truncated } : output;
    });
    this.connection.onRequest("terminal/wait_for_exit", async (params) => {
      const session = owner(params);
      const status = await host.waitForExit(params.terminalId);
      await session.snapshotTerminal(host, params.terminalId).catch(() => undefined);
      return { exitCode: status.exitCode, signal: status.signal };
    });
    this.connection.onRequest("terminal/kill", async (params) => {
      const session = owner(params);
      await host.kill(params.terminalId);
      await session.snapshotTerminal(host, params.terminalId).catch(() => undefined);
      return {};
    });
    this.connection.onRequest("terminal/release", async (params) => {
      await owner(params).releaseTerminal(host, params.terminalId);
      return {};
    });
  }

  private registerElicitation(handlers: ElicitationHandlers): void {
    this.connection.onRequest("elicitation/create", (params, ctx) => {
      const scoped = params as { sessionId?: string; toolCallId?: string | null };
      const sessionId = typeof scoped.sessionId === "string" ? scoped.sessionId : null;
      const common = { sessionId, toolCallId: scoped.toolCallId ?? null, message: params.message };
      let request: Parameters<ClientSession["elicit"]>[0];
      if (params.mode === "form") request = { ...common, mode: "form", requestedSchema: (params as v1.CreateElicitationForm).requestedSchema };
      else if (params.mode === "url")
        request = { ...common, mode: "url", url: (params as v1.CreateElicitationUrl).url, elicitationId: (params as v1.CreateElicitationUrl).elicitationId };
      // A mode this client does not know: decline rather than guess.
      else return { action: "decline" };
      if (sessionId !== null) return this.requireSession(sessionId).elicit(request, ctx);
      // Request scope (no session): nothing to cancel it with but the request itself.
      const handler = request.mode === "form" ? handlers.form : handlers.url;
      if (handler === undefined) return { action: "decline" };
      return (handler as (r: typeof request, c: { signal: AbortSignal }) => ElicitationResult | Promise<ElicitationResult>)(request, { signal: ctx.signal });
    });
    this.connection.onNotification("elicitation/complete", (params) => handlers.complete?.(params.elicitationId));
  }

  private registerFileSystem(): void {
    const fs = this.options.fs;
    if (typeof fs?.readTextFile === "function") {
      const read = fs.readTextFile.bind(fs);
      // A file's text is the one large answer an agent can ask for many times at once, each a
      // string of its own. Reads therefore run one at a time, each once the answers before it
      // went out (Connection.outputReady): 300 reads of a 10 MB file asked in one go then hold
      // about one file's text at a time instead of 300.
      let lastRead: Promise<unknown> = Promise.resolve();
      const readWhenReady = async (params: Parameters<typeof read>[0]): Promise<{ content: string }> => {
        await this.connection.outputReady();
        return { content: await read(params) };
      };
      this.connection.onRequest("fs/read_text_file", (params) => {
        this.requireSession(params.sessionId);
        checkFileParams("fs/read_text_file", params);
        const answer = lastRead.then(() => readWhenReady(params));
        lastRead = answer.then(ignore, ignore);
        return answer;
      });
    }
    if (typeof fs?.writeTextFile === "function") {
      const write = fs.writeTextFile.bind(fs);
      this.connection.onRequest("fs/write_text_file", async (params) => {
        this.requireSession(params.sessionId);
        checkFileParams("fs/write_text_file", params);
        await write(params);
        return {};
      });
    }
  }

  private requireSession(sessionId: string): ClientSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new RpcError(ErrorCode.ResourceNotFound, `Unknown session "${sessionId}"`, { sessionId });
    return session;
  }

  private releaseParked(session: ClientSession): void {
    if (this.parked.length === 0) return;
    const rest: ParkedUpdate[] = [];
    for (const entry of this.parked) {
      if (entry.sessionId === session.sessionId) session.receiveUpdate(entry.update);
      else rest.push(entry);
    }
    this.parked = rest;
  }

  private dropParkedIfIdle(): void {
    if (this.sessionsBeingCreated > 0 || this.parked.length === 0) return;
    for (const entry of this.parked) {
      this.report({
        code: "unknown_session",
        message: `Dropped a session/update for unknown session ${entry.sessionId}`,
        sessionId: entry.sessionId,
        detail: entry.update,
      });
    }
    this.parked = [];
  }
}

/**
 * E4: an agent's file request names an absolute path and 1-based lines. The schema allows any
 * string and line 0, so this answers them -32602 before the application's handler sees them (a
 * handler given "../x" would resolve it against the editor's own directory).
 */
function checkFileParams(method: string, params: { path: string; line?: number | null }): void {
  checkAbsolutePathParam(method, "/path", params.path);
  if (params.line === 0) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: /line must be 1 or more (lines are 1-based)`, {
      path: "/line",
      message: "must be 1 or more (lines are 1-based)",
    });
  }
}

/**
 * Connect to an agent over `transport`: sends `initialize` offering `options.protocolVersion`
 * (default 1) and resolves once the agent answered with a version this client speaks (1 or 2).
 * Any other answer closes the connection and rejects with AcpError "VersionUnsupported".
 */
export async function connectAgent(transport: Transport, options: ConnectOptions = {}): Promise<AgentConnection> {
  const transportProblem = describeTransportProblem(transport);
  if (transportProblem !== undefined) throw new TypeError(`connectAgent: ${transportProblem}`);
  const offer = options.protocolVersion ?? 1;
  if (offer !== 1 && offer !== 2)
    throw new AcpError("VersionUnsupported", `connectAgent: cannot offer protocol version ${JSON.stringify(offer)}; this client speaks 1 and 2`);
  const validateOutgoing = options.validateOutgoing ?? defaultValidateOutgoing();
  // Checking what we send needs all of a version's validators; checking what we receive only the client's part.
  const side = validateOutgoing ? undefined : "client";
  const connection = new Connection(transport, {
    side: "client",
    validateOutgoing,
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.maxRunningRequests === undefined ? {} : { maxRunningRequests: options.maxRunningRequests }),
  });
  const diagnostics = new DiagnosticEmitter();
  if (options.onDiagnostic) diagnostics.subscribe(options.onDiagnostic);
  connection.onDiagnostic((diagnostic) => diagnostics.emit(diagnostic));
  let description: AgentDescription;
  let offered: ProtocolVersion = offer;
  const requestOptions = options.signal ? { signal: options.signal } : undefined;
  // The validators of the version we offer load while initialize is on its way (only the
  // negotiated version's are ever needed; see @acpkit/schema/validation).
  void loadProtocolVersion(offer, side).catch(() => {});
  // Likewise the v1 bridge, which a v2 connection never needs (so a v2 client never loads it).
  if (offer === 1) void loadV1Bridge().catch(() => {});
  let bridge: BridgeModule | undefined;
  try {
    let result: unknown;
    try {
      const answer = connection.request("initialize", initializeParams(offer, options), requestOptions);
      // With initialize on its way, use the wait for the agent's answer to compile the first exchange.
      if (options.warmUp === true) void warmUpOnce(offer, validateOutgoing, connectAgent);
      result = await answer;
    } catch (error) {
      // An agent that refuses the v2 initialize with a JSON-RPC error (a later v2 draft answers
      // -32602 to the pinned shape) may still speak v1: retry once with v1, and say so.
      if (offer !== 2 || !isRpcError(error) || options.fallbackToV1 === false) throw error;
      diagnostics.emit({
        code: "v2_fallback",
        message: `The agent refused the v2 initialize (${error.code}: ${error.message}); retrying with protocol v1`,
        detail: error,
      });
      offered = 1;
      result = await connection.request("initialize", initializeParams(1, options), requestOptions);
    }
    const answered = isJsonObject(result) ? result.protocolVersion : undefined;
    if (isProtocolVersion(answered)) {
      const [, loadedBridge] = await Promise.all([loadProtocolVersion(answered, side), answered === 1 ? loadV1Bridge() : undefined]);
      bridge = loadedBridge;
    }
    description = readInitializeResult(result);
    connection.setVersion(description.protocolVersion);
  } catch (error) {
    await connection.close(error instanceof Error ? error.message : "initialize failed");
    throw error;
  }
  return new AgentConnectionImpl(connection, description, offered, options, diagnostics, bridge);
}
