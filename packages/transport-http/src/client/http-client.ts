// The client side of the HTTP+SSE profile as one Transport (docs/remote.md RT17–RT22): initialize is
// POSTed and opens the connection; every later message is POSTed in order with the connection's
// header (and the session's, for what belongs to a session); the agent's messages arrive on the
// connection stream and on one stream per session, opened before the first message that needs it
// and when an answer names a new session. All streams feed the one receiver.
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver, __transportKit } from "@acpkit/core";
import { CONNECTION_HEADER, EVENT_STREAM, SESSION_HEADER, idKey, sessionIdOfParams, sessionIdOfResult } from "../protocol.js";
import { type CookieStore, MemoryCookieStore } from "./cookie-jar.js";
import { readSse } from "./sse-reader.js";

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
}

/** HTTP statuses after which the connection is gone (RT21): the transport closes. */
const CONNECTION_GONE = new Set([401, 403, 404, 410]);
/** How much of an error body is kept in the error that reports it. */
const ERROR_BODY_CHARS = 8 * 1024;

/**
 * The HTTP+SSE profile's client as a Transport (made by `connectHttp`). Closing it sends DELETE for
 * its connection; `closed` resolves with why it closed (the client, a refusal that ends the
 * connection, the connection stream ending, or the endpoint unreachable).
 */
