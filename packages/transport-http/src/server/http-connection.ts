// One connection of the HTTP+SSE profile, seen from the agent's side as a Transport: what the
// client POSTs is handed to the receiver; what the agent sends is routed to the connection stream
// or to a session's stream (docs/remote.md RT10, RT11, RT15) and waits there until the client reads it.
//
// Invariants:
// - every message the agent sends lands in exactly one outbox (or answers the initialize POST);
// - the characters waiting in all outboxes are counted in `buffered`; above `maxBufferedChars`
//   the agent's sends wait (its output is paused, not dropped), and if the client reads nothing
//   for `maxOutputStallMs` the connection is closed with a reason instead of growing;
// - at most `maxSessionStreams` session outboxes exist without a reader.
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver, __transportKit } from "@acpkit/core";
import { idKey, sessionIdOfParams } from "../common.js";
import { Outbox, type Retention } from "./outbox.js";

const { createDeferred, encodeMessage, SEND_ACCEPTED } = __transportKit;
type Deferred = ReturnType<typeof createDeferred>;

/** The limits one connection keeps (EndpointLimits, resolved). */
export interface ConnectionLimits {
  maxBufferedChars: number;
  maxOutputStallMs: number;
  maxSessionStreams: number;
  /** Kept events per stream for readers that come back (resume on), or undefined. */
  retention: Retention | undefined;
}

/** Where an answer goes: the connection stream, or the stream of a session. */
export type Route = { session: string } | "connection";

export class HttpConnection implements Transport {
  readonly connectionStream: Outbox;
  readonly closed: Promise<CloseInfo>;
  /** Milliseconds since the epoch of the last request that named this connection. */
  lastSeen = Date.now();
  private readonly sessions = new Map<string, Outbox>();
  /** Where the answer to each client request goes, by idKey. */
  private readonly routes = new Map<string, Route>();
  private receiver: TransportReceiver | undefined;
  private readonly early: unknown[] = [];
  private buffered = 0;
  private drained: Deferred | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the client last read something while the stall timer ran (performance.now()). */
  private lastRead = 0;
  /** The initialize request in flight: its id key and who takes the agent's answer. */
  private initialize: { key: string; answered(answer: Record<string, unknown>): void } | undefined;
  private isClosed = false;
  private resolveClosed!: (info: CloseInfo) => void;

