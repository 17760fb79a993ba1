// One HTTP+SSE connection on the fleet node that owns it, seen from the agent's side as a
// Transport (docs/remote.md §7). What the client sends reaches it from this node's POSTs or,
// forwarded, from any other node; what the agent sends is appended to the connection's streams in
// the backend, where a reader on any node takes it.
//
// Invariants:
// - every message the agent sends is appended to exactly one stream, in the order sent (one
//   BackendWriter), or answers the initialize POST, or answers one of this node's own requests;
// - a client request is recorded as pending in the backend before its answer is appended, so a node
//   that adopts the connection answers exactly the requests that never got one;
// - output waiting for the client (unread in the backend, or queued here) is bounded by
//   maxBufferedChars: above it the agent's sends wait, and a client that reads nothing for
//   maxOutputStallMs gets the connection closed with a reason;
// - once the backend says another node owns the connection (fenced), this node writes nothing more
//   and lets its agent go.
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver, __transportKit } from "@acpkit/core";
import { idKey, SessionLedger, sessionIdOfParams } from "../common.js";
import type { ConnectionRecord, FleetBackend, StreamRef, StreamRetention } from "./backend.js";
import { BackendWriter } from "./backend-writer.js";
import { toAgentId, toClientId } from "./request-ids.js";

const { createDeferred, encodeMessage, SEND_ACCEPTED } = __transportKit;
type Deferred = ReturnType<typeof createDeferred>;

/** How often a congested connection asks the backend how much its readers took. */
const CONGESTION_POLL_MS = 50;
/** The prefix of the ids of requests this node sends the agent itself (initialize and re-attach after an adoption). */
const OWN_ID_PREFIX = "acpkit.dev/fleet#";

/** What an owned connection needs to know. */
export interface OwnedConnectionOptions {
  readonly backend: FleetBackend;
  readonly nodeId: string;
  readonly record: ConnectionRecord;
  readonly retention: StreamRetention;
  readonly maxBufferedChars: number;
  readonly maxOutputStallMs: number;
}

export class OwnedConnection implements Transport {
  readonly closed: Promise<CloseInfo>;
  readonly id: string;
  /** Milliseconds since the epoch of the last client message for this connection. */
  lastSeen = Date.now();
  readonly epoch: number;
  private readonly writer: BackendWriter;
  /** Where the answer to each client request goes (its session's stream, or the connection stream), by idKey. */
  private readonly routes = new Map<string, string | undefined>();
  /** The agent's sessions, recorded in the backend as they come and go, for an adopting node (RT35). */
  private readonly ledger = new SessionLedger((sessionId, setup) => this.writer.session(sessionId, setup === undefined ? undefined : JSON.stringify(setup)));
  private readonly own = new Map<string, (answer: Record<string, unknown>) => void>();
  /** Sessions being loaded after an adoption: the history the agent replays is not sent again. */
  readonly replaying = new Set<string>();
  private receiver: TransportReceiver | undefined;
  /** Client messages that wait until the agent is ready for them (started, and re-attached after an adoption). */
  private readonly held: Record<string, unknown>[] = [];
  private ready = true;
  /** This node's own requests sent before the agent started. */
  private readonly early: Record<string, unknown>[] = [];
  private readonly unread = new Map<string, number>();
  private drained: Deferred | undefined;
  private congestionTimer: ReturnType<typeof setTimeout> | undefined;
  private congestedSince = 0;
  private ownIds = 0;
  private isClosed = false;
  private resolveClosed!: (info: CloseInfo) => void;

  constructor(private readonly options: OwnedConnectionOptions) {
    this.id = options.record.connectionId;
    this.epoch = options.record.epoch;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.writer = new BackendWriter({
      backend: options.backend,
      nodeId: options.nodeId,
      connectionId: this.id,
      epoch: this.epoch,
      retention: options.retention,
      onFenced: () => this.finish({ reason: "another node took this connection over" }, false),
      onUnread: (ref, chars) => this.unread.set(ref.sessionId ?? "", chars),
    });
  }

  start(receiver: TransportReceiver): void {
    if (this.receiver !== undefined) throw new AcpError("InvalidArgument", "the transport was already started");
    this.receiver = receiver;
    for (const message of this.early.splice(0)) receiver.onMessage(message);
    if (this.ready) this.release();
  }

  /** Hold client messages until `release()` (an adopted connection, while its agent is re-attached). */
  hold(): void {
    this.ready = false;
  }

  /** Hand the held client messages to the agent, and every later one at once. */
  release(): void {
    this.ready = true;
    if (this.receiver === undefined) return;
    for (const message of this.held.splice(0)) this.receiver.onMessage(message);
  }

  /** A message from the client; `sessionId` names the stream a request's answer goes to. */
  accept(message: Record<string, unknown>, sessionId: string | undefined): void {
    if (this.isClosed) return;
    if (!("method" in message)) {
      // An answer to one of the agent's requests: back to the id the agent gave it.
      const id = toAgentId(message.id, this.epoch);
      if (id === undefined) return;
      if (id !== message.id) message = { ...message, id };
    } else if ("id" in message) {
      const key = idKey(message.id);
      if (key !== undefined) {
        this.routes.set(key, sessionId);
        this.ledger.request(message);
        this.writer.pending({ key, id: message.id as string | number, ...(sessionId === undefined ? {} : { sessionId }) });
      }
    }
    if (this.ready && this.receiver !== undefined) this.receiver.onMessage(message);
    else this.held.push(message);
  }

