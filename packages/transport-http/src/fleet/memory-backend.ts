// The in-process FleetBackend: several endpoint nodes in one process share it (tests, and a fleet
// that only needs to survive the loss of a node object, not of the process). Each operation runs
// to completion before the next, which is what makes every one of them atomic here.
import type {
  Adoption,
  AppendResult,
  ConnectionRecord,
  FleetBackend,
  InboxSubscription,
  PendingRequest,
  ReaderStart,
  StreamEvent,
  StreamRead,
  StreamRef,
  StreamRetention,
} from "./backend.js";

/** How long an ended stream stays readable, so a reader drains what it holds. */
const ENDED_STREAM_LINGER_MS = 60_000;

interface MemoryStream {
  /** Handed-out events still retained, then the unread ones, in id order. */
  events: StreamEvent[];
  nextId: number;
  /** The last event id handed to a reader. */
  cursor: number;
  unreadChars: number;
  /** Characters of the handed-out events still kept (those with ids up to the cursor). */
  keptChars: number;
  reader: { holder: string; expires: number } | undefined;
  ended: string | undefined;
  /** The (epoch, seq) of the last append, so a repeated one is a no-op. */
  applied: { epoch: number; seq: number };
  waiters: Set<() => void>;
}

interface MemoryConnection {
  record: ConnectionRecord;
  sessions: Map<string, string>;
  pending: Map<string, PendingRequest>;
  streams: Map<string, MemoryStream>;
}

/** A FleetBackend in this process's memory (docs/remote.md §7). */
export class MemoryFleetBackend implements FleetBackend {
  private readonly alive = new Map<string, number>();
  private readonly connections = new Map<string, MemoryConnection>();
  /** Ended connections whose streams a reader may still drain. */
  private readonly ended = new Map<string, MemoryConnection>();
  private readonly inboxes = new Map<string, (connectionId: string, message: string) => void>();
  private readonly lingering = new Set<ReturnType<typeof setTimeout>>();

  async heartbeat(nodeId: string, ttlMs: number): Promise<void> {
    this.alive.set(nodeId, Date.now() + ttlMs);
  }

  async leave(nodeId: string): Promise<void> {
    this.alive.delete(nodeId);
  }

  async isAlive(nodeId: string): Promise<boolean> {
    return this.aliveNow(nodeId);
  }

  /** Checked without an await, so that the operations that use it stay atomic. */
  private aliveNow(nodeId: string): boolean {
    return (this.alive.get(nodeId) ?? 0) > Date.now();
  }

  async openConnection(record: ConnectionRecord): Promise<void> {
    this.connections.set(record.connectionId, { record, sessions: new Map(), pending: new Map(), streams: new Map() });
  }

  async connection(connectionId: string): Promise<ConnectionRecord | undefined> {
    return this.connections.get(connectionId)?.record;
  }

  async endConnection(connectionId: string, reason: string): Promise<void> {
    const connection = this.connections.get(connectionId);
    if (connection === undefined) return;
    this.connections.delete(connectionId);
    for (const stream of connection.streams.values()) {
      stream.ended ??= reason;
      wake(stream);
    }
    // Readers still attached drain what their stream holds; then it is gone with the record.
    const timer = setTimeout(() => {
      this.lingering.delete(timer);
      // Gone for good: kept, the record of every connection ever ended would grow without bound.
      if (this.ended.get(connectionId) === connection) this.ended.delete(connectionId);
      connection.streams.clear();
    }, ENDED_STREAM_LINGER_MS);
    timer.unref?.();
    this.lingering.add(timer);
    this.ended.set(connectionId, connection);
  }

  async endStream(ref: StreamRef, reason: string): Promise<void> {
    const connection = this.connections.get(ref.connectionId);
    if (connection === undefined) return;
    const stream = this.stream(connection, ref);
    stream.ended ??= reason;
    wake(stream);
  }

