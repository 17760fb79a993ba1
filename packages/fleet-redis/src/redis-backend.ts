// RedisFleetBackend: the FleetBackend of @acpkit/transport-http on one Redis server, so several
// `acpkit serve` processes (or any createAcpEndpoint nodes) form one fleet. Client: ioredis (well
// kept, reconnects by itself, runs Lua scripts by SHA). Each operation is one script or one
// MULTI, so it is atomic against every other node.
//
// Outages: commands fail instead of waiting forever (the callers retry: the owner's writes with
// the same (epoch, seq), which the scripts ignore when applied; readers after a pause), and the
// connection comes back on its own, sending again what was in flight. A forwarded message carries a
// fresh id that the script records, so one sent twice is delivered once. For the fleet to survive a Redis restart,
// run Redis with persistence (appendonly yes): without it, a restart forgets every connection.
import type {
  Adoption,
  AppendResult,
  ConnectionRecord,
  FleetBackend,
  InboxSubscription,
  PendingRequest,
  ReaderStart,
  SessionRecord,
  StreamRead,
  StreamRef,
  StreamRetention,
} from "@acpkit/transport-http";
import { Redis, type RedisOptions } from "ioredis";
import { FleetKeys } from "./keys.js";
import { ADOPT, ADVANCE, APPEND, END_CONNECTION, FORWARD, OPEN_READER, ORPHANS, READ, RELEASE_READER, RENEW_READER } from "./scripts.js";
import { Wakeups } from "./wakeups.js";
import { readInbox } from "./inbox.js";

/** Options of `RedisFleetBackend`. */
export interface RedisFleetOptions {
  /** The Redis server: `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  readonly url: string;
  /** Prefix of every key and channel, so fleets can share a server. Default "acpkit:". */
  readonly prefix?: string;
  /** How long an ended connection's streams stay readable, so readers drain them. Default 60 000 ms. */
  readonly endedLingerMs?: number;
  /** Extra ioredis options (TLS, timeouts). */
  readonly redis?: RedisOptions;
}

const SCRIPTS = {
  acpForward: { keys: 2, lua: FORWARD },
  acpAppend: { keys: 6, lua: APPEND },
  acpOpenReader: { keys: 4, lua: OPEN_READER },
  acpRenewReader: { keys: 1, lua: RENEW_READER },
  acpReleaseReader: { keys: 1, lua: RELEASE_READER },
  acpAdvance: { keys: 4, lua: ADVANCE },
  acpRead: { keys: 2, lua: READ },
  acpOrphans: { keys: 1, lua: ORPHANS },
  acpAdopt: { keys: 4, lua: ADOPT },
  acpEndConnection: { keys: 5, lua: END_CONNECTION },
} as const;
type ScriptName = keyof typeof SCRIPTS;

/** One read takes at most this many entries (each one append of up to 512 messages). */
const READ_ENTRIES = 8;

/** A FleetBackend on one Redis server (docs/remote.md §7). */
export class RedisFleetBackend implements FleetBackend {
  private readonly redis: Redis;
  private readonly keys: FleetKeys;
  private readonly wakeups: Wakeups;
  private readonly lingerMs: number;
  private readonly blocking = new Set<Redis>();

