// One node of a fleet (docs/remote.md §7): the HTTP+SSE profile's connections, shared with the
// other nodes through a FleetBackend. The node that accepts a connection's initialize hosts its
// agent and owns it; any node accepts the connection's POSTs (forwarding them to the owner's inbox)
// and serves its GET streams (from the backend). Every node beats a heartbeat; a node whose
// heartbeat lapsed has its connections adopted by a live one, which starts their agents again.
import type { Transport } from "@acpkit/core";
import { idKey } from "../common.js";
import { hostConnection } from "../server/host-connection.js";
import type { OutboxReader } from "../server/outbox.js";
import type { ConnectionInfo, EndpointLimits } from "../server/types.js";
import type { FleetBackend, FleetOptions, InboxSubscription, StreamRetention } from "./backend.js";
import { OwnedConnection } from "./owned-connection.js";
import { reattach } from "./reattach.js";
import { openFleetReader } from "./stream-reader.js";

/** The longest time between two heartbeats (and looks for orphaned connections) of a node. */
const MAX_HEARTBEAT_MS = 1000;
/** How often a fleet node beats its heartbeat unless told otherwise (FleetOptions.heartbeatMs). */
export const DEFAULT_HEARTBEAT_MS = 1000;
/** How old a node's heartbeat may get before the node counts as dead, unless told otherwise (FleetOptions.nodeTimeoutMs). */
export const DEFAULT_NODE_TIMEOUT_MS = 5000;

/** What a forwarded message carries: the client's message and the session its answer goes to, or an order to end. */
type Envelope = { m: Record<string, unknown>; s?: string } | { end: string };

/** How long a POST for a connection whose node died waits for another node to adopt it. */
const ORPHAN_WAIT_STEP_MS = 100;

export class FleetNode {
  private readonly owned = new Map<string, OwnedConnection>();
  private readonly backend: FleetBackend;
  readonly nodeId: string;
  private readonly heartbeatMs: number;
  private readonly nodeTimeoutMs: number;
  private readonly handOverOnClose: boolean;
  private readonly inbox: InboxSubscription;
  private ticker: ReturnType<typeof setTimeout> | undefined;
  /** performance.now() from which this node may judge other nodes dead: a full timeout after its own heartbeat last failed. */
  private judgeFrom: number;
  /** performance.now() of this node's last heartbeat that reached the backend. */
  private lastBeat = performance.now();
  private readers = 0;
  /** The GET streams this node serves now: a node that leaves breaks them, so their clients resume elsewhere. */
  private readonly reading = new Set<OutboxReader>();
  private stopped = false;

  constructor(
    options: FleetOptions,
    private readonly limits: Readonly<EndpointLimits>,
    private readonly retention: StreamRetention,
    private readonly resumable: boolean,
    private readonly notify: (transport: Transport, info: ConnectionInfo) => void,
  ) {
    if (typeof options.nodeId !== "string" || options.nodeId === "") throw new TypeError("options.fleet.nodeId must be a non-empty string");
    if (typeof options.backend?.append !== "function") throw new TypeError("options.fleet.backend must be a FleetBackend");
    this.backend = options.backend;
    this.nodeId = options.nodeId;
    // At most a second apart, whatever the timeout: the same tick looks for connections to adopt,
    // and a node that hands its connections over (RT39) wants them taken at once.
    this.heartbeatMs = Math.min(options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS, MAX_HEARTBEAT_MS);
    this.nodeTimeoutMs = options.nodeTimeoutMs ?? DEFAULT_NODE_TIMEOUT_MS;
    this.handOverOnClose = options.handOverOnClose ?? true;
    if (!(this.nodeTimeoutMs > this.heartbeatMs * 2))
      throw new TypeError(`options.fleet.nodeTimeoutMs (${this.nodeTimeoutMs}) must be more than twice heartbeatMs (${this.heartbeatMs})`);
    // The heartbeats in the backend say who is alive; a node judges once its own first beat landed.
    this.judgeFrom = performance.now();
    this.inbox = this.backend.receive(this.nodeId, (connectionId, text) => this.delivered(connectionId, text));
    void this.tick();
  }

  /** Connections this node owns. */
  get ownedCount(): number {
    return this.owned.size;
  }