  async setSession(connectionId: string, sessionId: string, params: string | undefined): Promise<void> {
    const sessions = this.connections.get(connectionId)?.sessions;
    if (params === undefined) sessions?.delete(sessionId);
    else sessions?.set(sessionId, params);
  }

  async addPending(connectionId: string, request: PendingRequest): Promise<void> {
    this.connections.get(connectionId)?.pending.set(request.key, request);
  }

  async forward(connectionId: string, message: string, pending: PendingRequest | undefined): Promise<"sent" | "orphaned" | "gone"> {
    const connection = this.connections.get(connectionId);
    if (connection === undefined) return "gone";
    const owner = connection.record.owner;
    const inbox = this.inboxes.get(owner);
    if (!this.aliveNow(owner) || inbox === undefined) return "orphaned";
    if (pending !== undefined) connection.pending.set(pending.key, pending);
    queueMicrotask(() => inbox(connectionId, message));
    return "sent";
  }

  receive(nodeId: string, onMessage: (connectionId: string, message: string) => void): InboxSubscription {
    this.inboxes.set(nodeId, onMessage);
    return {
      stop: async () => {
        if (this.inboxes.get(nodeId) === onMessage) this.inboxes.delete(nodeId);
      },
    };
  }

  async append(
    ref: StreamRef,
    owner: string,
    epoch: number,
    seq: number,
    texts: readonly string[],
    answered: readonly string[],
    retention: StreamRetention,
  ): Promise<AppendResult> {
    const connection = this.connections.get(ref.connectionId);
    if (connection === undefined || connection.record.owner !== owner || connection.record.epoch !== epoch) return { fenced: true, unreadChars: 0 };
    const stream = this.stream(connection, ref);
    const repeated = stream.applied.epoch === epoch && seq <= stream.applied.seq;
    if (!repeated) {
      stream.applied = { epoch, seq };
      for (const text of texts) {
        stream.events.push({ id: stream.nextId++, text });
        stream.unreadChars += text.length;
      }
      for (const key of answered) connection.pending.delete(key);
      trim(stream, retention);
      wake(stream);
    }
    return { fenced: false, unreadChars: stream.unreadChars };
  }

  async unreadChars(ref: StreamRef): Promise<number> {
    return this.existing(ref)?.unreadChars ?? 0;
  }

  async openReader(
    ref: StreamRef,
    holder: string,
    leaseMs: number,
    lastEventId: number | undefined,
    maxStreams = Number.POSITIVE_INFINITY,
  ): Promise<ReaderStart | "busy" | "gone" | "full"> {
    const connection = this.connections.get(ref.connectionId);
    if (connection === undefined) return "gone";
    if (!connection.streams.has(ref.sessionId ?? "") && connection.streams.size >= maxStreams) return "full";
    const stream = this.stream(connection, ref);
    const now = Date.now();
    if (stream.reader !== undefined && stream.reader.holder !== holder && stream.reader.expires > now) return "busy";
    stream.reader = { holder, expires: now + leaseMs };
    if (lastEventId === undefined || lastEventId >= stream.cursor || lastEventId < 0) return { after: stream.cursor };
    const oldest = stream.events[0]?.id ?? stream.nextId;
    const gap = lastEventId + 1 < oldest ? { from: lastEventId + 1, to: oldest - 1 } : undefined;
    return gap === undefined ? { after: lastEventId } : { after: lastEventId, gap };
  }

  async renewReader(ref: StreamRef, holder: string, leaseMs: number): Promise<boolean> {
    const stream = this.existing(ref);
    if (stream?.reader?.holder !== holder) return false;
    stream.reader.expires = Date.now() + leaseMs;
    return true;
  }

  async releaseReader(ref: StreamRef, holder: string): Promise<void> {
    const stream = this.existing(ref);
    if (stream?.reader?.holder === holder) stream.reader = undefined;
  }

