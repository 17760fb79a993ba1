// Answers while the transport's output is congested (reply-outbox.ts): they are held as objects
// and handed over in order once it drained, messages that must follow an answer wait for it, and
// a connection whose peer's input ended closes only once its answers were accepted.
import { describe, expect, it } from "vitest";
import { deferred, scripted, settle } from "./helpers/transports.js";

function agent(version: 1 | 2 = 1) {
  const s = scripted({ side: "agent", version });
  s.connection.onRequest("session/new", (params: { cwd: string }) => ({ sessionId: params.cwd }));
  return s;
}

const newSession = (id: number) => ({ jsonrpc: "2.0", id, method: "session/new", params: { cwd: `/s${id}` } });

describe("answers while the output is congested", () => {
  it("holds answers while congested and hands them over in order, one drain at a time", async () => {
    const { transport } = agent();
    transport.congestAfter(1); // the first answer fills the channel
    for (let id = 1; id <= 4; id++) transport.deliver(newSession(id));
    await settle();
    expect(transport.sent.map((m) => m.id)).toEqual([1]);
    transport.congestAfter(3); // the next drain lets two through before it is full again
    transport.setCongested(false);
    expect(transport.sent.map((m) => m.id)).toEqual([1, 2, 3]);
    transport.setCongested(false);
    expect(transport.sent.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(transport.sent[3]).toEqual({ jsonrpc: "2.0", id: 4, result: { sessionId: "/s4" } });
  });

  // Held answers are objects the peer makes us keep by asking without reading: past the first,
  // no more input is read until they went out (the transport alone pauses only for a backlog).
  it("stops reading input while answers are held, and reads again once they went out", async () => {
    const { transport } = agent();
    transport.setCongested(true);
    transport.deliver(newSession(1));
    await settle();
    expect(transport.flow).toEqual(["pause"]);
    transport.deliver(newSession(2)); // a message or two may still arrive after pause()
    await settle();
    expect(transport.flow).toEqual(["pause"]);
    transport.setCongested(false);
    expect(transport.sent.map((m) => m.id)).toEqual([1, 2]);
    expect(transport.flow).toEqual(["pause", "resume"]);
  });

  it("keeps notifications flowing (a caller awaits those) while answers wait", async () => {
    const { transport, connection } = agent();
    transport.setCongested(true);
    transport.deliver(newSession(1));
    await settle();
    await connection.notify("session/update", { sessionId: "x", update: { sessionUpdate: "plan", entries: [] } });
    expect(transport.sent.map((m) => m.method ?? m.id)).toEqual(["session/update"]);
    transport.setCongested(false);
    expect(transport.sent.map((m) => m.method ?? m.id)).toEqual(["session/update", 1]);
  });

  it("runs afterResponse listeners only once their held answer was handed over", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", (_params, ctx) => {
      ctx.afterResponse(() => void connection.notify("session/update", { sessionId: "s1", update: { sessionUpdate: "plan", entries: [] } }));
      return { sessionId: "s1" };
    });
    transport.setCongested(true);
    transport.deliver(newSession(1));
    await settle();
    expect(transport.sent).toEqual([]);
    transport.setCongested(false);
    expect(transport.sent.map((m) => m.method ?? m.id)).toEqual([1, "session/update"]);
  });

  // Before: a batch entry's listeners ran when the entry was answered, so a new session's first
  // update went out ahead of the array that told the client the session's id.
  it("runs a batch entry's afterResponse listeners after the batch's answer array", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 2 });
    const slow = deferred();
    connection.onRequest("session/new", async (params: { cwd: string }, ctx) => {
      ctx.afterResponse(() => void connection.notify("session/update", { sessionId: params.cwd, update: { sessionUpdate: "plan", entries: [] } }));
      if (params.cwd === "/slow") await slow.promise;
      return { sessionId: params.cwd };
    });
    transport.deliver([
      { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/fast" } },
      { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/slow" } },
    ]);
    await settle();
    expect(transport.sent).toEqual([]);
    slow.resolve();
    await settle();
    expect(Array.isArray(transport.sent[0])).toBe(true);
    expect(transport.sent.slice(1).map((m) => m.params.sessionId)).toEqual(["/fast", "/slow"]);
  });

  it("drops held answers when the connection closes", async () => {
    const { transport, connection } = agent();
    transport.setCongested(true);
    transport.deliver(newSession(1));
    await settle();
    transport.end({ reason: "gone" });
    await connection.closed;
    transport.setCongested(false);
    expect(transport.sent).toEqual([]);
  });
});

