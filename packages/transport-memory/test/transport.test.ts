import { Connection } from "@acpkit/core";
import { describe, expect, it } from "vitest";
import { runEchoPeer } from "@acpkit/test-support/fixtures/echo-peer";
import { defineTransportSuite, RawClient, type ConnectionConstructor } from "@acpkit/test-support/transport-suite";
import { createMemoryPair } from "../src/index.js";

defineTransportSuite(
  "memory (JSON mode)",
  async (options) => {
    const [local, peer] = createMemoryPair({ maxMessageSize: options.maxMessageSize });
    runEchoPeer(peer);
    return {
      local,
      async cleanup() {
        await local.close();
      },
    };
  },
  { Connection: Connection as unknown as ConnectionConstructor },
);

describe("createMemoryPair", () => {
  it("JSON mode: a message crosses as text, changed the way a real wire changes it", async () => {
    const [a, b] = createMemoryPair();
    const received: (string | object)[] = [];
    b.start({ onMessage: (message) => received.push(message), onTransportError: () => {} });
    const when = new Date("2026-01-02T03:04:05.000Z");
    await a.send({ jsonrpc: "2.0", method: "m", params: { when, gone: undefined, kept: null } });
    await Promise.resolve();
    expect(received).toEqual(['{"jsonrpc":"2.0","method":"m","params":{"when":"2026-01-02T03:04:05.000Z","kept":null}}']);
  });

  it("JSON mode: a cycle or a BigInt fails at send() as it would on a real wire", async () => {
    const [a] = createMemoryPair();
    const cyclic: Record<string, unknown> = { jsonrpc: "2.0", method: "m" };
    cyclic.params = cyclic;
    await expect(a.send(cyclic as never)).rejects.toMatchObject({ code: "InvalidMessage", message: expect.stringMatching(/circular/i) });
    await expect(a.send({ jsonrpc: "2.0", method: "m", params: { n: 1n } })).rejects.toMatchObject({ code: "InvalidMessage" });
  });

  it("object mode: the object itself crosses, uncopied", async () => {
    const [a, b] = createMemoryPair({ mode: "object" });
    const received: (string | object)[] = [];
    b.start({ onMessage: (message) => received.push(message), onTransportError: () => {} });
    const message = { jsonrpc: "2.0" as const, method: "m", params: { n: 1n } };
    await a.send(message);
    await Promise.resolve();
    expect(received).toHaveLength(1);
    expect(received[0]).toBe(message);
  });

  it("delivers asynchronously, in order, and holds messages until start()", async () => {
    const [a, b] = createMemoryPair();
    const received: string[] = [];
    await a.send({ jsonrpc: "2.0", method: "first" });
    await a.send({ jsonrpc: "2.0", method: "second" });
    b.start({ onMessage: (message) => received.push(JSON.parse(message as string).method), onTransportError: () => {} });
    expect(received).toEqual([]); // not re-entrant: delivery waits for a microtask
    await a.send({ jsonrpc: "2.0", method: "third" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(received).toEqual(["first", "second", "third"]);
  });

  it("close on one end closes both, after delivering what was sent before it", async () => {
    const [a, b] = createMemoryPair();
    const client = new RawClient(b);
    await a.send({ jsonrpc: "2.0", method: "last words" });
    await a.close("done here");
    const info = await b.closed;
    expect(info.reason).toBe("peer closed: done here");
    expect(client.notifications.map((n) => n.method)).toEqual(["last words"]);
    expect((await a.closed).reason).toBe("done here");
    await expect(b.send({ jsonrpc: "2.0", method: "late" })).rejects.toMatchObject({ code: "ConnectionClosed" });
  });

  it("counts the size limit in UTF-8 bytes, not characters", async () => {
    const [a, b] = createMemoryPair({ maxMessageSize: 100 });
    const client = new RawClient(b);
    const envelope = JSON.stringify({ jsonrpc: "2.0", method: "m", params: { t: "" } }).length;
    // 30 × "€" is 30 characters but 90 bytes: with the envelope it is over 100 bytes.
    await a.send({ jsonrpc: "2.0", method: "m", params: { t: "€".repeat(30) } });
    // The same number of ASCII characters fits.
    await a.send({ jsonrpc: "2.0", method: "m", params: { t: "e".repeat(100 - envelope) } });
    await client.waitFor(() => client.notifications.length === 1, "the fitting message");
    expect(client.transportErrors.map((error) => error.code)).toEqual(["MessageTooLarge"]);
  });

  it("rejects bad options with a clear error", () => {
    expect(() => createMemoryPair({ maxMessageSize: 0 })).toThrow(/maxMessageSize must be a positive integer/);
    expect(() => createMemoryPair({ mode: "xml" as never })).toThrow(/mode must be "json" or "object"/);
  });
});

describe("an oversized request in JSON mode", () => {
  it("is answered -32600 under its own id by the receiving Connection, and the pair goes on", async () => {
    const [clientSide, agentSide] = createMemoryPair({ maxMessageSize: 1000 });
    const agent = new Connection(agentSide, { side: "agent", version: 2 });
    agent.onRequest("session/new", () => ({ sessionId: "s" }));
    // The validators load first; the wait below is for the answers, not for them.
    await agent.ready;
    const replies: any[] = [];
    clientSide.start({ onMessage: (text) => replies.push(JSON.parse(text as string)), onTransportError() {} });
    await clientSide.send({ jsonrpc: "2.0", id: "big-1", method: "session/new", params: { cwd: "x".repeat(5000), mcpServers: [] } } as never);
    await clientSide.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/p", mcpServers: [] } } as never);
    for (let i = 0; i < 10_000 && replies.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    expect(replies).toEqual([
      { jsonrpc: "2.0", id: "big-1", error: { code: -32600, message: expect.stringContaining("larger than the receiver's size limit") } },
      { jsonrpc: "2.0", id: 2, result: { sessionId: "s" } },
    ]);
  });
});

describe("memory flow control", () => {
  it("holds arrived messages while paused and delivers them in order after resume", async () => {
    const [a, b] = createMemoryPair();
    const got: string[] = [];
    b.start({ onMessage: (text) => got.push(String(text)), onTransportError() {} });
    b.pause();
    await a.send({ jsonrpc: "2.0", method: "x", params: { n: 1 } } as never);
    await a.send({ jsonrpc: "2.0", method: "x", params: { n: 2 } } as never);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(got).toEqual([]);
    b.resume();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(got.map((text) => JSON.parse(text).params.n)).toEqual([1, 2]);
  });
});
