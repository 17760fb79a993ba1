// JSON-RPC batches (docs/protocol.md §8.2): accepted on v2 connections only, never originated.
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors.js";
import { deferred, scripted, settle } from "./helpers/transports.js";

function agentV2() {
  const s = scripted({ side: "agent", version: 2 });
  s.connection.onRequest("session/new", (params: { cwd: string }) => ({ sessionId: `s:${params.cwd}` }));
  return s;
}

describe("batches on v2", () => {
  it("answers a mixed batch with one array holding a response per request, none for notifications", async () => {
    const { transport, connection } = agentV2();
    const cancels: string[] = [];
    connection.onNotification("session/cancel", (params) => void cancels.push(params.sessionId));
    transport.deliver([
      { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/a" } },
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "x" } },
      { jsonrpc: "2.0", id: "two", method: "session/new", params: { cwd: "/b" } },
      { jsonrpc: "2.0", id: 3, method: "session/new", params: { cwd: 3 } },
      { jsonrpc: "2.0", id: 4, method: "nope/nothing", params: {} },
    ]);
    const reply = await transport.next();
    expect(Array.isArray(reply)).toBe(true);
    expect(reply).toHaveLength(4);
    const byId = new Map(reply.map((r: { id: unknown }) => [r.id, r]));
    expect(byId.get(1)).toEqual({ jsonrpc: "2.0", id: 1, result: { sessionId: "s:/a" } });
    expect(byId.get("two")).toEqual({ jsonrpc: "2.0", id: "two", result: { sessionId: "s:/b" } });
    expect(byId.get(3)).toMatchObject({ error: { code: ErrorCode.InvalidParams, data: { path: "/cwd" } } });
    expect(byId.get(4)).toMatchObject({ error: { code: ErrorCode.MethodNotFound } });
    expect(cancels).toEqual(["x"]);
  });

  it("waits for async handlers before sending the batch answer", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 2 });
    const gate = deferred();
    connection.onRequest("session/new", async (params: { cwd: string }) => {
      if (params.cwd === "/slow") await gate.promise;
      return { sessionId: params.cwd };
    });
    transport.deliver([
      { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/slow" } },
      { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/fast" } },
    ]);
    await settle();
    expect(transport.sent).toEqual([]);
    gate.resolve();
    const reply = await transport.next();
    expect(reply.map((r: { id: number }) => r.id).sort()).toEqual([1, 2]);
  });

  it("answers [] with one -32600 object (not an array) with id null (G1)", async () => {
    const { transport } = agentV2();
    transport.deliver("[]");
    const reply = await transport.next();
    expect(Array.isArray(reply)).toBe(false);
    expect(reply).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
  });

  it("sends nothing for a batch of only notifications", async () => {
    const { transport, connection } = agentV2();
    const cancels: string[] = [];
    connection.onNotification("session/cancel", (params) => void cancels.push(params.sessionId));
    transport.deliver([
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "a" } },
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "b" } },
    ]);
    transport.deliver({ jsonrpc: "2.0", id: "after", method: "session/new", params: { cwd: "/" } });
    // The first thing sent is the answer to the request that followed the batch.
    expect(await transport.next()).toMatchObject({ id: "after" });
    expect(cancels).toEqual(["a", "b"]);
  });

  it("gives an invalid entry its own -32600 with id null and runs the rest", async () => {
    const { transport } = agentV2();
    transport.deliver([1, { jsonrpc: "2.0", id: 5, method: "session/new", params: { cwd: "/x" } }, { foo: "bar" }]);
    const reply = await transport.next();
    expect(reply).toHaveLength(3);
    const errors = reply.filter((r: { id: unknown }) => r.id === null);
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error.error.code).toBe(ErrorCode.InvalidRequest);
    expect(reply).toContainEqual({ jsonrpc: "2.0", id: 5, result: { sessionId: "s:/x" } });
  });

  it("accepts responses to our own requests inside a batch, without answering them", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 2 });
    const pending = connection.request("session/request_permission", { sessionId: "s", options: [] });
    const sent = await transport.next();
    transport.deliver([{ jsonrpc: "2.0", id: sent.id, result: { outcome: { outcome: "cancelled" } } }]);
    expect(await pending).toEqual({ outcome: { outcome: "cancelled" } });
    await settle();
    expect(transport.unread).toEqual([]);
  });
});

describe("batches elsewhere", () => {
  it("answers an array on a v1 connection with one -32600 with id null, running none of it (G4)", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    let called = false;
    connection.onRequest("session/new", () => {
      called = true;
      return { sessionId: "s" };
    });
    transport.deliver([{ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } }]);
    const reply = await transport.next();
    expect(reply).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    expect(reply.error.message).toMatch(/v2/);
    expect(called).toBe(false);
  });

  it("never originates a batch: concurrent requests go out as separate messages", async () => {
    const { transport, connection } = scripted({ side: "client", version: 2 });
    void connection.request("session/new", { cwd: "/a" });
    void connection.request("session/new", { cwd: "/b" });
    await connection.notify("session/cancel", { sessionId: "s" });
    for (let i = 0; i < 3; i++) expect(Array.isArray(await transport.next())).toBe(false);
  });
});
