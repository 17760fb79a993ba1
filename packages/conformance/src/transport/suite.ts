// The transport conformance suite: what every Transport must do, as vitest cases. acpkit's own
// transports run it against a real peer (the memory pair, a WebSocket server on 127.0.0.1, a child
// process over stdio), and so can a third-party transport, with one call. The far end runs
// runEchoPeer (echo-peer.ts), a scripted raw JSON-RPC peer, so the cases exercise the transport
// itself, not the Connection on top (except where a case says so).
//
// Usage, in a vitest file:
//   defineTransportSuite("my transport", async (options) => ({ local, cleanup, … }), { Connection });
import { afterEach, describe, expect, it } from "vitest";
import { AcpError, type CloseInfo, type Transport } from "@acpkit/core";

/** How the suite wants the pair built. */
export interface PairOptions {
  /** Maximum incoming message size for both ends; undefined = the transport's default. */
  maxMessageSize?: number;
}

/** A transport connected to a running echo peer (runEchoPeer on the far end). */
export interface PeerPair {
  /** The suite's end. Not started yet: the suite calls start() (or a Connection does). */
  local: Transport;
  /** Stop the peer and free everything (process, server). Must not throw if already closed. */
  cleanup(): Promise<void>;
  /** End the peer abruptly (SIGKILL, dropped TCP socket); returns what `local.closed` must then match. */
  killPeer?(): Partial<CloseInfo>;
  /** Put raw text on the wire as one message (stdio: text + "\n" to stdin; WebSocket: one text frame). */
  sendRaw?(text: string): Promise<void>;
  /** Put one message on the wire in several byte pieces (stdio: separate writes; WebSocket: fragments). */
  sendPieces?(pieces: Uint8Array[]): Promise<void>;
}

/** The part of core's Connection the suite uses, when the caller passes it. */
export interface ConnectionLike {
  request(method: string, params: unknown): Promise<unknown>;
  notify(method: string, params: unknown): Promise<void>;
  readonly closed: Promise<CloseInfo>;
}
export type ConnectionConstructor = new (transport: Transport, options: { side: "client" }) => ConnectionLike;

export interface SuiteOptions {
  /** core's Connection: used for "peer closes mid-request" (pending requests must reject). */
  Connection?: ConnectionConstructor;
}

type Json = any;

/** A minimal JSON-RPC client over a bare transport: parses text, matches responses by id. */
export class RawClient {
  readonly notifications: { method: string; params: Json }[] = [];
  readonly transportErrors: AcpError[] = [];
  /** Responses with `id: null` (parse errors and the like). */
  readonly orphanErrors: Json[] = [];
  /** Responses whose id we did not allocate (the suite wrote them with sendRaw/sendPieces). */
  readonly unmatched: Json[] = [];
  closeInfo: CloseInfo | undefined;
  private readonly pending = new Map<number, { resolve(value: Json): void; reject(error: unknown): void }>();
  private nextId = 1;
  private waiters: (() => void)[] = [];

  constructor(readonly transport: Transport) {
    transport.start({
      onMessage: (message) => this.receive(typeof message === "string" ? JSON.parse(message) : message),
      onTransportError: (error) => {
        this.transportErrors.push(error);
        this.wake();
      },
    });
    void transport.closed.then((info) => {
      this.closeInfo = info;
      for (const entry of this.pending.values()) entry.reject(new AcpError("ConnectionClosed", `closed: ${info.reason}`));
      this.pending.clear();
      this.wake();
    });
  }

