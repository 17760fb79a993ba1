// The client side of the HTTP+SSE profile as one Transport (docs/remote.md RT17–RT22): initialize is
// POSTed and opens the connection; every later message is POSTed in order with the connection's
// header (and the session's, for what belongs to a session); the agent's messages arrive on the
// connection stream and on one stream per session, opened before the first message that needs it
// and when an answer names a new session. All streams feed the one receiver.
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver, __transportKit } from "@acpkit/core";
import { answersOnConnectionStream, CONNECTION_HEADER, RESUME_META_KEY, SESSION_HEADER, idKey, sessionIdOfParams, sessionIdOfResult } from "../protocol.js";
import { type CookieStore, MemoryCookieStore } from "./cookie-jar.js";
import { ERROR_BODY_CHARS, errorBody, httpError } from "./http-errors.js";
import { lostAnswer, NOT_ALLOWED, Reconnector } from "./reconnect.js";
import { type StreamHost, StreamSet } from "./stream-set.js";
import { SessionLedger } from "../session-ledger.js";

const { encodeMessage } = __transportKit;

/** Options of `connectHttp`. */
export interface HttpClientOptions {
  /** Sent as `Authorization: Bearer <token>` on every request. */
  token?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** The fetch to use. Default: node:http(s) on a keep-alive agent in Node, the global fetch in browsers. */
  fetch?: typeof globalThis.fetch;
  /**
   * Where cookies are kept (RT17). Default: a MemoryCookieStore of this transport. In a browser,
   * fetch keeps cookies itself (credentials "include") and this store sees none.
   */
  cookies?: CookieStore;
  /** Largest message accepted on a stream, in characters. Default 64 Mi. */
  maxMessageSize?: number;
  /**
   * When the connection is lost (its stream broke and cannot be resumed, the endpoint forgot it, or
   * could not be reached), open a new one and take its sessions up again with session/resume or
   * session/load (RT38); requests in flight get an error answer. Default true; false closes the
   * transport instead.
   */
  reconnect?: boolean;
}

/** HTTP statuses after which the connection is gone (RT21): the transport reconnects (RT38) or closes. */
const CONNECTION_GONE = new Set([401, 403, 404, 410]);
export { RECONNECTED_DATA_KEY } from "./reconnect.js";

/**
 * The HTTP+SSE profile's client as a Transport (made by `connectHttp`). Closing it sends DELETE for
 * its connection; `closed` resolves with why it closed (the client, a refusal that ends the
 * connection, the connection stream ending, or the endpoint unreachable).
 */
export class HttpClientTransport implements Transport {
  /** Resolves once, when the transport closed for any reason, with the reason. */
  readonly closed: Promise<CloseInfo>;
  private receiver: TransportReceiver | undefined;
  /** The connection's id once initialize succeeded. */
  connectionId: string | undefined;
  private readonly fetch: typeof globalThis.fetch;
  private readonly cookies: CookieStore;
  /** The connection's GET streams, and the signal that aborts its requests. */
  private readonly streams: StreamSet;
  /** The session of each request the agent sent on a session stream, so its answer goes back with that session's header. */
  private readonly agentRequestSessions = new Map<string, string>();
  private writing: Promise<unknown> = Promise.resolve();
  /** Whether the transport closed (read by its streams). */
  isClosed = false;
  /** Why the connection stream ended, while session streams are still being read to their end. */
  private connectionEnded: string | undefined;
  /** The endpoint advertised streams that resume (RT26): a broken stream is opened again from its last event id. */
  resumable = false;
  private resolveClosed!: (info: CloseInfo) => void;
  /** Largest message accepted on a stream, in characters. */
  readonly maxMessageSize: number;
  /** The client's initialize params, for a new connection after a loss (RT38). */
  private initializeParams: unknown;
  /**
   * Requests sent and not answered yet, by id key: the id, and the session whose stream carries
   * the answer (undefined: the connection stream). A stream that ends fails its own (RT29); a lost
   * connection fails them all (RT38).
   */
  private readonly inFlight = new Map<string, { readonly id: unknown; session: string | undefined }>();
  /** The sessions the connection holds, to take up again after a loss. */
  private readonly ledger = new SessionLedger();
  private readonly reconnector: Reconnector;
  /** A reconnect in progress: sends wait for it. */
  private recovery: Promise<void> | undefined;

