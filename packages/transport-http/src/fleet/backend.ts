// The backend a fleet of endpoint nodes shares (docs/remote.md §7): which node owns each
// connection, the messages each node is sent for the connections it owns, the streams of every
// connection with their readers' cursors, and the heartbeats that tell a live node from a dead one.
// Every operation is atomic on its own; the node logic (fleet/fleet-node.ts) is written against this
// interface only, so the in-memory backend and the Redis one behave alike.
//
// Invariants every backend keeps:
// - a connection has exactly one owner at a time; `adopt` moves it only from a node whose heartbeat
//   lapsed, and only one caller wins;
// - an `append` from an owner that is no longer the owner (or an older epoch) changes nothing
//   (`fenced`), so a node that was presumed dead cannot write after its connections were adopted;
// - an `append` repeated with the same (epoch, seq) changes nothing, so a retry after a lost reply
//   never delivers a message twice;
// - events a reader has not been handed are never trimmed; handed-out events are kept only within
//   the retention window.

/** One stream: the connection stream, or the stream of one session. */
export interface StreamRef {
  readonly connectionId: string;
  /** The session whose stream this is; absent for the connection stream. */
  readonly sessionId?: string;
}

/** What the fleet knows of a connection. */
export interface ConnectionRecord {
  readonly connectionId: string;
  /** The node that hosts the agent and takes every message of this connection. */
  readonly owner: string;
  /** 0 for the node that opened it; one more at each adoption. */
  readonly epoch: number;
  /** The client's initialize request (JSON text), sent to the agent again after an adoption. */
  readonly initialize: string;
}

/** A client request the agent has not answered yet, and the stream its answer goes to. */
export interface PendingRequest {
  /** The request's id as a map key (protocol.ts idKey). */
  readonly key: string;
  /** The request's JSON-RPC id. */
  readonly id: string | number;
  /** The session whose stream takes the answer; absent for the connection stream. */
  readonly sessionId?: string;
}

/** A session the agent holds for a connection, kept so that a new agent process can take it up again. */
export interface SessionRecord {
  readonly sessionId: string;
  /** The params to re-attach it with (`cwd`, `mcpServers`), as JSON text. */
  readonly params: string;
}

/** What `adopt` hands the new owner. */
export interface Adoption {
  /** The record with the new owner and epoch. */
  readonly record: ConnectionRecord;
  /** The sessions to take up again. */
  readonly sessions: readonly SessionRecord[];
  /** Requests the old owner never answered: the new owner answers each with an error. */
  readonly pending: readonly PendingRequest[];
}

/** One event of a stream. */
export interface StreamEvent {
  /** 1, 2, … per stream. */
  readonly id: number;
  readonly text: string;
}

/** How many handed-out events a stream keeps for a reader that comes back (0 events: none). */
export interface StreamRetention {
  readonly maxEvents: number;
  readonly maxChars: number;
}

/** What happened to an append. */
export interface AppendResult {
  /** The connection has another owner or ended: nothing was written, and this node must let it go. */
  readonly fenced: boolean;
  /** Characters of this stream not handed to a reader yet (for backpressure). */
  readonly unreadChars: number;
}

/** The position a new reader starts from. */
export interface ReaderStart {
  /** The last event id this reader counts as delivered: it is handed what comes after. */
  readonly after: number;
  /** Events asked for again that the retention window no longer holds (from–to, inclusive). */
  readonly gap?: { readonly from: number; readonly to: number };
}

/** What a read returns: the events after a position, and whether the stream ended. */
export interface StreamRead {
  readonly events: readonly StreamEvent[];
  /** Why the stream ended, once it has and every event was read. */
  readonly ended?: string;
}

/** A node's hold on its inbox (FleetBackend.receive). */
export interface InboxSubscription {
  /** Stop taking messages; resolves once no more will be handed over. */
  stop(): Promise<void>;
}