  /** A new connection, owned by this node: its agent is started and handed the client's initialize. */
  async open(body: Record<string, unknown>, info: Omit<ConnectionInfo, "connectionId">): Promise<OwnedConnection> {
    const record = { connectionId: crypto.randomUUID(), owner: this.nodeId, epoch: 0, initialize: JSON.stringify(body) };
    await this.backend.openConnection(record);
    return this.host(new OwnedConnection({ backend: this.backend, nodeId: this.nodeId, record, retention: this.retention, ...this.limits }), info);
  }

  /** A client message for a connection: handed to its agent here, or forwarded to the node that owns it. */
  async post(connectionId: string, message: Record<string, unknown>, sessionId: string | undefined): Promise<"sent" | "gone" | "orphaned" | "busy"> {
    const local = this.owned.get(connectionId);
    if (local !== undefined) {
      local.lastSeen = Date.now();
      if ("method" in message && "id" in message) {
        if (local.pendingRequests >= this.limits.maxPendingRequests) return "busy";
        // A client that is behind on reading gets no new work accepted until it catches up (RT15).
        await local.whenDrained();
      }
      local.accept(message, sessionId);
      return "sent";
    }
    const key = "method" in message ? idKey(message.id) : undefined;
    const pending = key === undefined ? undefined : { key, id: message.id as string | number, ...(sessionId === undefined ? {} : { sessionId }) };
    const envelope: Envelope = sessionId === undefined ? { m: message } : { m: message, s: sessionId };
    return this.forward(connectionId, JSON.stringify(envelope), pending);
  }

  /** A GET stream of a connection, read from the backend whichever node owns it. */
  async stream(connectionId: string, sessionId: string | undefined, lastEventId: number | undefined): Promise<OutboxReader | "busy" | "gone" | "full"> {
    const ref = sessionId === undefined ? { connectionId } : { connectionId, sessionId };
    const holder = `${this.nodeId}/${++this.readers}`;
    let reader: OutboxReader | undefined;
    const options = {
      backend: this.backend,
      ref,
      holder,
      leaseMs: this.nodeTimeoutMs,
      retention: this.retention,
      resumable: this.resumable,
      maxStreams: this.limits.maxSessionStreams + 1,
      onRelease: () => void (reader !== undefined && this.reading.delete(reader)),
    };
    const opened = await openFleetReader(options, lastEventId);
    if (typeof opened === "string") return opened;
    reader = opened;
    this.reading.add(reader);
    return reader;
  }

  /** End a connection (DELETE), on whichever node owns it. */
  async remove(connectionId: string, reason: string): Promise<"sent" | "gone" | "orphaned"> {
    const local = this.owned.get(connectionId);
    if (local !== undefined) {
      local.finish({ reason });
      return "sent";
    }
    const result = await this.forward(connectionId, JSON.stringify({ end: reason } satisfies Envelope), undefined);
    // Nobody hosts it: end it in the backend directly.
    if (result === "orphaned") await this.backend.endConnection(connectionId, reason);
    return result === "orphaned" ? "sent" : result;
  }

  /**
   * Leave the fleet: the connections this node owns are handed over to the other nodes (RT39), or
   * ended when `handOverOnClose` is false.
   */
  async close(reason: string): Promise<void> {
    this.stopped = true;
    clearTimeout(this.ticker);
    await this.inbox.stop();
    // Without a closed: line, so that clients take it as a break and resume (or reconnect) through
    // another node, rather than as the end of their connection.
    for (const reader of [...this.reading]) reader.release();
    const owned = [...this.owned.values()];
    if (this.handOverOnClose) {
      await Promise.all(owned.map((connection) => connection.handOver(reason, this.nodeTimeoutMs)));
      // Only now: an adopter must find everything this node wrote. An unreachable backend must not
      // hold the shutdown: the heartbeat then lapses by itself within the node timeout.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.backend.leave(this.nodeId).catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, this.nodeTimeoutMs)))]);
      clearTimeout(timer);
      return;
    }
    for (const connection of owned) connection.finish({ reason });
    await Promise.all(owned.map((connection) => connection.closed));
  }