  /**
   * Hand the client's initialize request to the agent; resolves with the agent's answer, which goes
   * back in the POST's response (never to a stream).
   */
  initializeWith(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      this.own.set(idKey(message.id) ?? "", resolve);
      void this.closed.then((info) => reject(new AcpError("ConnectionClosed", `the agent ended before answering initialize: ${info.reason}`)));
      this.toAgent(message);
    });
  }

  /** Send the agent a request of this node's own; resolves with its answer (never sent to the client). */
  request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = `${OWN_ID_PREFIX}${++this.ownIds}`;
    return new Promise((resolve, reject) => {
      this.own.set(idKey(id) as string, resolve);
      void this.closed.then((info) => reject(new AcpError("ConnectionClosed", `the agent ended before answering ${method}: ${info.reason}`)));
      this.toAgent({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** A message of this node's own, to the agent now or as soon as it started. */
  private toAgent(message: Record<string, unknown>): void {
    if (this.receiver !== undefined) this.receiver.onMessage(message);
    else this.early.push(message);
  }

  /** Append a message of this node's own to a stream (an error answer for a request an old owner left). */
  write(ref: StreamRef, message: Record<string, unknown>, answered?: string): void {
    this.writer.append(ref, encodeMessage(message), answered);
  }

  /** End one session's stream with a reason (its agent could not take it up again). */
  endSession(sessionId: string, reason: string): void {
    this.writer.endStream({ connectionId: this.id, sessionId }, reason);
    this.writer.session(sessionId, undefined);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.isClosed) return Promise.reject(new AcpError("ConnectionClosed", "the connection is closed"));
    for (const one of Array.isArray(message) ? message : [message]) this.route(one as unknown as Record<string, unknown>);
    return this.congested ? this.whenDrained() : SEND_ACCEPTED;
  }

  async close(reason = "closed by the server"): Promise<void> {
    this.finish({ reason });
  }

  /** Client requests whose answers have not come yet. */
  get pendingRequests(): number {
    return this.routes.size;
  }

  /** Whether output waiting for the client is over the limit. */
  get congested(): boolean {
    let total = this.writer.queuedChars;
    for (const chars of this.unread.values()) total += chars;
    return total > this.options.maxBufferedChars;
  }

  /** Resolves once the client has read enough, or the connection closed. */
  whenDrained(): Promise<void> {
    if (!this.congested || this.isClosed) return SEND_ACCEPTED;
    if (this.drained === undefined) {
      this.drained = createDeferred();
      this.congestedSince = performance.now();
      this.pollCongestion();
    }
    return this.drained.promise;
  }

  /**
   * End the connection. `endInBackend` (the default) ends its streams and record in the backend
   * after everything written so far; a fenced connection leaves them to the node that owns it now.
   */
  finish(info: CloseInfo, endInBackend = true): void {
    if (this.isClosed) return;
    this.isClosed = true;
    clearTimeout(this.congestionTimer);
    this.drained?.resolve();
    this.resolveClosed(info);
    if (!endInBackend) return this.writer.stop();
    void this.writer.flushed().then(() => this.options.backend.endConnection(this.id, info.reason).catch(() => {}));
  }

  /**
   * Let the connection go to another node (this one is leaving the fleet): what the agent wrote
   * reaches the backend (within `flushLimitMs`), then the agent hears the close; the records stay
   * for the node that adopts the connection.
   */
  async handOver(reason: string, flushLimitMs: number): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    clearTimeout(this.congestionTimer);
    this.drained?.resolve();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.writer.flushed(), new Promise((resolve) => (timer = setTimeout(resolve, flushLimitMs)))]);
    clearTimeout(timer);
    this.writer.stop();
    this.resolveClosed({ reason });
  }

  private route(message: Record<string, unknown>): void {
    if (!("method" in message)) {
      const key = idKey(message.id);
      const own = key === undefined ? undefined : this.own.get(key);
      if (own !== undefined) {
        this.own.delete(key as string);
        return own(message);
      }
      const route = key === undefined || !this.routes.has(key) ? undefined : { sessionId: this.routes.get(key) };
      if (key !== undefined) this.routes.delete(key);
      if (route !== undefined) this.ledger.answer(message);
      this.writer.append(this.streamOf(route?.sessionId), encodeMessage(message), route === undefined ? undefined : key);
      return;
    }
    const sessionId = sessionIdOfParams(message.params);
    // A notification of a session being loaded again is history the client already has.
    if (sessionId !== undefined && this.replaying.has(sessionId) && !("id" in message)) return;
    if ("id" in message && this.epoch > 0) message = { ...message, id: toClientId(message.id as string | number, this.epoch) };
    this.writer.append(this.streamOf(sessionId), encodeMessage(message));
  }

  private streamOf(sessionId: string | undefined): StreamRef {
    return sessionId === undefined ? { connectionId: this.id } : { connectionId: this.id, sessionId };
  }

  /** While congested: ask the backend what the readers took; close the connection when they took nothing for too long. */
  private pollCongestion(): void {
    this.congestionTimer = setTimeout(async () => {
      if (this.isClosed) return;
      for (const key of [...this.unread.keys()]) {
        const before = this.unread.get(key) ?? 0;
        const now = await this.options.backend
          .unreadChars(key === "" ? { connectionId: this.id } : { connectionId: this.id, sessionId: key })
          .catch(() => before);
        if (now < before) this.congestedSince = performance.now();
        this.unread.set(key, now);
      }
      if (!this.congested || this.isClosed) {
        const drained = this.drained;
        this.drained = undefined;
        return drained?.resolve();
      }
      if (performance.now() - this.congestedSince >= this.options.maxOutputStallMs)
        return this.finish({ reason: `the client read none of its streams for ${this.options.maxOutputStallMs} ms` });
      this.pollCongestion();
    }, CONGESTION_POLL_MS);
    this.congestionTimer.unref?.();
  }
}