  request(method: string, params: Json): Promise<Json> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.transport.send({ jsonrpc: "2.0", id, method, params }).catch(reject);
    });
  }

  notify(method: string, params: Json): Promise<void> {
    return this.transport.send({ jsonrpc: "2.0", method, params });
  }

  /** Resolve once `condition()` holds (checked after every arrival); reject if the transport closes first. */
  async waitFor(condition: () => boolean, what: string): Promise<void> {
    while (!condition()) {
      if (this.closeInfo !== undefined) throw new Error(`transport closed (${this.closeInfo.reason}) while waiting for ${what}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private receive(message: Json): void {
    if (Array.isArray(message)) {
      for (const entry of message) this.receive(entry);
      return;
    }
    if (typeof message.method === "string") {
      this.notifications.push({ method: message.method, params: message.params });
    } else if (message.id === null) {
      this.orphanErrors.push(message);
    } else {
      const entry = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (entry === undefined) this.unmatched.push(message);
      else if (message.error !== undefined) entry.reject(Object.assign(new Error(message.error.message), message.error));
      else entry.resolve(message.result);
    }
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** Reject if `promise` has not settled within `ms` (the "within 1 s" promises). */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const KiB = 1024;
const MiB = 1024 * KiB;

export function defineTransportSuite(name: string, makePair: (options: PairOptions) => Promise<PeerPair>, suiteOptions: SuiteOptions = {}): void {
  describe(`transport suite: ${name}`, () => {
    let pairs: PeerPair[] = [];
    const open = async (options: PairOptions = {}): Promise<PeerPair> => {
      const pair = await makePair(options);
      pairs.push(pair);
      return pair;
    };
    afterEach(async () => {
      const toClean = pairs;
      pairs = [];
      await Promise.all(toClean.map((pair) => pair.cleanup()));
    });

    it("round trip: a request with non-ASCII text comes back unchanged, a batch array is accepted", async () => {
      const client = new RawClient((await open()).local);
      const params = { text: "héllo wörld — 世界 🌍", nested: { list: [1, 2.5, null, true], empty: {} } };
      expect(await client.request("echo", params)).toEqual(params);

      await client.transport.send([
        { jsonrpc: "2.0", id: 100, method: "echo", params: { n: 1 } },
        { jsonrpc: "2.0", method: "note", params: { seq: 0 } },
      ]);
      expect(await client.request("notes", {})).toEqual({ received: 1, inOrder: true });
    });

    it("ordering under load: 10,000 notifications each way arrive in order (O2)", async () => {
      const client = new RawClient((await open()).local);
      const count = 10_000;
      const sends: Promise<void>[] = [];
      for (let seq = 0; seq < count; seq++) sends.push(client.notify("note", { seq, text: `update ${seq}` }));
      await Promise.all(sends);
      expect(await client.request("notes", {})).toEqual({ received: count, inOrder: true });

      expect(await client.request("flood", { count })).toEqual({ sent: count });
      const ticks = client.notifications.filter((n) => n.method === "tick");
      // Every tick arrived before the response that followed them on the wire, in order.
      expect(ticks).toHaveLength(count);
      const outOfOrder = ticks.findIndex((tick, index) => tick.params.seq !== index);
      expect(outOfOrder).toBe(-1);
    });

    it("large message: 10 MiB crosses both ways intact", async () => {
      const client = new RawClient((await open()).local);
      const unit = "0123456789abcdef€😀"; // includes 3- and 4-byte UTF-8 characters
      const text = unit.repeat(Math.ceil((10 * MiB) / unit.length)).slice(0, 10 * MiB);
      const result = await client.request("echo", { text });
      expect(result.text.length).toBe(text.length);
      expect(result.text === text).toBe(true);
    });

    it("oversize message: discarded with a MessageTooLarge error event; the connection goes on", async () => {
      const limit = 64 * KiB;
      const client = new RawClient((await open({ maxMessageSize: limit })).local);

      // Outgoing: the peer discards it and tells us through a transportError notification.
      await client.notify("note", { seq: 0, padding: "x".repeat(limit + 1) });
      await client.waitFor(() => client.notifications.some((n) => n.method === "transportError"), "the peer's transportError");
      const reported = client.notifications.find((n) => n.method === "transportError")!.params;
      expect(reported.code).toBe("MessageTooLarge");
      expect(reported.message).toMatch(/limit/);
      expect(await client.request("echo", { after: "oversize" })).toEqual({ after: "oversize" });
      expect(await client.request("notes", {})).toEqual({ received: 0, inOrder: true });

      // Incoming: our end discards the peer's oversized notification, reports it, and carries on.
      expect(await client.request("big", { size: limit + 10 })).toEqual({});
      expect(client.transportErrors.map((error) => error.code)).toEqual(["MessageTooLarge"]);
      expect(client.notifications.some((n) => n.method === "big")).toBe(false);
      // Just under the limit still passes.
      expect(await client.request("big", { size: limit - 1000 })).toEqual({});
      expect(client.notifications.filter((n) => n.method === "big")).toHaveLength(1);
    });

    it("malformed line: the peer gets the raw text, answers -32700, and the connection goes on", async (context) => {
      const pair = await open();
      if (pair.sendRaw === undefined) return context.skip("this transport has no wire text to corrupt");
      const client = new RawClient(pair.local);
      await pair.sendRaw('{"jsonrpc":"2.0","id":1,"method":"echo",');
      await client.waitFor(() => client.orphanErrors.length > 0, "the -32700 answer");
      expect(client.orphanErrors[0].error.code).toBe(-32700);
      expect(await client.request("echo", { still: "alive" })).toEqual({ still: "alive" });
    });

    it("split UTF-8: a message cut inside multi-byte characters arrives intact (S2)", async (context) => {
      const pair = await open();
      if (pair.sendPieces === undefined) return context.skip("this transport cannot deliver a message in pieces");
      const client = new RawClient(pair.local);
      const text = "prix 5 € — 😀 — 世界";
      const bytes = new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: "split", method: "echo", params: { text } }));
      const euro = indexOfBytes(bytes, new TextEncoder().encode("€"));
      const emoji = indexOfBytes(bytes, new TextEncoder().encode("😀"));
      // Cut after the first byte of "€" and after two bytes of "😀".
      const pieces = [bytes.subarray(0, euro + 1), bytes.subarray(euro + 1, emoji + 2), bytes.subarray(emoji + 2)];
      // Make sure the peer is up and reading, so the pieces reach it as separate reads.
      expect(await client.request("echo", { ready: true })).toEqual({ ready: true });
      await pair.sendPieces(pieces);
      // id "split" was not allocated by RawClient, so its answer lands among the unmatched responses.
      await client.waitFor(() => client.unmatched.some((message) => message.id === "split"), "the answer to the split message");
      const reply = client.unmatched.find((message) => message.id === "split");
      expect(reply?.result).toEqual({ text });
    });

    // The bound only says "it does not hang": on a loaded 2-core CI machine a child process takes
    // more than a second to exit now and then, so the limit is generous (timing is the benchmarks' job).
    it("peer closes mid-request: the pending request rejects with ConnectionClosed (within 5 s)", async () => {
      const pair = await open();
      if (suiteOptions.Connection !== undefined) {
        const connection = new suiteOptions.Connection(pair.local, { side: "client" });
        const pending = connection.request("hang", {});
        pending.catch(() => {}); // asserted below
        await connection.notify("exit", {});
        await expect(within(5000, "rejecting the pending request", pending)).rejects.toMatchObject({ code: "ConnectionClosed" });
        await within(5000, "Connection.closed", connection.closed);
      } else {
        // Without core's Connection: the transport itself must report the close promptly.
        const client = new RawClient(pair.local);
        const pending = client.request("hang", {});
        pending.catch(() => {});
        await client.notify("exit", {});
        await within(5000, "transport.closed", pair.local.closed);
        await expect(pending).rejects.toMatchObject({ code: "ConnectionClosed" });
      }
      await expect(pair.local.send({ jsonrpc: "2.0", method: "note", params: { seq: 0 } })).rejects.toMatchObject({
        code: "ConnectionClosed",
      });
    });

    it("peer killed abruptly: closed resolves with why, pending requests reject with ConnectionClosed", async (context) => {
      const pair = await open();
      if (pair.killPeer === undefined) return context.skip("this transport has no separate peer to kill");
      const client = new RawClient(pair.local);
      expect(await client.request("echo", { before: "kill" })).toEqual({ before: "kill" });
      const pending = client.request("hang", {});
      pending.catch(() => {});
      const expected = pair.killPeer();
      const info = await within(1000, "transport.closed after the kill", pair.local.closed);
      expect(info).toMatchObject(expected);
      expect(typeof info.reason).toBe("string");
      await expect(pending).rejects.toMatchObject({ code: "ConnectionClosed" });
    });

    it("local close: closed resolves, later sends reject with ConnectionClosed, close is idempotent", async () => {
      const pair = await open();
      const client = new RawClient(pair.local);
      expect(await client.request("echo", { n: 1 })).toEqual({ n: 1 });
      await pair.local.close("test is done");
      const info = await pair.local.closed;
      expect(info.reason.length).toBeGreaterThan(0);
      await pair.local.close();
      await expect(pair.local.send({ jsonrpc: "2.0", method: "note", params: {} })).rejects.toBeInstanceOf(AcpError);
      await expect(pair.local.send({ jsonrpc: "2.0", method: "note", params: {} })).rejects.toMatchObject({ code: "ConnectionClosed" });
    });

    it("a receiver whose onMessage throws: reported as ReceiverFailed, and later messages still arrive", async () => {
      const pair = await open();
      const received: unknown[] = [];
      const errors: AcpError[] = [];
      let throws = true;
      pair.local.start({
        onMessage(message) {
          if (throws) {
            throws = false;
            throw new Error("receiver bug");
          }
          received.push(typeof message === "string" ? JSON.parse(message) : message);
        },
        onTransportError: (error) => errors.push(error),
      });
      await pair.local.send({ jsonrpc: "2.0", id: 1, method: "echo", params: { n: 1 } });
      await pair.local.send({ jsonrpc: "2.0", id: 2, method: "echo", params: { n: 2 } });
      await within(
        5000,
        "the second answer",
        new Promise<void>((resolve) => {
          const poll = setInterval(() => {
            if (received.length > 0) {
              clearInterval(poll);
              resolve();
            }
          }, 5);
        }),
      );
      expect(received).toEqual([{ jsonrpc: "2.0", id: 2, result: { n: 2 } }]);
      expect(errors.map((error) => error.code)).toEqual(["ReceiverFailed"]);
      expect(errors[0]!.message).toContain("receiver bug");
    });

    it("a value JSON cannot carry is refused at send() with InvalidMessage", async () => {
      const pair = await open();
      new RawClient(pair.local);
      await expect(pair.local.send({ jsonrpc: "2.0", method: "note", params: { big: 10n } })).rejects.toMatchObject({ code: "InvalidMessage" });
    });
  });
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  throw new Error("needle not found");
}