export class HttpClientTransport implements Transport {
  /** Resolves once, when the transport closed for any reason, with the reason. */
  readonly closed: Promise<CloseInfo>;
  private receiver: TransportReceiver | undefined;
  private connectionId: string | undefined;
  private readonly fetch: typeof globalThis.fetch;
  private readonly cookies: CookieStore;
  private readonly abort = new AbortController();
  private readonly streams = new Map<string, Promise<void>>();
  /** The session of each request the agent sent on a session stream, so its answer goes back with that session's header. */
  private readonly agentRequestSessions = new Map<string, string>();
  private writing: Promise<unknown> = Promise.resolve();
  private isClosed = false;
  /** Why the connection stream ended, while session streams are still being read to their end. */
  private connectionEnded: string | undefined;
  private resolveClosed!: (info: CloseInfo) => void;
  private readonly maxMessageSize: number;

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
    this.abort.abort();
    const connectionId = this.connectionId;
    if (connectionId !== undefined) {
      await this.request("DELETE", { [CONNECTION_HEADER]: connectionId }, undefined, AbortSignal.timeout(5000)).catch(() => {});
    }
    this.resolveClosed({ reason });
  }

  private async post(message: Record<string, unknown>, text: string): Promise<void> {
    if (this.isClosed) throw new AcpError("ConnectionClosed", "the HTTP transport is closed");
    const isRequest = typeof message.method === "string" && "id" in message;
    if (this.connectionId === undefined) {
      if (message.method !== "initialize" || !isRequest)
        throw new AcpError(
          "NotInitialized",
          `the first message on an HTTP endpoint must be the initialize request, not ${JSON.stringify(message.method ?? "an answer")}`,
        );
      return this.postInitialize(message, text);
    }
    const sessionId = this.sessionOf(message);
    const headers: Record<string, string> = { "Content-Type": "application/json", [CONNECTION_HEADER]: this.connectionId };
    if (sessionId !== undefined) {
      headers[SESSION_HEADER] = sessionId;
      await this.openStream(sessionId);
    }
    const response = await this.request("POST", headers, text, this.abort.signal).catch((error: unknown) => this.networkFailure(error));
    if (response === undefined) return;
    if (response.ok) {
      void response.body?.cancel().catch(() => {});
      return;
    }
    const body = await errorBody(response);
    if (CONNECTION_GONE.has(response.status)) {
      this.fail(`the endpoint answered HTTP ${response.status}: ${body}`);
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
    const response = await this.request("POST", { "Content-Type": "application/json" }, text, this.abort.signal).catch((error: unknown) =>
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
    if (connectionId !== null && typeof answer === "object" && answer !== null && "result" in answer) {
      this.connectionId = connectionId;
      this.openConnectionStream();
    }
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

  private openConnectionStream(): void {
    const opened = this.readStream(undefined);
    this.streams.set("", opened);
  }

  /** Open a session's stream unless it is open; resolves once the endpoint accepted it (or refused it). */
  private openStream(sessionId: string): Promise<void> {
    const existing = this.streams.get(`s:${sessionId}`);
    if (existing !== undefined) return existing;
    const opened = this.readStream(sessionId);
    this.streams.set(`s:${sessionId}`, opened);
    return opened;
  }

  /** GET one stream; resolves when its response arrived, and reads it in the background. */
  private readStream(sessionId: string | undefined): Promise<void> {
    const headers: Record<string, string> = { Accept: EVENT_STREAM, [CONNECTION_HEADER]: this.connectionId as string };
    if (sessionId !== undefined) headers[SESSION_HEADER] = sessionId;
    const key = sessionId === undefined ? "" : `s:${sessionId}`;
    return this.request("GET", headers, undefined, this.abort.signal).then(
      async (response) => {
        if (!response.ok || response.body === null) {
          const body = await errorBody(response);
          if (sessionId === undefined || CONNECTION_GONE.has(response.status))
            this.fail(`the ${sessionId === undefined ? "connection" : "session"} stream was refused with HTTP ${response.status}: ${body}`);
          else
            this.receiver?.onTransportError(
              new AcpError("ProtocolViolation", `the stream of session ${sessionId} was refused with HTTP ${response.status}: ${body}`),
            );
          this.streamEnded(key, sessionId, `refused with HTTP ${response.status}`);
          return;
        }
        // The endpoint names why it ends a stream in a last comment line (`: closed: <reason>`).
        let closedBecause: string | undefined;
        const onComment = (comment: string) => {
          if (comment.startsWith("closed: ")) closedBecause = comment.slice("closed: ".length);
        };
        void readSse(response.body, this.maxMessageSize, (data) => this.onStreamMessage(data, sessionId), this.abort.signal, onComment).then(
          () => this.streamEnded(key, sessionId, closedBecause ?? "the endpoint ended it"),
          (error: unknown) => this.streamEnded(key, sessionId, (error as Error).message),
        );
      },
      (error: unknown) => {
        this.networkFailure(error);
        this.streamEnded(key, sessionId, (error as Error).message);
      },
    );
  }

  private streamEnded(key: string, sessionId: string | undefined, why: string): void {
    this.streams.delete(key);
    if (this.isClosed) return;
    // The connection stream is the connection: without it nothing more can arrive (RT20). A
    // session's stream is opened again by the next message for that session. A server that shuts
    // down ends all streams at once; what the session streams still carry (the answers of turns it
    // cancelled) is read before the transport closes.
    if (sessionId === undefined) this.connectionEnded = `the connection stream ended: ${why}`;
    if (this.connectionEnded !== undefined && [...this.streams.keys()].every((open) => open === "")) this.fail(this.connectionEnded);
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
      if (sessionId !== undefined && typeof message.method === "string" && "id" in message) {
        const key = idKey(message.id);
        if (key !== undefined) this.agentRequestSessions.set(key, sessionId);
      }
      // A new session's updates wait on its stream until someone reads it: open it now.
      const created = sessionIdOfResult(message);
      if (created !== undefined && !this.isClosed) void this.openStream(created);
    }
    this.deliver(value);
  }

  private deliver(message: unknown): void {
    if (this.isClosed) return;
    this.receiver?.onMessage(message as object);
  }

  private networkFailure(error: unknown): undefined {
    if (!this.isClosed) this.fail(`the endpoint could not be reached: ${(error as Error).message}`);
    return undefined;
  }

  private fail(reason: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.abort.abort();
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

function httpError(status: number, body: string) {
  // The endpoint's own refusals carry a JSON-RPC error: keep its code and message.
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    if (typeof parsed.error?.code === "number" && typeof parsed.error.message === "string")
      return { code: parsed.error.code, message: parsed.error.message, data: { httpStatus: status } };
  } catch {}
  return { code: -32603, message: `the endpoint answered HTTP ${status}`, data: { httpStatus: status, body } };
}

async function errorBody(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  return text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}…` : text;
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