  constructor(private readonly options: RedisFleetOptions) {
    if (typeof options?.url !== "string" || !/^rediss?:\/\//.test(options.url))
      throw new TypeError(`options.url must be a redis:// or rediss:// URL, got ${JSON.stringify(options?.url)}`);
    this.keys = new FleetKeys(options.prefix ?? "acpkit:");
    this.lingerMs = options.endedLingerMs ?? 60_000;
    this.redis = this.connect();
    for (const [name, script] of Object.entries(SCRIPTS)) this.redis.defineCommand(name, { numberOfKeys: script.keys, lua: script.lua });
    this.wakeups = new Wakeups(this.connect());
  }

  /**
   * Resolves once the server answers; rejects, naming the last connection error, when it did not
   * within `timeoutMs` (default 10 000). The backend keeps trying after that; close it to stop.
   */
  async ready(timeoutMs = 10_000): Promise<void> {
    if (this.redis.status === "ready") return;
    let lastError = "no answer";
    const onError = (error: Error) => {
      lastError = error.message || (error as NodeJS.ErrnoException).code || String(error);
    };
    this.redis.on("error", onError);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        this.redis.once("ready", resolve);
        timer = setTimeout(() => reject(new Error(`cannot reach Redis at ${this.options.url} within ${timeoutMs} ms (${lastError})`)), timeoutMs);
      });
    } finally {
      clearTimeout(timer);
      this.redis.off("error", onError);
    }
  }

  async heartbeat(nodeId: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.keys.node(nodeId), "1", "PX", Math.max(1, Math.round(ttlMs)));
  }

  async leave(nodeId: string): Promise<void> {
    await this.redis.del(this.keys.node(nodeId));
  }

  async isAlive(nodeId: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.node(nodeId))) === 1;
  }

  async openConnection(record: ConnectionRecord): Promise<void> {
    await this.redis
      .multi()
      .hset(this.keys.conn(record.connectionId), { owner: record.owner, epoch: String(record.epoch), init: record.initialize })
      .sadd(this.keys.conns, record.connectionId)
      .exec();
  }

  async connection(connectionId: string): Promise<ConnectionRecord | undefined> {
    const hash = await this.redis.hgetall(this.keys.conn(connectionId));
    if (hash.owner === undefined) return undefined;
    return { connectionId, owner: hash.owner, epoch: Number(hash.epoch), initialize: hash.init ?? "{}" };
  }

  async endConnection(connectionId: string, reason: string): Promise<void> {
    const k = this.keys;
    await this.script(
      "acpEndConnection",
      [k.conn(connectionId), k.sessions(connectionId), k.pending(connectionId), k.streams(connectionId), k.conns],
      [k.prefix, connectionId, reason, String(this.lingerMs)],
    );
  }

  async endStream(ref: StreamRef, reason: string): Promise<void> {
    await this.redis.multi().hsetnx(this.keys.meta(ref), "ended", reason).publish(this.keys.channel(ref), "end").exec();
  }

  async setSession(connectionId: string, sessionId: string, params: string | undefined): Promise<void> {
    if (params === undefined) await this.redis.hdel(this.keys.sessions(connectionId), sessionId);
    else await this.redis.hset(this.keys.sessions(connectionId), sessionId, params);
  }

  async addPending(connectionId: string, request: PendingRequest): Promise<void> {
    await this.redis.hset(this.keys.pending(connectionId), request.key, JSON.stringify(request));
  }

  async forward(connectionId: string, message: string, pending: PendingRequest | undefined): Promise<"sent" | "orphaned" | "gone"> {
    const k = this.keys;
    const result = await this.script(
      "acpForward",
      [k.conn(connectionId), k.pending(connectionId)],
      [k.prefix, connectionId, message, crypto.randomUUID(), pending?.key ?? "", pending === undefined ? "" : JSON.stringify(pending)],
    );
    return result as "sent" | "orphaned" | "gone";
  }

  receive(nodeId: string, onMessage: (connectionId: string, message: string) => void): InboxSubscription {
    const connection = this.connect();
    this.blocking.add(connection);
    const stop = readInbox(connection, this.keys.inbox(nodeId), onMessage);
    return {
      stop: async () => {
        await stop();
        this.blocking.delete(connection);
        connection.disconnect();
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
    _retention: StreamRetention,
  ): Promise<AppendResult> {
    const k = this.keys;
    let chars = 0;
    for (const text of texts) chars += text.length;
    const [fenced, unread] = (await this.script(
      "acpAppend",
      [k.conn(ref.connectionId), k.stream(ref), k.meta(ref), k.pending(ref.connectionId), k.streams(ref.connectionId), k.sizes(ref)],
      [owner, String(epoch), String(seq), k.name(ref), k.channel(ref), String(texts.length), String(chars), texts.join("\n"), ...answered],
    )) as [number, number];
    return { fenced: fenced === 1, unreadChars: unread };
  }

  async unreadChars(ref: StreamRef): Promise<number> {
    return Number((await this.redis.hget(this.keys.meta(ref), "unread")) ?? 0);
  }

  async openReader(
    ref: StreamRef,
    holder: string,
    leaseMs: number,
    lastEventId: number | undefined,
    maxStreams = Number.MAX_SAFE_INTEGER,
  ): Promise<ReaderStart | "busy" | "gone" | "full"> {
    const k = this.keys;
    const reply = (await this.script(
      "acpOpenReader",
      [k.conn(ref.connectionId), k.meta(ref), k.reader(ref), k.streams(ref.connectionId)],
      [holder, String(Math.round(leaseMs)), lastEventId === undefined ? "" : String(lastEventId), k.name(ref), String(maxStreams)],
    )) as [string, number?, number?, number?];
    if (reply[0] !== "ok") return reply[0] as "busy" | "gone" | "full";
    const after = Number(reply[1]);
    return reply[2] === undefined ? { after } : { after, gap: { from: Number(reply[2]), to: Number(reply[3]) } };
  }

  async renewReader(ref: StreamRef, holder: string, leaseMs: number): Promise<boolean> {
    return (await this.script("acpRenewReader", [this.keys.reader(ref)], [holder, String(Math.round(leaseMs))])) === 1;
  }

  async releaseReader(ref: StreamRef, holder: string): Promise<void> {
    await this.script("acpReleaseReader", [this.keys.reader(ref)], [holder]);
  }

  async read(ref: StreamRef, after: number, maxChars: number): Promise<StreamRead> {
    const [entries, ended] = (await this.script("acpRead", [this.keys.stream(ref), this.keys.meta(ref)], [String(after), String(READ_ENTRIES)])) as [
      Array<[string, string[]]>,
      string | null,
    ];
    const events: { id: number; text: string }[] = [];
    let chars = 0;
    read: for (const [entryId, fields] of entries) {
      // Fields: n, count, c, characters, t, the messages joined by "\n" (scripts.ts).
      const first = Number.parseInt(entryId, 10);
      const texts = (fields[5] ?? "").split("\n");
      for (let index = Math.max(0, after + 1 - first); index < texts.length; index++) {
        const text = texts[index]!;
        if (events.length > 0 && chars + text.length > maxChars) break read;
        events.push({ id: first + index, text });
        chars += text.length;
      }
    }
    return events.length === 0 && typeof ended === "string" ? { events, ended } : { events };
  }

  async advance(ref: StreamRef, holder: string, id: number, handedChars: number, retention: StreamRetention): Promise<void> {
    const k = this.keys;
    const args = [holder, String(id), String(handedChars), String(retention.maxEvents), String(retention.maxChars)];
    await this.script("acpAdvance", [k.stream(ref), k.meta(ref), k.reader(ref), k.sizes(ref)], args);
  }

  async waitForEvents(ref: StreamRef, after: number, signal: AbortSignal): Promise<void> {
    await this.wakeups.wait(this.keys.channel(ref), signal, async () => {
      const [next, ended] = await this.redis.hmget(this.keys.meta(ref), "next", "ended");
      return Number(next ?? 0) > after || ended !== null;
    });
  }

  async orphans(): Promise<string[]> {
    return (await this.script("acpOrphans", [this.keys.conns], [this.keys.prefix])) as string[];
  }

  async adopt(connectionId: string, nodeId: string): Promise<Adoption | undefined> {
    const k = this.keys;
    const keys = [k.conn(connectionId), k.pending(connectionId), k.sessions(connectionId), k.adopted(connectionId)];
    const reply = (await this.script("acpAdopt", keys, [k.prefix, nodeId])) as string[] | null;
    if (reply === null) return undefined;
    const [owner, epoch, initialize] = reply as [string, string, string];
    const rest = reply.slice(3);
    const split = rest.indexOf("");
    const pending = rest.slice(0, split).map((json) => JSON.parse(json) as PendingRequest);
    const sessions: SessionRecord[] = [];
    const flat = rest.slice(split + 1);
    for (let index = 0; index + 1 < flat.length; index += 2) sessions.push({ sessionId: flat[index]!, params: flat[index + 1]! });
    return { record: { connectionId, owner, epoch: Number(epoch), initialize }, sessions, pending };
  }

  async close(): Promise<void> {
    for (const connection of this.blocking) connection.disconnect();
    this.blocking.clear();
    await this.wakeups.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /**
   * A new connection to the server. Commands queued while it is down fail after two reconnect
   * attempts instead of queueing without bound; a command whose reply was lost to a disconnect is
   * sent again after the reconnect (every operation here may run twice with the same effect: that
   * is what the sequence numbers, the forward ids and the adoption memo are for). Turning that
   * resend off would leave such a command's promise unsettled for good.
   */
  private connect(): Redis {
    const connection = new Redis(this.options.url, {
      maxRetriesPerRequest: 2,
      retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1000),
      ...this.options.redis,
    });
    // Errors are the callers' to handle (each operation rejects); without a listener ioredis would log them.
    connection.on("error", () => {});
    return connection;
  }

  private script(name: ScriptName, keys: string[], args: string[]): Promise<unknown> {
    return (this.redis as unknown as Record<ScriptName, (...values: string[]) => Promise<unknown>>)[name](...keys, ...args);
  }
}
