// The endpoint's request handling (docs/remote.md RT4–RT19), independent of where requests come
// from: node:http, HTTP/2 and fetch runtimes each adapt to EndpointRequest/EndpointReply. It owns
// the registry of open connections of both profiles and their limits.
import { __transportKit } from "@acpkit/core";
import type { WebSocketTransport } from "@acpkit/transport-websocket";
import { CONNECTION_HEADER, DEFAULT_ENDPOINT_PATH, EVENT_STREAM, RESUME_META_KEY, SESSION_HEADER } from "../common.js";
import { FleetNode } from "../fleet/fleet-node.js";
import type { OwnedConnection } from "../fleet/owned-connection.js";
import { postToFleet, removeFromFleet, streamOfFleet } from "./fleet-requests.js";
import { Guard } from "./guard.js";
import { ResumableSocket } from "./resumable-socket.js";
import { hostConnection } from "./host-connection.js";
import { HttpConnection } from "./http-connection.js";
import type { Retention } from "./outbox.js";
import {
  INTERNAL_ERROR,
  lastEventIdOf,
  missingConnection,
  PARSE_ERROR,
  refusal,
  routeOf,
  STREAM_HEADERS,
  streamTaken,
  tooManyPending,
  unknownConnection,
} from "./replies.js";
import { type ConnectionInfo, DEFAULT_ENDPOINT_LIMITS, type EndpointLimits, type EndpointOptions, type EndpointReply, type EndpointRequest } from "./types.js";

const { parseRequestTarget } = __transportKit;

/** The retention window `resume: true` means (docs/remote.md RT26). */
export const DEFAULT_RETENTION: Readonly<Retention> = Object.freeze({ maxEvents: 1000, maxChars: 4 * 1024 * 1024 });

export class EndpointCore {
  readonly limits: Readonly<EndpointLimits>;
  private readonly path: string;
  private readonly guard: Guard;
  /** The retention window of resumable streams, when resume is on. */
  private readonly retention: Retention | undefined;
  private readonly http = new Map<string, HttpConnection>();
  /** WebSocket connections, counted against maxConnections with the HTTP ones. */
  private readonly sockets = new Set<WebSocketTransport>();
  /** WebSocket connections that resume (RT40), by connection id; each outlives its sockets. */
  private readonly resumableSockets = new Map<string, ResumableSocket>();
  private readonly sweeper: ReturnType<typeof setInterval>;
  /** This endpoint's node of a fleet, when options.fleet is set: then the HTTP+SSE connections live in the fleet's backend. */
  private readonly fleet: FleetNode | undefined;
  private isClosed = false;

