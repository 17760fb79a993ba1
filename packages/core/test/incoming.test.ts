// The incoming checks of issue 3: each malformed or unexpected message gets the answer JSON-RPC
// and docs/protocol.md prescribe, and the connection keeps working afterwards.
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors.js";
import { scripted } from "./helpers/transports.js";

// After a message that must get no reply, a ping proves the connection is alive and that nothing
// was sent before the ping's answer.
async function expectNoReplyThenAlive(transport: ReturnType<typeof scripted>["transport"], connection: ReturnType<typeof scripted>["connection"]) {
  connection.onRequest("_test/ping", () => ({ pong: true }));
  transport.deliver({ jsonrpc: "2.0", id: "ping", method: "_test/ping" });
  expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: "ping", result: { pong: true } });
}

describe("incoming checks", () => {
  it("answers unparsable JSON with -32700 and id null, and keeps working", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", () => ({ sessionId: "s1" }));
    transport.deliver('{"jsonrpc":"2.0","id":1,"method":"session/new"'); // truncated
    const reply = await transport.next();
    expect(reply.id).toBeNull();
    expect(reply.error.code).toBe(ErrorCode.ParseError);
    expect(diagnostics.map((d) => d.code)).toContain("parse_error");
    transport.deliver({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/tmp" } });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { sessionId: "s1" } });
  });

  it.each([
    ["a number", "42", /JSON-RPC object/],
    ["a string", '"hello"', /JSON-RPC object/],
    ["a wrong jsonrpc version", '{"jsonrpc":"1.0","id":1,"method":"session/new"}', /"jsonrpc" must be "2.0"/],
    ["a missing jsonrpc", '{"id":1,"method":"session/new"}', /"jsonrpc" must be "2.0"/],
    ["a numeric method", '{"jsonrpc":"2.0","id":1,"method":7}', /"method" must be a string/],
    ["a boolean id", '{"jsonrpc":"2.0","id":true,"method":"session/new"}', /"id" must be/],
    ["string params", '{"jsonrpc":"2.0","id":1,"method":"session/new","params":"x"}', /"params" must be an object/],
    ["neither method nor id", '{"jsonrpc":"2.0"}', /neither "method" nor "id"/],
    ["both result and error", '{"jsonrpc":"2.0","id":9,"result":1,"error":{"code":1,"message":"x"}}', /both "result" and "error"/],
  ])("answers %s with -32600 and id null", async (_name, line, reason) => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    transport.deliver(line);
    const reply = await transport.next();
    expect(reply.id).toBeNull();
    expect(reply.error.code).toBe(ErrorCode.InvalidRequest);
    expect(reply.error.message).toMatch(reason);
    expect(diagnostics[0].code).toBe("invalid_message");
    await expectNoReplyThenAlive(transport, connection);
  });

  it("answers a request for a method the version does not have with -32601", async () => {
    const { transport } = scripted({ side: "client", version: 2 });
    // fs/read_text_file exists only in v1 (docs/protocol.md §2).
    transport.deliver({ jsonrpc: "2.0", id: 3, method: "fs/read_text_file", params: { sessionId: "s", path: "/a" } });
    const reply = await transport.next();
    expect(reply).toMatchObject({ id: 3, error: { code: ErrorCode.MethodNotFound } });
    expect(reply.error.message).toContain("fs/read_text_file");
  });

  it("answers an unknown method, an unknown _ extension request and an unhandled known request with -32601", async () => {
    const { transport, diagnostics } = scripted({ side: "agent", version: 1 });
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/nonexistent", params: {} });
    transport.deliver({ jsonrpc: "2.0", id: 2, method: "_vendor/thing", params: {} });
    transport.deliver({ jsonrpc: "2.0", id: 3, method: "session/prompt", params: { sessionId: "s", prompt: [] } });
    // Right method, wrong direction: the agent does not handle session/request_permission.
    transport.deliver({ jsonrpc: "2.0", id: 4, method: "session/request_permission", params: { sessionId: "s", options: [] } });
    for (const id of [1, 2, 3, 4]) expect(await transport.next()).toMatchObject({ id, error: { code: ErrorCode.MethodNotFound } });
    expect(diagnostics.filter((d) => d.code === "unknown_method")).toHaveLength(4);
  });

  it("ignores an unknown notification and reports it", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "client", version: 1 });
    transport.deliver({ jsonrpc: "2.0", method: "session/whatever", params: {} });
    transport.deliver({ jsonrpc: "2.0", method: "_vendor/note", params: {} });
    transport.deliver({ jsonrpc: "2.0", method: "$/progress", params: {} });
    await expectNoReplyThenAlive(transport, connection);
    expect(diagnostics.filter((d) => d.code === "unknown_notification").map((d) => d.method)).toEqual(["session/whatever", "_vendor/note", "$/progress"]);
  });

  it("answers params that fail validation with -32602 carrying the JSON path and message", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    let called = false;
    connection.onRequest("session/prompt", () => {
      called = true;
      return { stopReason: "end_turn" };
    });
    transport.deliver({ jsonrpc: "2.0", id: 7, method: "session/prompt", params: { sessionId: 42, prompt: [] } });
    const reply = await transport.next();
    expect(reply.id).toBe(7);
    expect(reply.error.code).toBe(ErrorCode.InvalidParams);
    expect(reply.error.data).toEqual({ path: "/sessionId", message: "must be string" });
    expect(reply.error.message).toContain("/sessionId");
    expect(called).toBe(false);
  });

  it("names the legacy shape and the expected field in -32602 (docs/protocol.md §9)", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 2 });
    connection.onRequest("session/prompt", () => ({ stopReason: "end_turn" }));
    transport.deliver({ jsonrpc: "2.0", id: 8, method: "session/prompt", params: { sessionId: "s", messages: [] } });
    const reply = await transport.next();
    expect(reply.error.code).toBe(ErrorCode.InvalidParams);
    expect(reply.error.data).toMatchObject({ legacyShape: "messages", expected: "prompt" });
    expect(reply.error.message).toContain("prompt");
  });

  it("drops a notification with bad params and reports the path", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "client", version: 2 });
    const received: unknown[] = [];
    connection.onNotification("session/update", (params) => void received.push(params));
    transport.deliver({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: 5 } } });
    transport.deliver({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "plan_update" } } });
    await expectNoReplyThenAlive(transport, connection);
    expect(received).toEqual([{ sessionId: "s1", update: { sessionUpdate: "plan_update" } }]);
    expect(diagnostics).toContainEqual(
      expect.objectContaining({ code: "invalid_params", method: "session/update", path: "/update/sessionUpdate", sessionId: "s1" }),
    );
  });

  it("answers a handler that throws an Error with -32603, its message and no stack", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", () => {
      throw new Error("disk on fire");
    });
    connection.onRequest("session/prompt", async () => {
      throw new TypeError("model unavailable");
    });
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } });
    transport.deliver({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [] } });
    const first = await transport.next();
    const second = await transport.next();
    expect(first).toEqual({ jsonrpc: "2.0", id: 1, error: { code: ErrorCode.InternalError, message: "disk on fire" } });
    expect(second).toEqual({ jsonrpc: "2.0", id: 2, error: { code: ErrorCode.InternalError, message: "model unavailable" } });
    expect(JSON.stringify([first, second])).not.toContain("at ");
  });

  it("answers a handler that throws an RpcError with exactly that error", async () => {
    const { RpcError } = await import("../src/errors.js");
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/prompt", () => {
      throw new RpcError(ErrorCode.ResourceNotFound, "Unknown session", { sessionId: "nope" });
    });
    transport.deliver({ jsonrpc: "2.0", id: "p", method: "session/prompt", params: { sessionId: "nope", prompt: [] } });
    expect(await transport.next()).toEqual({
      jsonrpc: "2.0",
      id: "p",
      error: { code: ErrorCode.ResourceNotFound, message: "Unknown session", data: { sessionId: "nope" } },
    });
  });

  it("reports a notification handler that throws or rejects and goes on with the next one", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "client", version: 2 });
    const seen: string[] = [];
    connection.onNotification("session/update", async (params) => {
      seen.push(params.update.sessionUpdate);
      if (params.update.sessionUpdate === "boom") throw new Error("reducer failed");
    });
    transport.deliver({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "boom" } } });
    transport.deliver({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "after" } } });
    await expectNoReplyThenAlive(transport, connection);
    expect(seen).toEqual(["boom", "after"]);
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: "handler_error", method: "session/update", sessionId: "s" }));
  });

  it("reports framing problems the transport recovered from", async () => {
    const { AcpError } = await import("../src/errors.js");
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    transport.reportError(new AcpError("MessageTooLarge", "line of 9 MB exceeds the 8 MB limit"));
    expect(diagnostics).toEqual([expect.objectContaining({ code: "transport_error", message: "line of 9 MB exceeds the 8 MB limit" })]);
    await expectNoReplyThenAlive(transport, connection);
  });

  it("reports an error response with id null as a peer error, without answering it", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "client", version: 1 });
    transport.deliver({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    await expectNoReplyThenAlive(transport, connection);
    expect(diagnostics).toEqual([expect.objectContaining({ code: "peer_error" })]);
  });
});

describe("legacy method names (docs/protocol.md §9)", () => {
  it("answers a request for a legacy method with -32601 naming the modern method", async () => {
    const { transport, diagnostics } = scripted({ side: "agent", version: 1 });
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "acp/prompt", params: { sessionId: "s", prompt: [] } });
    const reply = await transport.next();
    expect(reply.error.code).toBe(ErrorCode.MethodNotFound);
    expect(reply.error.message).toContain('"session/prompt"');
    expect(reply.error.data).toEqual({ legacyShape: "acp/prompt", expected: '"session/prompt"' });
    expect(diagnostics[0].code).toBe("legacy_shape");
  });

  it("drops a legacy notification with a legacy_shape diagnostic", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    transport.deliver({ jsonrpc: "2.0", method: "acp/prompt", params: { sessionId: "s1" } });
    await expectNoReplyThenAlive(transport, connection);
    expect(diagnostics).toEqual([expect.objectContaining({ code: "legacy_shape", method: "acp/prompt", sessionId: "s1" })]);
  });
});