/** The state a fleet of endpoint nodes shares. */
export interface FleetBackend {
  /** Say that `nodeId` is alive for `ttlMs` more. */
  heartbeat(nodeId: string, ttlMs: number): Promise<void>;
  /** End `nodeId`'s heartbeat now: the node leaves, and its connections are adopted at the next look. */
  leave(nodeId: string): Promise<void>;
  /** Whether `nodeId`'s last heartbeat has not lapsed. */
  isAlive(nodeId: string): Promise<boolean>;
  /** Record a new connection (its owner is the node that accepted initialize). */
  openConnection(record: ConnectionRecord): Promise<void>;
  /** The connection's record, or undefined when it ended or never existed. */
  connection(connectionId: string): Promise<ConnectionRecord | undefined>;
  /** End a connection: every stream ends after what it holds, and the record is gone. */
  endConnection(connectionId: string, reason: string): Promise<void>;
  /** End one stream: its reader gets what it holds, then the end with `reason`. */
  endStream(stream: StreamRef, reason: string): Promise<void>;
  /** Remember a session of a connection (`params` JSON text), or forget it (undefined). */
  setSession(connectionId: string, sessionId: string, params: string | undefined): Promise<void>;
  /** Remember a request the owner was handed, until an append lists it as answered. */
  addPending(connectionId: string, request: PendingRequest): Promise<void>;
  /**
   * Hand a client message to the connection's owner through its inbox, recording `pending` (a
   * request) in the same step. "orphaned": the owner's heartbeat lapsed and nobody adopted the
   * connection yet (try again shortly); "gone": no such connection.
   */
  forward(connectionId: string, message: string, pending: PendingRequest | undefined): Promise<"sent" | "orphaned" | "gone">;
  /** Take the messages forwarded to `nodeId`, in order, until `stop()`. */
  receive(nodeId: string, onMessage: (connectionId: string, message: string) => void): InboxSubscription;
  /**
   * Append the owner's messages to a stream, each with the next event id, and forget the pending
   * requests they answer. Nothing is written when `owner`/`epoch` no longer hold the connection
   * (`fenced`) or when (`epoch`, `seq`) was appended before.
   */
  append(
    stream: StreamRef,
    owner: string,
    epoch: number,
    seq: number,
    texts: readonly string[],
    answered: readonly string[],
    retention: StreamRetention,
  ): Promise<AppendResult>;
  /** Characters of the stream not handed to a reader yet. */
  unreadChars(stream: StreamRef): Promise<number>;
  /**
   * Become the stream's one reader for `leaseMs` (renewed by `renewReader`); "busy" when another
   * holds it, "gone" when the connection does not exist. `lastEventId` (a returning reader's)
   * replays what came after it, within the retention window. A stream that does not exist yet is not
   * made when its connection has `maxStreams` streams already ("full"): a client cannot make the
   * backend hold streams without bound by naming sessions.
   */
  openReader(
    stream: StreamRef,
    holder: string,
    leaseMs: number,
    lastEventId: number | undefined,
    maxStreams?: number,
  ): Promise<ReaderStart | "busy" | "gone" | "full">;
  /** Keep the lease; false when it was lost (another reader took the stream). */
  renewReader(stream: StreamRef, holder: string, leaseMs: number): Promise<boolean>;
  /** Give the stream up. */
  releaseReader(stream: StreamRef, holder: string): Promise<void>;
  /** Events after `after`, at most about `maxChars` characters (at least one). */
  read(stream: StreamRef, after: number, maxChars: number): Promise<StreamRead>;
  /**
   * Mark events up to `id` as handed out (the cursor only moves forward); retention applies.
   * `handedChars` is the characters of the events handed since the reader's last advance (a
   * backend that keeps each event's size may count for itself).
   */
  advance(stream: StreamRef, holder: string, id: number, handedChars: number, retention: StreamRetention): Promise<void>;
  /** Resolves when the stream has an event after `after` or ended, or when `signal` aborts. */
  waitForEvents(stream: StreamRef, after: number, signal: AbortSignal): Promise<void>;
  /** Connections whose owner's heartbeat lapsed. */
  orphans(): Promise<string[]>;
  /** Take an orphaned connection for `nodeId`; undefined when it is not orphaned or another node won. */
  adopt(connectionId: string, nodeId: string): Promise<Adoption | undefined>;
  /** Let go of what this backend holds open (connections to a server). */
  close(): Promise<void>;
}

/** Options of a fleet node (`EndpointOptions.fleet`). */
export interface FleetOptions {
  /** The state the nodes share: `new MemoryFleetBackend()` in one process, or a Redis backend (`@acpkit/fleet-redis`). */
  readonly backend: FleetBackend;
  /** This node's id, unique in the fleet and stable for its lifetime. */
  readonly nodeId: string;
  /** How often this node beats its heartbeat and looks for connections to adopt. Default and most 1000 ms. */
  readonly heartbeatMs?: number;
  /** A node whose heartbeat is older than this is dead and its connections are adopted. Default 5000 ms. */
  readonly nodeTimeoutMs?: number;
  /**
   * What closing this node's endpoint does to the connections it hosts: true (default) hands them
   * over to the other nodes (what was written reaches the backend, the agents stop, the node leaves,
   * and a live node adopts them at once, as after a death but without waiting for the timeout);
   * false ends them, as a lone endpoint does.
   */
  readonly handOverOnClose?: boolean;
}