  constructor(private readonly options: EndpointOptions) {
    if (typeof options?.onConnection !== "function") throw new TypeError("createAcpEndpoint() needs an onConnection(transport, info) callback");
    this.path = options.path ?? DEFAULT_ENDPOINT_PATH;
    if (!this.path.startsWith("/")) throw new TypeError(`options.path must start with "/", got ${JSON.stringify(this.path)}`);
    this.limits = resolveLimits(options.limits);
    this.guard = new Guard(options);
    this.retention = resolveRetention(options.resume);
    this.fleet =
      options.fleet === undefined
        ? undefined
        : new FleetNode(options.fleet, this.limits, this.retention ?? { maxEvents: 0, maxChars: 0 }, this.retention !== undefined, (transport, info) =>
            this.notify(transport, info),
          );
    // Connections whose client went away without DELETE: nothing else would ever free them.
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, Math.floor(this.limits.idleTimeoutMs / 4)));
    this.sweeper.unref?.();
  }

  /** Open connections of both profiles. */
  get connectionCount(): number {
    return this.http.size + this.sockets.size + this.resumableSockets.size + (this.fleet?.ownedCount ?? 0);
  }

  /** The checks every request passes first: path, then Host, Origin and token. */
  admit(request: EndpointRequest, secure: boolean): EndpointReply | { cors: Record<string, string> } {
    const target = parseRequestTarget(request.target);
    if (target === undefined) return refusal(400, "the request target is not a valid path");
    if (target.pathname !== this.path) return refusal(404, `no ACP endpoint at ${target.pathname} (it is at ${this.path})`);
    const checked = this.guard.check((name) => request.header(name), target.searchParams, secure);
    if ("status" in checked) return refusal(checked.status, checked.message, null, checked.headers);
    if (this.isClosed) return refusal(503, "the server is shutting down", null, checked.cors, INTERNAL_ERROR);
    return checked;
  }

  async handle(request: EndpointRequest, secure = false): Promise<EndpointReply> {
    const admitted = this.admit(request, secure);
    if ("status" in admitted) return admitted;
    const cors = admitted.cors;
    const reply = await this.route(request, cors);
    return Object.keys(cors).length === 0 ? reply : { ...reply, headers: { ...cors, ...reply.headers } };
  }

  /** Register a WebSocket connection (the node adapter accepted the upgrade). */
  addSocket(transport: WebSocketTransport): void {
    this.sockets.add(transport);
    void transport.closed.then(() => this.sockets.delete(transport));
  }

  /**
   * A new WebSocket connection that resumes (RT40), when resume is on: the agent is served on it, and
   * it outlives its sockets. Undefined when resume is off (the socket is the connection).
   */
  openResumableSocket(connectionId: string): ResumableSocket | undefined {
    if (this.retention === undefined) return undefined;
    const connection = new ResumableSocket(connectionId, this.retention, this.limits.idleTimeoutMs, this.limits.maxBufferedChars);
    this.resumableSockets.set(connectionId, connection);
    void connection.closed.then(() => this.resumableSockets.delete(connectionId));
    return connection;
  }

  /** The WebSocket connection a resuming upgrade names, if it still waits for its client. */
  resumableSocket(connectionId: string): ResumableSocket | undefined {
    return this.resumableSockets.get(connectionId);
  }

  /** Whether one more connection may open. */
  get full(): boolean {
    return this.connectionCount >= this.limits.maxConnections;
  }

  newConnectionId(): string {
    return crypto.randomUUID();
  }

  notify(transport: Parameters<EndpointOptions["onConnection"]>[0], info: ConnectionInfo): void {
    this.options.onConnection(transport, info);
  }

  /** Close every connection (the agents hear it as their transport closing) and refuse new ones. */
  async close(reason = "the server is shutting down"): Promise<void> {
    this.isClosed = true;
    clearInterval(this.sweeper);
    const all: Promise<unknown>[] = [];
    for (const connection of this.http.values()) {
      connection.finish({ reason });
      all.push(connection.closed);
    }
    // A WebSocket is told with 1001 (going away), so its client knows the server left.
    for (const socket of this.sockets) all.push(socket.closeWithCode(1001, reason));
    for (const socket of this.resumableSockets.values()) all.push(socket.closeWithCode(1001, reason));
    if (this.fleet !== undefined) all.push(this.fleet.close(reason));
    await Promise.all(all);
    this.http.clear();
  }

  private async route(request: EndpointRequest, cors: Record<string, string>): Promise<EndpointReply> {
    switch (request.method) {
      case "POST":
        return this.post(request);
      case "GET":
        return this.get(request);
      case "DELETE":
        return this.remove(request);
      case "OPTIONS":
        return { status: 204, headers: Guard.preflight(cors) };
      default:
        return refusal(405, `method ${request.method} is not allowed here (GET, POST, DELETE)`, null, { Allow: "GET, POST, DELETE" });
    }
  }

  private async post(request: EndpointRequest): Promise<EndpointReply> {
    const type = request.header("content-type");
    if (type?.split(";", 1)[0]?.trim().toLowerCase() !== "application/json")
      return refusal(415, `the body must be application/json, not ${JSON.stringify(type ?? "")}`);
    const text = await request.body(this.limits.maxBodyBytes);
    if (text === undefined) return refusal(413, `the body is larger than ${this.limits.maxBodyBytes} bytes`);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return refusal(400, `the body is not JSON: ${(error as Error).message}`, null, {}, PARSE_ERROR);
    }
    if (Array.isArray(message)) return refusal(501, "JSON-RPC batches are not supported by ACP's remote transport; send one message per POST");
    if (typeof message !== "object" || message === null) return refusal(400, "the body is not a JSON-RPC message (an object)");
    const body = message as Record<string, unknown>;
    const id = body.id;
    if (typeof id === "string" && id.length > this.limits.maxIdLength)
      return refusal(400, `the request id is longer than ${this.limits.maxIdLength} characters`);
    const connectionId = request.header(CONNECTION_HEADER);
    if (body.method === "initialize" && "id" in body) {
      if (connectionId !== undefined) return refusal(400, `initialize opens a connection; send it without ${CONNECTION_HEADER}`, id);
      return this.initialize(body, request);
    }
    if (this.fleet !== undefined) return postToFleet(this.fleet, this.limits, connectionId, body, request);
    const connection = this.connectionOf(connectionId, id);
    if (!(connection instanceof HttpConnection)) return connection;
    const route = routeOf(body, request, this.limits.maxIdLength);
    if (typeof route === "object" && "refused" in route) return refusal(400, route.refused, id);
    if ("method" in body && "id" in body) {
      // The answers the endpoint waits for are bounded, whatever the agent does with the requests.
      if (connection.pendingRequests >= this.limits.maxPendingRequests) return tooManyPending(this.limits.maxPendingRequests, id);
      // A client that is behind on reading gets no new work accepted until it catches up (RT15).
      await connection.whenDrained();
    }
    connection.accept(body, route);
    return { status: 202, headers: {} };
  }

  private async initialize(body: Record<string, unknown>, request: EndpointRequest): Promise<EndpointReply> {
    if (this.full)
      return refusal(
        503,
        `the server holds ${this.limits.maxConnections} connections, its limit; try again later`,
        body.id,
        { "Retry-After": "5" },
        INTERNAL_ERROR,
      );
    let connection: HttpConnection | OwnedConnection;
    try {
      connection = await this.openConnection(body, request);
    } catch (error) {
      return refusal(500, `the server could not start a connection: ${(error as Error).message}`, body.id, {}, INTERNAL_ERROR);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.limits.initializeTimeoutMs);
    });
    try {
      const answer = await Promise.race([connection.initializeWith(body), timeout]);
      if (answer === "timeout") {
        connection.finish({ reason: "the agent did not answer initialize in time" });
        return refusal(504, `the agent did not answer initialize within ${this.limits.initializeTimeoutMs} ms`, body.id, {}, INTERNAL_ERROR);
      }
      // A refused initialize opens nothing: the client may POST another one (RT5).
      if ("error" in answer) {
        connection.finish({ reason: "the agent refused initialize" });
        return { status: 200, headers: { "Content-Type": "application/json" }, body: JSON.stringify(answer) };
      }
      return { status: 200, headers: { "Content-Type": "application/json", [CONNECTION_HEADER]: connection.id }, body: JSON.stringify(this.advertise(answer)) };
    } catch (error) {
      connection.finish({ reason: "initialize failed" });
      return refusal(502, (error as Error).message, body.id, {}, INTERNAL_ERROR);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A new connection of the HTTP+SSE profile, its agent started by onConnection: in this process, or owned by this node of the fleet. */
  private async openConnection(body: Record<string, unknown>, request: EndpointRequest): Promise<HttpConnection | OwnedConnection> {
    const info = { profile: "http" as const, header: (name: string) => request.header(name) };
    if (this.fleet !== undefined) return this.fleet.open(body, info);
    const connection = new HttpConnection(this.newConnectionId(), { ...this.limits, retention: this.retention });
    return hostConnection(this.http, connection, info, (transport, full) => this.notify(transport, full));
  }

  private async get(request: EndpointRequest): Promise<EndpointReply> {
    if (request.header("upgrade")?.toLowerCase() === "websocket")
      return refusal(426, "this runtime's adapter does not take WebSocket upgrades; use the Node adapter (endpoint.upgrade) or the HTTP+SSE profile");
    if (!request.header("accept")?.toLowerCase().includes(EVENT_STREAM)) return refusal(406, `a GET stream needs Accept: ${EVENT_STREAM}`);
    if (this.fleet !== undefined) return streamOfFleet(this.fleet, this.limits, request);
    const connection = this.connectionOf(request.header(CONNECTION_HEADER));
    if (!(connection instanceof HttpConnection)) return connection;
    const sessionId = request.header(SESSION_HEADER);
    if (sessionId !== undefined && sessionId.length > this.limits.maxIdLength)
      return refusal(400, `${SESSION_HEADER} is longer than ${this.limits.maxIdLength} characters`);
    const outbox = sessionId === undefined ? connection.connectionStream : connection.sessionStream(sessionId);
    const reader = outbox?.acquire(lastEventIdOf(request));
    if (reader === undefined) return streamTaken(sessionId);
    return { status: 200, headers: STREAM_HEADERS, stream: reader };
  }

  private async remove(request: EndpointRequest): Promise<EndpointReply> {
    if (this.fleet !== undefined) return removeFromFleet(this.fleet, request);
    const connection = this.connectionOf(request.header(CONNECTION_HEADER));
    if (!(connection instanceof HttpConnection)) return connection;
    connection.finish({ reason: "the client ended the connection (DELETE)" });
    connection.discard();
    return { status: 202, headers: {} };
  }

  /** With resume on, the initialize result says so in its `_meta` (RT26), keeping what the agent put there. */
  private advertise(answer: Record<string, unknown>): Record<string, unknown> {
    const result = answer.result;
    if (this.retention === undefined || typeof result !== "object" || result === null || Array.isArray(result)) return answer;
    const meta = (result as { _meta?: unknown })._meta;
    const merged = { ...(typeof meta === "object" && meta !== null && !Array.isArray(meta) ? meta : {}), [RESUME_META_KEY]: { ...this.retention } };
    return { ...answer, result: { ...result, _meta: merged } };
  }

  /** The connection a request names (RT6, RT7), marked as seen; or the refusal: 400 without the header, 404 for an unknown id. */
  private connectionOf(connectionId: string | undefined, requestId: unknown = null): HttpConnection | EndpointReply {
    if (connectionId === undefined) return missingConnection(requestId);
    const connection = connectionId.length > this.limits.maxIdLength ? undefined : this.http.get(connectionId);
    if (connection === undefined) return unknownConnection(requestId);
    connection.lastSeen = Date.now();
    return connection;
  }

  private sweep(): void {
    this.fleet?.sweep();
    const before = Date.now() - this.limits.idleTimeoutMs;
    for (const connection of this.http.values()) {
      if (connection.lastSeen < before && !connection.hasOpenStream) {
        connection.finish({ reason: `no request and no open stream for ${this.limits.idleTimeoutMs} ms` });
        connection.discard();
      }
    }
  }
}