  /** Close the connections this node owns that saw no client message for idleTimeoutMs and wait for no answer. */
  sweep(): void {
    const before = Date.now() - this.limits.idleTimeoutMs;
    for (const connection of this.owned.values())
      if (connection.lastSeen < before && connection.pendingRequests === 0) connection.finish({ reason: `no request for ${this.limits.idleTimeoutMs} ms` });
  }

  private host(connection: OwnedConnection, info: Omit<ConnectionInfo, "connectionId">): OwnedConnection {
    return hostConnection(this.owned, connection, info, this.notify);
  }

  private async forward(connectionId: string, text: string, pending: Parameters<FleetBackend["forward"]>[2]): Promise<"sent" | "gone" | "orphaned"> {
    // A dead owner's connection is adopted within a node timeout; the message waits for that.
    const deadline = performance.now() + this.nodeTimeoutMs * 2;
    for (;;) {
      const result = await this.backend.forward(connectionId, text, pending);
      if (result !== "orphaned" || performance.now() > deadline || this.stopped) return result;
      await new Promise((resolve) => setTimeout(resolve, ORPHAN_WAIT_STEP_MS));
    }
  }

  private delivered(connectionId: string, text: string): void {
    const connection = this.owned.get(connectionId);
    if (connection === undefined) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if ("end" in envelope) return connection.finish({ reason: envelope.end });
    connection.lastSeen = Date.now();
    const message = envelope.m;
    // A forwarded request is held to the same bound as one POSTed here: past it, it is answered
    // with the refusal instead of reaching the agent.
    if ("method" in message && "id" in message && connection.pendingRequests >= this.limits.maxPendingRequests) {
      const ref = envelope.s === undefined ? { connectionId } : { connectionId, sessionId: envelope.s };
      const error = {
        code: -32600,
        message: `${this.limits.maxPendingRequests} requests of this connection wait for an answer already; send more once some are answered`,
        data: { httpStatus: 429 },
      };
      return connection.write(ref, { jsonrpc: "2.0", id: message.id, error }, idKey(message.id));
    }
    connection.accept(message, envelope.s);
  }

  /** Beat the heartbeat; then, when this node may judge, adopt what dead nodes left. */
  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.backend.heartbeat(this.nodeId, this.nodeTimeoutMs);
      const now = performance.now();
      const missed = now - this.lastBeat > this.heartbeatMs * 2;
      this.lastBeat = now;
      if (missed) {
        // This node missed beats (the backend was unreachable, or the process stalled): other
        // nodes' heartbeats may have lapsed for the same reason, so it judges nobody for a full
        // timeout, and it lets go of what other nodes may have adopted meanwhile.
        this.judgeFrom = now + this.nodeTimeoutMs + this.heartbeatMs;
        await this.verifyOwnership();
      } else if (now >= this.judgeFrom) await this.adoptOrphans();
    } catch {
      // The backend was unreachable: other nodes' heartbeats may have lapsed only because of that,
      // so nobody is judged dead until a full timeout after this node beats again.
      this.judgeFrom = performance.now() + this.nodeTimeoutMs + this.heartbeatMs;
    }
    if (this.stopped) return;
    this.ticker = setTimeout(() => void this.tick(), this.heartbeatMs);
    this.ticker.unref?.();
  }

  /** Let go of every connection the backend says another node (or a later epoch) owns now. */
  private async verifyOwnership(): Promise<void> {
    for (const connection of [...this.owned.values()]) {
      const record = await this.backend.connection(connection.id);
      if (record === undefined || record.owner !== this.nodeId || record.epoch !== connection.epoch)
        connection.finish({ reason: "another node took this connection over" }, false);
    }
  }

  private async adoptOrphans(): Promise<void> {
    for (const connectionId of await this.backend.orphans()) {
      if (this.stopped) return;
      const adoption = await this.backend.adopt(connectionId, this.nodeId);
      if (adoption === undefined) continue;
      const connection = new OwnedConnection({
        backend: this.backend,
        nodeId: this.nodeId,
        record: adoption.record,
        retention: this.retention,
        ...this.limits,
      });
      connection.hold();
      this.host(connection, { profile: "http", header: () => undefined });
      void reattach(connection, adoption);
    }
  }
}