  constructor(
    readonly id: string,
    private readonly limits: ConnectionLimits,
  ) {
    this.connectionStream = new Outbox(this.count, limits.retention);
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  start(receiver: TransportReceiver): void {
    if (this.receiver !== undefined) throw new AcpError("InvalidArgument", "the transport was already started");
    this.receiver = receiver;
    for (const message of this.early.splice(0)) receiver.onMessage(message as object);
  }

  /** Client requests whose answers have not come yet. */
  get pendingRequests(): number {
    return this.routes.size;
  }

  /** Whether a GET stream of this connection is being read. */
  get hasOpenStream(): boolean {
    if (this.connectionStream.hasReader) return true;
    for (const outbox of this.sessions.values()) if (outbox.hasReader) return true;
    return false;
  }

  /** Whether the client is behind on reading (new requests wait, RT15). */
  get congested(): boolean {
    return this.buffered > this.limits.maxBufferedChars;
  }

  /** Resolves once the client has read enough, or the connection closed. */
  whenDrained(): Promise<void> {
    if (!this.congested || this.isClosed) return SEND_ACCEPTED;
    this.drained ??= createDeferred();
    return this.drained.promise;
  }

  /**
   * Hand the initialize request to the agent; resolves with the agent's answer (never queued on a
   * stream), or rejects with AcpError "ConnectionClosed" when the connection ends first.
   */
  initializeWith(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      this.initialize = { key: idKey(message.id) ?? "", answered: resolve };
      void this.closed.then((info) => reject(new AcpError("ConnectionClosed", `the agent ended before answering initialize: ${info.reason}`)));
      this.accept(message, "connection");
    });
  }

  /** A message the client POSTed: requests remember where their answer goes. */
  accept(message: Record<string, unknown>, route: Route): void {
    if (this.isClosed) return;
    const key = "method" in message ? idKey(message.id) : undefined;
    if (key !== undefined) this.routes.set(key, route);
    if (this.receiver === undefined) this.early.push(message);
    else this.receiver.onMessage(message);
  }

  /** The session's outbox for a GET stream, created if the agent has not written to it yet. */
  sessionStream(sessionId: string): Outbox | undefined {
    if (this.isClosed) return undefined;
    return this.sessions.get(sessionId) ?? this.openSession(sessionId);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.isClosed) return Promise.reject(new AcpError("ConnectionClosed", "the connection is closed"));
    for (const one of Array.isArray(message) ? message : [message]) this.route(one as unknown as Record<string, unknown>);
    if (!this.congested) return SEND_ACCEPTED;
    this.startStallTimer();
    return this.whenDrained();
  }

  async close(reason = "closed by the server"): Promise<void> {
    this.finish({ reason });
  }

  /** End the connection: streams end after what they hold was read, the agent hears the close. */
  finish(info: CloseInfo): void {
    if (this.isClosed) return;
    this.isClosed = true;
    clearTimeout(this.stallTimer);
    this.connectionStream.end(info.reason);
    for (const outbox of this.sessions.values()) outbox.end(info.reason);
    this.drained?.resolve();
    this.resolveClosed(info);
  }

  /** Drop whatever is still queued (DELETE, or the server closing). */
  discard(): void {
    this.connectionStream.discard();
    for (const outbox of this.sessions.values()) outbox.discard();
    this.sessions.clear();
  }

  private route(message: Record<string, unknown>): void {
    const text = encodeMessage(message);
    if (!("method" in message)) {
      const key = idKey(message.id);
      if (key !== undefined && this.initialize?.key === key) {
        this.initialize.answered(message);
        this.initialize = undefined;
        this.routes.delete(key);
        return;
      }
      const route = key === undefined ? undefined : this.routes.get(key);
      if (key !== undefined) this.routes.delete(key);
      this.outboxFor(route === undefined || route === "connection" ? undefined : route.session).push(text);
      return;
    }
    this.outboxFor(sessionIdOfParams(message.params)).push(text);
  }

  private outboxFor(sessionId: string | undefined): Outbox {
    if (sessionId === undefined) return this.connectionStream;
    return this.sessions.get(sessionId) ?? this.openSession(sessionId) ?? this.connectionStream;
  }

  private openSession(sessionId: string): Outbox | undefined {
    let unread = 0;
    for (const outbox of this.sessions.values()) if (!outbox.hasReader) unread++;
    if (unread >= this.limits.maxSessionStreams) {
      this.finish({ reason: `more than ${this.limits.maxSessionStreams} session streams wait for a reader` });
      return undefined;
    }
    const outbox = new Outbox(this.count, this.limits.retention);
    this.sessions.set(sessionId, outbox);
    return outbox;
  }

  private readonly count = (delta: number): void => {
    this.buffered += delta;
    if (delta >= 0) return;
    // The client read something: it is slow, not stalled. The timer sees this when it fires (no
    // timer is set again per message read: this runs for every message a stream hands out).
    if (this.stallTimer !== undefined) this.lastRead = performance.now();
    if (this.drained !== undefined && this.buffered <= this.limits.maxBufferedChars / 2) {
      const drained = this.drained;
      this.drained = undefined;
      drained.resolve();
    }
  };

  private startStallTimer(): void {
    if (this.stallTimer !== undefined) return;
    this.lastRead = performance.now();
    this.armStallTimer(this.limits.maxOutputStallMs);
  }

  /** Close the connection once the client has read nothing for maxOutputStallMs while congested. */
  private armStallTimer(ms: number): void {
    this.stallTimer = setTimeout(() => {
      this.stallTimer = undefined;
      if (!this.congested || this.isClosed) return;
      const idle = performance.now() - this.lastRead;
      if (idle < this.limits.maxOutputStallMs) return this.armStallTimer(this.limits.maxOutputStallMs - idle);
      this.finish({ reason: `the client read none of its streams for ${this.limits.maxOutputStallMs} ms with ${this.buffered} characters waiting` });
      this.discard();
    }, ms);
    this.stallTimer.unref?.();
  }
}
