// A connection to an initialized agent (what connectAgent resolves to): the table of its
// sessions, the session methods (new, load, resume, list, close, delete) and the routing of the
// agent's session/update notifications and requests to the session they name. What it serves
// the agent besides permissions (fs, terminals, elicitation) is client-services.ts.
import {
  AcpError,
  acceptedPromptBlocks,
  checkAbsolutePathArgument,
  type CloseInfo,
  COMPACTION_SUMMARY_CHUNK,
  COMPACTION_UPDATE,
  type Connection,
  type Dialect,
  type DiagnosticEmitter,
  ErrorCode,
  NOTICE_UPDATE,
  RpcError,
} from "@acpkit/core";
import type { ClientDiagnostic as Diagnostic } from "./diagnostics.js";
import type { V1BridgeOptions } from "@acpkit/core/bridge";
import type { ProtocolVersion, v1, v2 } from "@acpkit/schema";
import type * as ClientServices from "./client-services.js";
import type { AgentDescription } from "./initialize.js";
import type { ClientSession } from "./session.js";
import { SessionController, type SessionHost } from "./session-controller.js";
import { type ClientSessionWire, V2ClientSessionWire, type WireUpdate } from "./session-wire.js";
import type { SessionSetupFields } from "./state/client-actions.js";
import type {
  AgentCapabilities,
  AuthMethod,
  ConnectOptions,
  ElicitationHandlers,
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
import { type BridgeModule, V1ClientSessionWire } from "./v1-wire.js";

/** A connection to an initialized agent. */
export interface ConnectedAgent {
  /** The underlying JSON-RPC connection. */
  readonly connection: Connection;
  /** The version the agent answered (one per connection). */
  readonly protocolVersion: ProtocolVersion;
  /**
   * The wire dialect the agent answered in: `v1`, `v2-pinned`, or `v2-later` (the v2 of
   * `@agentclientprotocol/sdk` 2.4; its messages are mapped to and from the same model).
   */
  readonly dialect: Dialect;
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

/** @deprecated Renamed `ConnectedAgent` (the official SDK's `AgentSideConnection` means the agent's end; this is the client's hold on an agent); this alias goes in the next release. */
export type AgentConnection = ConnectedAgent;

/** Updates for a session whose `session/new` answer is still being processed. */
/**
 * How many updates for a session not created yet are kept while `session/new` is pending; more are
 * dropped (reported `unknown_session`). An agent streams to a session only after announcing it, so
 * a few are normal; an unbounded number is a flood.
 */
export const MAX_PARKED_UPDATES = 1024;

interface ParkedUpdate {
  sessionId: string;
  update: WireUpdate;
}

export class AgentConnectionImpl implements ConnectedAgent, SessionHost {
  readonly protocolVersion: ProtocolVersion;
  readonly dialect: Dialect;
  readonly agentCapabilities: AgentCapabilities;
  readonly agentInfo: Implementation | null;
  readonly authMethods: readonly AuthMethod[];
  readonly acceptedPromptBlocks: ReadonlySet<string>;
  readonly requestPermission: ConnectOptions["requestPermission"];
  readonly terminalHost: TerminalHost | undefined;
  readonly elicitation: ElicitationHandlers | undefined;
  readonly unadvertisedUpdates: ReadonlySet<string>;
  private readonly sessions = new Map<string, SessionController>();
  private sessionsBeingCreated = 0;
  private parked: ParkedUpdate[] = [];

  constructor(
    readonly connection: Connection,
    description: AgentDescription,
    /** The version we offered: fs was advertised only in a v1 offer (§1.2). */
    private readonly offered: ProtocolVersion,
    private readonly options: ConnectOptions,
    private readonly diagnostics: DiagnosticEmitter<Diagnostic["code"]>,
    /** `@acpkit/core/bridge` on a v1 connection (loaded by connectAgent), undefined on v2. */
    private readonly bridge: BridgeModule | undefined,
    dialect: Dialect | undefined,
    /** The fs / terminal / elicitation handlers' module, when the options give any of them (loaded by connectAgent). */
    private readonly services?: typeof ClientServices,
  ) {
    this.protocolVersion = description.protocolVersion;
    this.dialect = dialect ?? (description.protocolVersion === 1 ? "v1" : "v2-pinned");
    this.agentCapabilities = description.agentCapabilities;
    this.agentInfo = description.agentInfo;
    this.authMethods = description.authMethods;
    this.acceptedPromptBlocks = acceptedPromptBlocks(description.agentCapabilities.prompt);
    this.requestPermission = options.requestPermission;
    // What the agent saw advertised: client features exist only in a v1 offer answered with v1 (§1.2).
    const v1Offer = this.protocolVersion === 1 && offered === 1;
    this.terminalHost = v1Offer ? options.terminal : undefined;
    // Elicitation exists in v1 and in the later v2 draft, whose offer advertises it too (initialize.ts).
    this.elicitation = v1Offer || this.dialect === "v2-later" ? options.elicitation : undefined;
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
      const controller = this.createController(result.sessionId, options.cwd);
      controller.applySetup(result as SessionSetupFields);
      this.sessions.set(controller.sessionId, controller);
      this.releaseParked(controller);
      return controller.session;
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
    const controller = this.createController(options.sessionId, options.cwd);
    this.sessions.set(options.sessionId, controller);
    controller.beginLoad();
    // The replay is observed from its first update: the session is not in the caller's hands until the load is answered.
    const stopWatching = options.onReplay === undefined ? undefined : controller.onUpdate(options.onReplay);
    try {
      const result = await this.connection.request("session/load", { ...this.setupParams(options), sessionId: options.sessionId });
      controller.applySetup((result ?? {}) as SessionSetupFields);
      return controller.session;
    } catch (error) {
      this.sessions.delete(options.sessionId);
      throw error;
    } finally {
      stopWatching?.();
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
    const controller = this.createController(options.sessionId, options.cwd);
    this.sessions.set(options.sessionId, controller);
    try {
      const params: Record<string, unknown> = { ...this.setupParams(options), sessionId: options.sessionId };
      if (options.additionalDirectories !== undefined) params.additionalDirectories = options.additionalDirectories;
      const result = await this.connection.request("session/resume", params as never);
      controller.applySetup((result ?? {}) as SessionSetupFields);
      return controller.session;
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

  private createController(sessionId: string, cwd: string): SessionController {
    const wire: ClientSessionWire =
      this.protocolVersion === 2 ? new V2ClientSessionWire(sessionId) : new V1ClientSessionWire(sessionId, this.lossyOptions(), this.bridge!);
    return new SessionController(this, sessionId, wire, cwd);
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
    const requireSession = (sessionId: string) => this.requireSession(sessionId);
    // connectAgent loaded the services module when the options give any of these.
    const services = this.services;
    if (services === undefined) return;
    if (this.protocolVersion === 1 && this.offered === 1 && this.options.fs !== undefined)
      services.serveFileSystem(connection, this.options.fs, requireSession);
    if (this.terminalHost !== undefined) services.serveTerminals(connection, this.terminalHost, requireSession);
    if (this.elicitation !== undefined) services.serveElicitation(connection, this.elicitation, requireSession, this.dialect === "v2-later");
  }

  private requireSession(sessionId: string): SessionController {
    const session = this.sessions.get(sessionId);
    if (!session) throw new RpcError(ErrorCode.ResourceNotFound, `Unknown session "${sessionId}"`, { sessionId });
    return session;
  }

  private releaseParked(session: SessionController): void {
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