function resolveLimits(given: Partial<EndpointLimits> | undefined): Readonly<EndpointLimits> {
  const limits = { ...DEFAULT_ENDPOINT_LIMITS };
  for (const [name, value] of Object.entries(given ?? {})) {
    if (!(name in limits)) throw new TypeError(`options.limits.${name} is not a limit (${Object.keys(limits).join(", ")})`);
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
      throw new TypeError(`options.limits.${name} must be a positive number, got ${String(value)}`);
    (limits as Record<string, number>)[name] = value;
  }
  return Object.freeze(limits);
}

/** The retention window `options.resume` asks for, checked; undefined when resume is off. */
function resolveRetention(given: EndpointOptions["resume"]): Retention | undefined {
  if (given === undefined || given === false) return undefined;
  const retention = { ...DEFAULT_RETENTION };
  if (given === true) return retention;
  if (typeof given !== "object" || given === null) throw new TypeError(`options.resume must be true, false or { maxEvents?, maxChars? }, got ${String(given)}`);
  for (const [name, value] of Object.entries(given)) {
    if (name !== "maxEvents" && name !== "maxChars") throw new TypeError(`options.resume.${name} is not a setting (maxEvents, maxChars)`);
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
      throw new TypeError(`options.resume.${name} must be a whole number of at least 1, got ${String(value)}`);
    retention[name] = value;
  }
  return retention;
}
