// Outgoing requests and notifications: ids, response matching, dev-mode validation, results.
import { describe, expect, it } from "vitest";
import { AcpError, ErrorCode, RpcError, isAcpError } from "../src/errors.js";
import { Connection } from "../src/connection.js";
import { connectedPair, scripted, ScriptedTransport, settle } from "./helpers/transports.js";
import { stubRegistry } from "./helpers/stub-registry.js";

describe("requests and responses", () => {
  it("numbers its requests uniquely and never sends id null (E2)", async () => {
    const { transport, connection } = scripted({ side: "client", version: 1 });
    const requests = [0, 1, 2].map((i) => connection.request("session/new", { cwd: `/p${i}` }));
    const sent = [await transport.next(), await transport.next(), await transport.next()];
    const ids = sent.map((m) => m.id);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(typeof id).toBe("number");
    expect(sent.map((m) => m.params.cwd)).toEqual(["/p0", "/p1", "/p2"]);
    // Answer out of order: each caller gets its own answer.
    for (const i of [2, 0, 1]) transport.deliver({ jsonrpc: "2.0", id: ids[i], result: { sessionId: `s${i}` } });
    expect(await Promise.all(requests)).toEqual([{ sessionId: "s0" }, { sessionId: "s1" }, { sessionId: "s2" }]);
  });

  it("matches a response by id type: a string id does not answer a numeric request", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "client", version: 1 });
    let settled = false;
    const pending = connection.request("session/new", { cwd: "/" }).finally(() => (settled = true));
    const sent = await transport.next();
    transport.deliver({ jsonrpc: "2.0", id: String(sent.id), result: { sessionId: "wrong" } });
    await settle();
    expect(settled).toBe(false);
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: "unexpected_response" }));
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { sessionId: "right" } });
    expect(await pending).toEqual({ sessionId: "right" });
  });

  it("answers incoming requests with the peer's id, whether number or string", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 2 });
    connection.onRequest("session/new", (params: { cwd: string }, ctx) => ({ sessionId: `${ctx.id}:${params.cwd}` }));
    transport.deliver({ jsonrpc: "2.0", id: 41, method: "session/new", params: { cwd: "/a" } });
    transport.deliver({ jsonrpc: "2.0", id: "req-42", method: "session/new", params: { cwd: "/b" } });
    transport.deliver({ jsonrpc: "2.0", id: "41", method: "session/new", params: { cwd: "/c" } });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 41, result: { sessionId: "41:/a" } });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: "req-42", result: { sessionId: "req-42:/b" } });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: "41", result: { sessionId: "41:/c" } });
  });

  it("rejects with the peer's RpcError (numeric code) on an error response", async () => {
    const { agent, client } = connectedPair(1);
    agent.onRequest("session/prompt", () => {
      throw new RpcError(ErrorCode.AuthRequired, "Authentication required");
    });
    const error = await client.request("session/prompt", { sessionId: "s", prompt: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32000, message: "Authentication required" });
    expect(isAcpError(error)).toBe(false);
  });

  it("round-trips requests and notifications between two connections", async () => {
    const { agent, client } = connectedPair(2);
    const updates: unknown[] = [];
    client.onNotification("session/update", (params) => void updates.push(params.update.sessionUpdate));
    agent.onRequest("session/prompt", async (params: { sessionId: string }) => {
      await agent.notify("session/update", { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk" } });
      return { stopReason: "end_turn" };
    });
    expect(await client.request("session/prompt", { sessionId: "s1", prompt: [] })).toEqual({ stopReason: "end_turn" });
    expect(updates).toEqual(["agent_message_chunk"]);
  });

  it("rejects a peer result that fails the version's validator with InvalidMessage and the path", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "client", version: 1 });
    const pending = connection.request("session/new", { cwd: "/" });
    const sent = await transport.next();
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { sessionId: 5 } });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AcpError);
    expect(error).toMatchObject({ code: "InvalidMessage", data: { path: "/sessionId" } });
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: "invalid_result", path: "/sessionId" }));
  });

  it("fails one of our requests when its response is malformed, instead of leaving it hanging", async () => {
    const { transport, connection } = scripted({ side: "client", version: 1 });
    const pending = connection.request("session/new", { cwd: "/" });
    const sent = await transport.next();
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: {}, error: { code: 1, message: "both" } });
    await expect(pending).rejects.toMatchObject({ code: "ProtocolViolation" });
  });

  it("sends no params key when params are undefined, and a null result when a handler returns nothing", async () => {
    const { transport, connection } = scripted({ side: "agent" });
    connection.onRequest("_test/void", () => undefined);
    void connection.request("_test/call", undefined);
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 0, method: "_test/call" });
    transport.deliver({ jsonrpc: "2.0", id: 5, method: "_test/void" });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 5, result: null });
  });
});