  /** `url` is the endpoint (`http(s)://…/acp`); an AcpError "InvalidArgument" for anything else. */
  constructor(
    /** The endpoint's URL. */
    readonly url: string,
    private readonly options: HttpClientOptions = {},
  ) {
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`the scheme is ${parsed.protocol}`);
    } catch (error) {
      throw new AcpError("InvalidArgument", `not an http(s) endpoint URL: ${JSON.stringify(url)} (${(error as Error).message})`);
    }
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.cookies = options.cookies ?? new MemoryCookieStore();
    this.maxMessageSize = options.maxMessageSize ?? 64 * 1024 * 1024;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.streams = new StreamSet(this.streamHost());
    const transport = this;
    this.reconnector = new Reconnector({
      get connectionId() {
        return transport.connectionId;
      },
      request: (method, headers, body) => this.request(method, headers, body, this.streams.signal),
      attach: (connectionId, answer) => this.attach(connectionId, answer),
      openSessionStream: (sessionId) => void this.streams.openSession(sessionId),
      report: (error) => this.receiver?.onTransportError(error),
    });
  }

  /** The connection's id once initialize succeeded. */
  get connection(): string | undefined {
    return this.connectionId;
  }

  /** Deliver incoming messages (from every stream of the connection) to `receiver`. Called once. */
  start(receiver: TransportReceiver): void {
    if (this.receiver !== undefined) throw new AcpError("InvalidArgument", "the transport was already started");
    this.receiver = receiver;
  }

  /** POST one message (the first must be initialize); resolves once the endpoint accepted it. */
  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.isClosed) return Promise.reject(new AcpError("ConnectionClosed", "the HTTP transport is closed"));
    if (Array.isArray(message)) return Promise.reject(new AcpError("Unsupported", "ACP's remote transport carries no JSON-RPC batches"));
    const text = encodeMessage(message);
    const value = message as unknown as Record<string, unknown>;
    // One POST at a time, in order: the endpoint hands messages to the agent as they arrive, so
    // a cancel must not overtake the prompt it cancels.
    const sent = this.writing.then(() => this.post(value, text));
    this.writing = sent.catch(() => {});
    return sent;
  }

  /** Stop reading, end the connection with DELETE (when one was opened), and resolve `closed`. */
  async close(reason = "closed by the client"): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.streams.stop();
    const connectionId = this.connectionId;
    if (connectionId !== undefined) {
      await this.request("DELETE", { [CONNECTION_HEADER]: connectionId }, undefined, AbortSignal.timeout(5000)).catch(() => {});
    }
    this.resolveClosed({ reason });
  }

  private async post(message: Record<string, unknown>, text: string): Promise<void> {
    if (this.recovery !== undefined) await this.recovery;
    if (this.isClosed) throw new AcpError("ConnectionClosed", "the HTTP transport is closed");
    const isRequest = typeof message.method === "string" && "id" in message;
    const waiting = isRequest ? { id: message.id, session: undefined as string | undefined } : undefined;
    if (waiting !== undefined) {
      const key = idKey(message.id);
      if (key !== undefined) this.inFlight.set(key, waiting);
      this.ledger.request(message);
    }
    if (this.connectionId === undefined) {
      if (message.method !== "initialize" || !isRequest)
        throw new AcpError(
          "NotInitialized",
          `the first message on an HTTP endpoint must be the initialize request, not ${JSON.stringify(message.method ?? "an answer")}`,
        );
      this.initializeParams = message.params;
      return this.postInitialize(message, text);
    }
    const sessionId = this.sessionOf(message);
    const headers: Record<string, string> = { "Content-Type": "application/json", [CONNECTION_HEADER]: this.connectionId };
    if (sessionId !== undefined) {
      headers[SESSION_HEADER] = sessionId;
      if (waiting !== undefined && !answersOnConnectionStream(message.method as string)) waiting.session = sessionId;
      await this.streams.openSession(sessionId);
    }
    const response = await this.request("POST", headers, text, this.streams.signal).catch((error: unknown) => this.networkFailure(error, true));
    if (response === undefined) return;
    if (response.ok) {
      void response.body?.cancel().catch(() => {});
      return;
    }
    const body = await errorBody(response);
    if (CONNECTION_GONE.has(response.status)) {
      this.lost(`the endpoint answered HTTP ${response.status}: ${body}`, response.status);
      return;
    }
    // Any other refusal fails only this message: a request gets it as its answer.
    if (isRequest) this.deliver({ jsonrpc: "2.0", id: message.id, error: httpError(response.status, body) });
    else
      this.receiver?.onTransportError(
        new AcpError("ProtocolViolation", `the endpoint refused a ${message.method ?? "response"} with HTTP ${response.status}: ${body}`),
      );
  }

  private async postInitialize(message: Record<string, unknown>, text: string): Promise<void> {
    const response = await this.request("POST", { "Content-Type": "application/json" }, text, this.streams.signal).catch((error: unknown) =>
      this.networkFailure(error),
    );
    if (response === undefined) return;
    const body = await response.text();
    if (!response.ok) {
      if (response.status === 401 || response.status === 403)
        return this.fail(`the endpoint answered HTTP ${response.status}: ${body.slice(0, ERROR_BODY_CHARS)}`);
      this.deliver({ jsonrpc: "2.0", id: message.id, error: httpError(response.status, body.slice(0, ERROR_BODY_CHARS)) });
      return;
    }
    let answer: unknown;
    try {
      answer = JSON.parse(body);
    } catch {
      this.deliver({ jsonrpc: "2.0", id: message.id, error: httpError(response.status, `the answer to initialize is not JSON: ${body.slice(0, 200)}`) });
      return;
    }
    const connectionId = response.headers.get(CONNECTION_HEADER);
    // A refused initialize (an error answer) opens no connection; the next initialize is a new try.
    if (connectionId !== null && typeof answer === "object" && answer !== null && "result" in answer)
      this.attach(connectionId, answer as Record<string, unknown>);
    this.deliver(answer);
  }

  /** The session a message belongs to: its params' sessionId, or for an answer, the session its request came on. */
  private sessionOf(message: Record<string, unknown>): string | undefined {
    if (typeof message.method === "string") return sessionIdOfParams(message.params);
    const key = idKey(message.id);
    if (key === undefined) return undefined;
    const sessionId = this.agentRequestSessions.get(key);
    this.agentRequestSessions.delete(key);
    return sessionId;
  }

  /** What the streams report, and what they need. */
  private streamHost(): StreamHost {
    const transport = this;
    return {
      get connectionId() {
        return transport.connectionId;
      },
      get resumable() {
        return transport.resumable;
      },
      get isClosed() {
        return transport.isClosed;
      },
      maxMessageSize: this.maxMessageSize,
      request: (method, headers, body, signal) => this.request(method, headers, body, signal),
      onData: (data, sessionId) => this.onStreamMessage(data, sessionId),
      onRefused: (sessionId, status, body) => {
        const why = `the ${sessionId === undefined ? "connection" : "session"} stream was refused with HTTP ${status}: ${body}`;
        if (sessionId === undefined || CONNECTION_GONE.has(status)) this.lost(why, status);
        else this.receiver?.onTransportError(new AcpError("ProtocolViolation", `the stream of session ${sessionId} was refused with HTTP ${status}: ${body}`));
      },
      onEnded: (sessionId, why) => this.streamEnded(sessionId, why),
      onBroken: (sessionId, why) => {
        // A stream broke for good: what it carried since is lost, so the connection is (RT38).
        if (this.isClosed) return;
        if (sessionId === undefined || this.options.reconnect !== false)
          this.lost(`the ${sessionId === undefined ? "connection stream" : `stream of session ${sessionId}`} broke: ${why}`);
        else this.streamEnded(sessionId, why);
      },
      // The endpoint out of reach for any stream is the connection lost (RT38).
      onUnreachable: (_sessionId, error) => this.networkFailure(error, true),
      report: (error) => this.receiver?.onTransportError(error),
    };
  }

  private streamEnded(sessionId: string | undefined, why: string): void {
    if (this.isClosed || this.recovery !== undefined) return;
    // Every request gets one answer: those whose answer was to come on this session's stream fail
    // now, with why, instead of waiting for a stream nobody reads (RT29).
    if (sessionId !== undefined && this.connectionEnded === undefined) {
      for (const [answerKey, { id, session }] of [...this.inFlight]) {
        if (session !== sessionId) continue;
        this.inFlight.delete(answerKey);
        this.deliver({ jsonrpc: "2.0", id, error: { code: -32603, message: `the stream of session ${sessionId} ended before the answer came: ${why}` } });
      }
    }
    // The connection stream is the connection: without it nothing more can arrive (RT20). A
    // session's stream is opened again by the next message for that session. A server that shuts
    // down ends all streams at once; what the session streams still carry (the answers of turns it
    // cancelled) is read before the transport closes.
    if (sessionId === undefined) this.connectionEnded = `the connection stream ended: ${why}`;
    if (this.connectionEnded !== undefined && this.streams.onlyConnectionStream) this.fail(this.connectionEnded);
  }

  private onStreamMessage(data: string, sessionId: string | undefined): void {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      this.receiver?.onMessage(data); // the Connection answers what is not JSON (-32700)
      return;
    }
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const message = value as Record<string, unknown>;
      if (!("method" in message)) {
        if (this.reconnector.take(message)) return;
        const answered = idKey(message.id);
        if (answered !== undefined) this.inFlight.delete(answered);
        this.ledger.answer(message);
      } else if (sessionId !== undefined && this.reconnector.replaying.has(sessionId) && !("id" in message)) {
        return; // history a session/load after a reconnect replays: the application has it
      }
      if (sessionId !== undefined && typeof message.method === "string" && "id" in message) {
        const key = idKey(message.id);
        if (key !== undefined) this.agentRequestSessions.set(key, sessionId);
      }
      // A new session's updates wait on its stream until someone reads it: open it now.
      const created = sessionIdOfResult(message);
      if (created !== undefined && !this.isClosed) void this.streams.openSession(created);
    }
    this.deliver(value);
  }

  private deliver(message: unknown): void {
    if (this.isClosed) return;
    this.receiver?.onMessage(message as object);
  }

  /** The endpoint could not be reached: the connection is lost (RT38) when `connectionLost`, else the transport closes. */
  private networkFailure(error: unknown, connectionLost = false): undefined {
    const why = `the endpoint could not be reached: ${(error as Error).message}`;
    if (connectionLost && this.connectionId !== undefined) this.lost(why);
    else if (!this.isClosed && this.recovery === undefined) this.fail(why);
    return undefined;
  }

  /**
   * The connection is gone without the endpoint ending it: open a new one and take the sessions up
   * again (RT38), unless reconnecting is off, the client is not allowed in (401, 403), or a
   * reconnect is under way already.
   */
  private lost(why: string, status?: number): void {
    if (this.isClosed || this.recovery !== undefined) return;
    if (this.options.reconnect === false || this.connectionId === undefined || (status !== undefined && NOT_ALLOWED.has(status))) return this.fail(why);
    this.recovery = this.recover(why).finally(() => {
      this.recovery = undefined;
    });
  }

  private async recover(why: string): Promise<void> {
    // Everything of the old connection stops here; what its streams still report is ignored.
    this.streams.reset();
    this.agentRequestSessions.clear();
    this.connectionEnded = undefined;
    this.connectionId = undefined;
    // Every request gets one answer: those in flight were lost with the connection.
    for (const { id } of this.inFlight.values()) this.deliver(lostAnswer(id, why));
    this.inFlight.clear();
    this.ledger.forgetRequests();
    const problem = await this.reconnector.run(this.initializeParams, this.ledger.sessions(), (sessionId) => this.ledger.drop(sessionId));
    if (problem !== undefined) this.fail(`the connection to the endpoint was lost (${why}) and ${problem}`);
  }

  /** Take a connection the endpoint opened: its id, whether its streams resume, its connection stream. */
  private attach(connectionId: string, answer: Record<string, unknown>): void {
    this.connectionId = connectionId;
    const meta = (answer as { result?: { _meta?: Record<string, unknown> } }).result?._meta;
    this.resumable = typeof meta === "object" && meta !== null && typeof meta[RESUME_META_KEY] === "object";
    this.streams.openConnectionStream();
  }

  private fail(reason: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.streams.stop();
    this.resolveClosed({ reason });
  }

  private request(method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal): Promise<Response> {
    const all: Record<string, string> = { ...this.options.headers, ...headers };
    if (this.options.token !== undefined) all.Authorization = `Bearer ${this.options.token}`;
    const cookie = this.cookies.header();
    if (cookie !== undefined) all.Cookie = cookie;
    return this.fetch(this.url, { method, headers: all, body, signal, credentials: "include" }).then((response) => {
      const setCookies = (response.headers as Headers & { getSetCookie?: () => string[] }).getSetCookie?.() ?? [];
      if (setCookies.length > 0) this.cookies.store(setCookies);
      return response;
    });
  }
}

/**
 * A Transport to an ACP endpoint over HTTP+SSE. Nothing is sent until the first message, which
 * must be initialize (connectAgent sends it).
 *
 * ```ts
 * const agent = await connectAgent(connectHttp("https://agents.example/acp", { token }), { client });
 * ```
 */
export function connectHttp(url: string, options: HttpClientOptions = {}): HttpClientTransport {
  return new HttpClientTransport(url, options);
}
