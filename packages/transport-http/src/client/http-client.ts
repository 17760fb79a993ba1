// The client side of the HTTP+SSE profile as one Transport (docs/remote.md RT17–RT22): initialize is
// POSTed and opens the connection; every later message is POSTed in order with the connection's
// header (and the session's, for what belongs to a session); the agent's messages arrive on the
// connection stream and on one stream per session, opened before the first message that needs it
// and when an answer names a new session. All streams feed the one receiver.
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver, __transportKit } from "@acpkit/core";
import {
  answersOnConnectionStream,
  CONNECTION_HEADER,
  EVENT_STREAM,
  GAP_EVENT,
  RESUME_META_KEY,
  SESSION_HEADER,
  idKey,
  sessionIdOfParams,
  sessionIdOfResult,
} from "../protocol.js";
import { type CookieStore, MemoryCookieStore } from "./cookie-jar.js";
import { ERROR_BODY_CHARS, errorBody, httpError } from "./http-errors.js";
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
/** How often in a row a broken stream of a resumable connection is opened again before the transport gives up (RT28). */
const MAX_RESUME_ATTEMPTS = 5;
/** The first wait before opening a broken stream again; it doubles with each attempt. */
const RESUME_BACKOFF_MS = 50;

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
  /** The endpoint advertised streams that resume (RT26): a broken stream is opened again from its last event id. */
  private resumable = false;
  /** The id of the last event read on each stream, by stream key. */
  private readonly lastEventIds = new Map<string, number>();
  /** Attempts in a row to open each broken stream again, by stream key. */
  private readonly resumeAttempts = new Map<string, number>();
  /** Requests sent with a session's header and not answered yet: id key → [session, id]. */
  private readonly awaiting = new Map<string, [string, unknown]>();
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
      const key = isRequest && !answersOnConnectionStream(message.method as string) ? idKey(message.id) : undefined;
      if (key !== undefined) this.awaiting.set(key, [sessionId, message.id]);
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
      const meta = (answer as { result?: { _meta?: Record<string, unknown> } }).result?._meta;
      this.resumable = typeof meta === "object" && meta !== null && typeof meta[RESUME_META_KEY] === "object";
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
    // Opening a broken stream again: from the last event read, or from the start (0) when none was.
    const lastEventId = this.resumable ? (this.lastEventIds.get(key) ?? (this.resumeAttempts.has(key) ? 0 : undefined)) : undefined;
    if (lastEventId !== undefined) headers["Last-Event-ID"] = String(lastEventId);
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
        const events = {
          onData: (data: string, id: string | undefined) => {
            if (id !== undefined && this.resumable && /^\d+$/.test(id)) {
              this.lastEventIds.set(key, Number(id));
              this.resumeAttempts.delete(key);
            }
            this.onStreamMessage(data, sessionId);
          },
          onComment: (comment: string) => {
            if (comment.startsWith("closed: ")) closedBecause = comment.slice("closed: ".length);
          },
          onEvent: (type: string, data: string) => {
            if (type === GAP_EVENT) this.reportGap(data, sessionId);
          },
        };
        void readSse(response.body, this.maxMessageSize, this.abort.signal, events).then(
          () => (closedBecause !== undefined ? this.streamEnded(key, sessionId, closedBecause) : this.streamBroke(key, sessionId, "the endpoint ended it")),
          (error: unknown) => this.streamBroke(key, sessionId, (error as Error).message),
        );
      },
      (error: unknown) => {
        // Opening a broken stream again may meet the endpoint briefly away: that is one more attempt.
        if (this.resumable && this.resumeAttempts.has(key)) return this.streamBroke(key, sessionId, (error as Error).message);
        this.networkFailure(error);
        this.streamEnded(key, sessionId, (error as Error).message);
      },
    );
  }

  /**
   * A stream ended without the endpoint saying why (a network failure, a proxy that cut it). With
   * resume (RT28) it is opened again from its last event id, a few times in a row with a growing
   * wait; otherwise, or after the last attempt, it has ended.
   */
  private streamBroke(key: string, sessionId: string | undefined, why: string): void {
    const attempts = this.resumeAttempts.get(key) ?? 0;
    if (this.isClosed || !this.resumable || attempts >= MAX_RESUME_ATTEMPTS) {
      this.streamEnded(key, sessionId, attempts >= MAX_RESUME_ATTEMPTS ? `${why} (after ${attempts} attempts to resume it)` : why);
      return;
    }
    this.resumeAttempts.set(key, attempts + 1);
    const again = new Promise<void>((resolve) => setTimeout(resolve, RESUME_BACKOFF_MS * 2 ** attempts)).then(() =>
      this.isClosed ? undefined : this.readStream(sessionId),
    );
    this.streams.set(key, again);
  }

  /** A gap notice (RT27): events the endpoint no longer holds. Reported, never skipped silently. */
  private reportGap(data: string, sessionId: string | undefined): void {
    let gap: { from?: unknown; to?: unknown } = {};
    try {
      gap = JSON.parse(data) as typeof gap;
    } catch {}
    const stream = sessionId === undefined ? "the connection stream" : `the stream of session ${sessionId}`;
    this.receiver?.onTransportError(
      new AcpError(
        "UpdatesDropped",
        `the endpoint no longer holds events ${String(gap.from)}–${String(gap.to)} of ${stream}: they were sent while this client was away and are lost`,
        {
          data: gap,
        },
      ),
    );
  }

  private streamEnded(key: string, sessionId: string | undefined, why: string): void {
    this.streams.delete(key);
    this.resumeAttempts.delete(key);
    if (this.isClosed) return;
    // Every request gets one answer: those whose answer was to come on this session's stream fail
    // now, with why, instead of waiting for a stream nobody reads.
    if (sessionId !== undefined && this.connectionEnded === undefined) {
      for (const [answerKey, [session, id]] of [...this.awaiting]) {
        if (session !== sessionId) continue;
        this.awaiting.delete(answerKey);
        this.deliver({ jsonrpc: "2.0", id, error: { code: -32603, message: `the stream of session ${sessionId} ended before the answer came: ${why}` } });
      }
    }
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
      if (!("method" in message)) {
        const answered = idKey(message.id);
        if (answered !== undefined) this.awaiting.delete(answered);
      }
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