describe("development-mode outgoing validation", () => {
  it("rejects invalid request params at the call site with OutgoingInvalid and the path, sending nothing (L1)", async () => {
    const { transport, connection } = scripted({ side: "client", version: 1 });
    const error = await connection.request("session/prompt", { sessionId: "s", prompt: "not an array" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AcpError);
    expect(error).toMatchObject({ code: "OutgoingInvalid", data: { method: "session/prompt", path: "/prompt" } });
    expect((error as Error).message).toContain("/prompt");
    // The stack points at this test, where the bad call was made.
    expect((error as Error).stack).toContain("requests.test.ts");
    expect(transport.sent).toEqual([]);
  });

  it("rejects invalid notification params, a wrong kind, a wrong direction and a method the version lacks", async () => {
    const { connection } = scripted({ side: "agent", version: 2 });
    await expect(connection.notify("session/update", { sessionId: "s", update: {} })).rejects.toMatchObject({
      code: "OutgoingInvalid",
      data: { path: "/update/sessionUpdate" },
    });
    await expect(connection.notify("session/request_permission", { sessionId: "s", options: [] })).rejects.toThrow(/it is a request/);
    await expect(connection.request("session/prompt", { sessionId: "s", prompt: [] })).rejects.toThrow(/client to agent/);
    await expect(connection.request("fs/read_text_file", { sessionId: "s", path: "/a" })).rejects.toThrow(/no such method in protocol v2/);
  });

  it("answers -32603 instead of sending a handler result that fails validation, and reports the path", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", () => ({ sessionId: 123 }));
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } });
    const reply = await transport.next();
    expect(reply.error.code).toBe(ErrorCode.InternalError);
    expect(reply.error.message).toContain("/sessionId");
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: "outgoing_invalid", method: "session/new", path: "/sessionId" }));
  });

  it("sends without checking when validateOutgoing is off", async () => {
    const transport = new ScriptedTransport();
    const connection = new Connection(transport, { side: "client", version: 1, registry: stubRegistry, validateOutgoing: false });
    // @ts-expect-error an invalid prompt on purpose: with validation off it goes out as it is
    void connection.request("session/prompt", { sessionId: "s", prompt: "not an array" });
    expect((await transport.next()).params.prompt).toBe("not an array");
  });

  it("still refuses a request that flows the other way when validateOutgoing is off, sending nothing", async () => {
    // Such a request is always a bug, and only this side's part of the validators may be loaded,
    // which has no validator for the answer.
    const transport = new ScriptedTransport();
    const agent = new Connection(transport, { side: "agent", version: 1, validateOutgoing: false });
    // @ts-expect-error session/prompt goes from client to agent
    const error = await agent.request("session/prompt", { sessionId: "s", prompt: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "OutgoingInvalid", message: "Cannot send session/prompt from the agent: it goes client to agent" });
    // Its own requests and extension requests still go out unchecked.
    void agent.request("fs/read_text_file", { sessionId: "s", path: "relative is not checked" });
    void agent.request("_vendor/ask", {});
    expect((await transport.next()).method).toBe("fs/read_text_file");
    expect((await transport.next()).method).toBe("_vendor/ask");
    expect(transport.sent).toHaveLength(2);
  });

  it("lets _ extension methods through unchecked", async () => {
    const { transport, connection } = scripted({ side: "client", version: 2 });
    await connection.notify("_vendor/hello", { anything: [1, 2] });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", method: "_vendor/hello", params: { anything: [1, 2] } });
  });
});

describe("handler registration", () => {
  it("refuses handlers for methods the registry does not have, of the wrong kind, or flowing the other way", () => {
    const { connection: agent } = scripted({ side: "agent", version: 2 });
    expect(() => agent.onRequest("session/promt", () => ({}))).toThrow(/no such method in protocol v2/);
    expect(() => agent.onRequest("session/cancel", () => ({}))).toThrow(/use onNotification/);
    expect(() => agent.onNotification("session/update", () => {})).toThrow(/agent side/);
    expect(() => agent.onNotification("$/cancel_request", () => {})).toThrow(/ctx.signal/);
    const { connection: client } = scripted({ side: "client", version: 2 });
    expect(() => client.onRequest("fs/read_text_file", () => ({}))).toThrow(AcpError);
  });

  it("before the version is known, accepts a method that exists in any version", () => {
    const { connection: client } = scripted({ side: "client" });
    expect(() => client.onRequest("fs/read_text_file", () => ({ content: "" }))).not.toThrow();
    expect(() => client.onRequest("fs/nope", () => ({}))).toThrow(/v1 or v2/);
  });

  it("unregisters a handler with the returned function", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const off = connection.onRequest("session/new", () => ({ sessionId: "s" }));
    off();
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } });
    expect((await transport.next()).error.code).toBe(ErrorCode.MethodNotFound);
  });

  it("keeps one version per connection", () => {
    const { connection } = scripted({ side: "agent" });
    expect(connection.version).toBeUndefined();
    connection.setVersion(1);
    connection.setVersion(1);
    expect(() => connection.setVersion(2)).toThrow(expect.objectContaining({ code: "ProtocolViolation" }));
    expect(() => scripted({ side: "agent", version: 3 as never })).toThrow(expect.objectContaining({ code: "VersionUnsupported" }));
  });
});