describe("the peer's input ends while answers wait", () => {
  it("closes only once held answers were handed over", async () => {
    const { transport, connection } = agent();
    transport.setCongested(true);
    transport.deliver(newSession(1));
    transport.endInput();
    await settle();
    expect(transport.isEnded).toBe(false);
    transport.setCongested(false);
    expect(transport.sent.map((m) => m.id)).toEqual([1]);
    expect(await connection.closed).toEqual({ reason: "peer closed the stream" });
  });

  // Before: the close came as soon as the handler had answered, and a stdio transport's close
  // rejects what waits for a drain: 49 of 50 such answers were lost.
  it("closes only once the transport accepted every answer handed to it", async () => {
    const { transport, connection } = agent();
    const drain = deferred();
    transport.pendingSend = drain.promise;
    transport.deliver(newSession(1));
    transport.endInput();
    await settle();
    expect(transport.sent.map((m) => m.id)).toEqual([1]);
    expect(transport.isEnded).toBe(false);
    drain.resolve();
    expect(await connection.closed).toEqual({ reason: "peer closed the stream" });
  });
});

describe("outputReady()", () => {
  it("resolves at once while answers flow, and otherwise once the held ones went out", async () => {
    const { transport, connection } = agent();
    let ready = false;
    await connection.outputReady();
    transport.congestAfter(1);
    transport.deliver(newSession(1));
    transport.deliver(newSession(2));
    await settle();
    void connection.outputReady().then(() => (ready = true));
    await settle();
    expect(ready).toBe(false);
    transport.congestAfter(2); // the drain lets answer 2 out, which fills the channel again
    transport.setCongested(false);
    await settle();
    expect(transport.sent.map((m) => m.id)).toEqual([1, 2]);
    expect(ready).toBe(false);
    transport.setCongested(false);
    await settle();
    expect(ready).toBe(true);
  });

  it("resolves when the connection closes with answers still held", async () => {
    const { transport, connection } = agent();
    transport.setCongested(true);
    transport.deliver(newSession(1));
    await settle();
    const ready = connection.outputReady();
    transport.end({ reason: "gone" });
    await connection.closed;
    await expect(ready).resolves.toBeUndefined();
  });
});

// Before: the transport refused the send and the peer never got an answer.
describe("an answer JSON cannot carry", () => {
  it("is answered -32603 for its id and reported as outgoing_invalid", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    connection.onRequest("_ext/big", () => ({ n: 1n }));
    transport.deliver({ jsonrpc: "2.0", id: 5, method: "_ext/big", params: {} });
    const answer = await transport.next();
    expect(answer).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32603, message: "Internal error: the answer could not be encoded as JSON: Do not know how to serialize a BigInt" },
    });
    expect(diagnostics).toEqual([expect.objectContaining({ code: "outgoing_invalid" })]);
  });

  it("in a batch, replaces only the entries JSON cannot carry", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 2 });
    connection.onRequest("_ext/echo", (params: { cyclic?: boolean }) => {
      if (!params.cyclic) return { ok: true };
      const loop: Record<string, unknown> = {};
      loop.self = loop;
      return loop;
    });
    transport.deliver({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 2 } });
    transport.deliver([
      { jsonrpc: "2.0", id: 1, method: "_ext/echo", params: {} },
      { jsonrpc: "2.0", id: 2, method: "_ext/echo", params: { cyclic: true } },
    ]);
    await settle();
    const batch = transport.sent.find((message) => Array.isArray(message));
    expect(batch).toEqual([
      { jsonrpc: "2.0", id: 1, result: { ok: true } },
      { jsonrpc: "2.0", id: 2, error: { code: -32603, message: expect.stringContaining("could not be encoded as JSON") } },
    ]);
  });
});
