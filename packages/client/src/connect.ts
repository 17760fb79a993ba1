// connectAgent: initialize (offer the highest version, accept the answer), then route the agent's
// session/update notifications and requests to the ClientSession they belong to.
import {
  AcpError,
  Connection,
  DiagnosticEmitter,
  ErrorCode,
  acceptedPromptBlocks,
  RpcError,
  type CloseInfo,
  type Diagnostic,
  type Transport,
} from "@acpkit/core";
import type { V1BridgeOptions } from "@acpkit/core/bridge";
import type { ProtocolVersion, v1, v2 } from "@acpkit/schema";
import { initializeParams, readInitializeResult, type AgentDescription } from "./initialize.js";
import { ClientSession, type SessionHost } from "./session.js";
import { V2ClientSessionWire, type ClientSessionWire, type WireUpdate } from "./session-wire.js";
import type { AgentCapabilities, AuthMethod, ConnectOptions, Implementation, LoadSessionOptions, McpServer, Meta, NewSessionOptions } from "./types.js";
import { V1ClientSessionWire, mcpServersForV1 } from "./v1-wire.js";

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
  /** Create a session (`session/new`). */
  newSession(options: NewSessionOptions): Promise<ClientSession>;
  /** Load a session (`session/load`); its history arrives as updates before this resolves. */
  loadSession(options: LoadSessionOptions): Promise<ClientSession>;
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
  ) {
    this.protocolVersion = description.protocolVersion;
    this.agentCapabilities = description.agentCapabilities;
    this.agentInfo = description.agentInfo;
    this.authMethods = description.authMethods;
    this.acceptedPromptBlocks = acceptedPromptBlocks(description.agentCapabilities.prompt);
    this.requestPermission = options.requestPermission;
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
    const params = this.setupParams(options);
    this.sessionsBeingCreated++;
    try {
      const result = await this.connection.request("session/new", params);
      const session = this.createSession(result.sessionId);
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
    if (this.sessions.has(options.sessionId)) {
      throw new AcpError("ProtocolViolation", `Session ${options.sessionId} is already open on this connection`);
    }
    // The replay arrives before the response, so the session must be routable first.
    const session = this.createSession(options.sessionId);
    this.sessions.set(options.sessionId, session);
    session.beginLoad();
    try {
      await this.connection.request("session/load", { ...this.setupParams(options), sessionId: options.sessionId });
      return session;
    } catch (error) {
      this.sessions.delete(options.sessionId);
      throw error;
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
    if (this.protocolVersion === 1) return { cwd: options.cwd, mcpServers: mcpServersForV1(servers, this.lossyOptions()), ...meta };
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

  private createSession(sessionId: string): ClientSession {
    const wire: ClientSessionWire = this.protocolVersion === 2 ? new V2ClientSessionWire(sessionId) : new V1ClientSessionWire(sessionId, this.lossyOptions());
    return new ClientSession(this, sessionId, wire);
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
  }

  private registerFileSystem(): void {
    const fs = this.options.fs;
    if (typeof fs?.readTextFile === "function") {
      const read = fs.readTextFile.bind(fs);
      this.connection.onRequest("fs/read_text_file", async (params) => {
        this.requireSession(params.sessionId);
        return { content: await read(params) };
      });
    }
    if (typeof fs?.writeTextFile === "function") {
      const write = fs.writeTextFile.bind(fs);
      this.connection.onRequest("fs/write_text_file", async (params) => {
        this.requireSession(params.sessionId);
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
 * Connect to an agent over `transport`: sends `initialize` offering `options.protocolVersion`
 * (default 1) and resolves once the agent answered with a version this client speaks (1 or 2).
 * Any other answer closes the connection and rejects with AcpError "VersionUnsupported".
 */
export async function connectAgent(transport: Transport, options: ConnectOptions = {}): Promise<AgentConnection> {
  const offer = options.protocolVersion ?? 1;
  if (offer !== 1 && offer !== 2)
    throw new AcpError("VersionUnsupported", `connectAgent: cannot offer protocol version ${JSON.stringify(offer)}; this client speaks 1 and 2`);
  const connection = new Connection(transport, {
    side: "client",
    ...(options.validateOutgoing === undefined ? {} : { validateOutgoing: options.validateOutgoing }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
  });
  const diagnostics = new DiagnosticEmitter();
  if (options.onDiagnostic) diagnostics.subscribe(options.onDiagnostic);
  connection.onDiagnostic((diagnostic) => diagnostics.emit(diagnostic));
  let description: AgentDescription;
  try {
    const result = await connection.request("initialize", initializeParams(offer, options), options.signal ? { signal: options.signal } : undefined);
    description = readInitializeResult(result);
    connection.setVersion(description.protocolVersion);
  } catch (error) {
    await connection.close(error instanceof Error ? error.message : "initialize failed");
    throw error;
  }
  return new AgentConnectionImpl(connection, description, offer, options, diagnostics);
}