  async read(ref: StreamRef, after: number, maxChars: number): Promise<StreamRead> {
    const stream = this.existing(ref);
    if (stream === undefined) return { events: [], ended: "the connection ended" };
    // Ids are consecutive, so the first event after `after` is found by arithmetic.
    const oldest = stream.events[0]?.id ?? stream.nextId;
    const events: StreamEvent[] = [];
    let chars = 0;
    for (let index = Math.max(0, after + 1 - oldest); index < stream.events.length; index++) {
      const event = stream.events[index]!;
      if (events.length > 0 && chars + event.text.length > maxChars) break;
      events.push(event);
      chars += event.text.length;
    }
    return events.length === 0 && stream.ended !== undefined ? { events, ended: stream.ended } : { events };
  }

  async advance(ref: StreamRef, holder: string, id: number, _handedChars: number, retention: StreamRetention): Promise<void> {
    const stream = this.existing(ref);
    if (stream === undefined || stream.reader?.holder !== holder || id <= stream.cursor) return;
    const oldest = stream.events[0]?.id ?? stream.nextId;
    const last = Math.min(id, stream.nextId - 1);
    let handed = 0;
    for (let index = Math.max(0, stream.cursor + 1 - oldest); index <= last - oldest; index++) handed += stream.events[index]!.text.length;
    stream.unreadChars -= handed;
    stream.keptChars += handed;
    stream.cursor = last;
    trim(stream, retention);
  }

  async waitForEvents(ref: StreamRef, after: number, signal: AbortSignal): Promise<void> {
    const stream = this.existing(ref);
    if (stream === undefined || stream.ended !== undefined || stream.nextId - 1 > after || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stream.waiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      stream.waiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  async orphans(): Promise<string[]> {
    const orphaned: string[] = [];
    for (const [id, connection] of this.connections) if (!this.aliveNow(connection.record.owner)) orphaned.push(id);
    return orphaned;
  }

  async adopt(connectionId: string, nodeId: string): Promise<Adoption | undefined> {
    const connection = this.connections.get(connectionId);
    if (connection === undefined || this.aliveNow(connection.record.owner)) return undefined;
    connection.record = { ...connection.record, owner: nodeId, epoch: connection.record.epoch + 1 };
    const pending = [...connection.pending.values()];
    connection.pending.clear();
    const sessions = [...connection.sessions].map(([sessionId, params]) => ({ sessionId, params }));
    return { record: connection.record, sessions, pending };
  }

  async close(): Promise<void> {
    for (const timer of this.lingering) clearTimeout(timer);
    this.lingering.clear();
    this.ended.clear();
  }

  private existing(ref: StreamRef): MemoryStream | undefined {
    const connection = this.connections.get(ref.connectionId) ?? this.ended.get(ref.connectionId);
    return connection?.streams.get(ref.sessionId ?? "");
  }

  private stream(connection: MemoryConnection, ref: StreamRef): MemoryStream {
    const key = ref.sessionId ?? "";
    let stream = connection.streams.get(key);
    if (stream === undefined) {
      stream = {
        events: [],
        nextId: 1,
        cursor: 0,
        unreadChars: 0,
        keptChars: 0,
        reader: undefined,
        ended: undefined,
        applied: { epoch: -1, seq: -1 },
        waiters: new Set(),
      };
      connection.streams.set(key, stream);
    }
    return stream;
  }
}

/** Drop handed-out events beyond the retention window; unread ones always stay. */
function trim(stream: MemoryStream, retention: StreamRetention): void {
  // Ids are consecutive, so how many handed-out events are kept is arithmetic, not a walk.
  const oldest = stream.events[0]?.id ?? stream.nextId;
  let retained = Math.max(0, stream.cursor - oldest + 1);
  let drop = 0;
  while (retained > retention.maxEvents || (stream.keptChars > retention.maxChars && retained > 1)) {
    stream.keptChars -= stream.events[drop]!.text.length;
    drop++;
    retained--;
  }
  if (drop > 0) stream.events.splice(0, drop);
}

function wake(stream: MemoryStream): void {
  for (const waiter of [...stream.waiters]) waiter();
}
