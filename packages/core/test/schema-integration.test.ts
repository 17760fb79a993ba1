// The Connection with the real registry from @acpkit/schema (the default), on messages taken
// from docs/protocol.md.
import { describe, expect, it } from "vitest";
import { Connection } from "../src/connection.js";
import { ErrorCode } from "../src/errors.js";
import { ScriptedTransport, linkedTransports } from "./helpers/transports.js";

function real(side: "agent" | "client", version?: 1 | 2, requireInitialize = false) {
  const transport = new ScriptedTransport();
  const connection = new Connection(transport, { side, version, requireInitialize, validateOutgoing: true });
  const diagnostics: any[] = [];
  connection.onDiagnostic((d) => diagnostics.push(d));
  return { transport, connection, diagnostics };
}

describe("with the @acpkit/schema registry", () => {
  it("serves a v2 prompt turn from docs/protocol.md examples between two connections", async () => {
    const [agentEnd, clientEnd] = linkedTransports();
    const agent = new Connection(agentEnd, { side: "agent", version: 2 });
    const client = new Connection(clientEnd, { side: "client", version: 2 });
    const updates: unknown[] = [];
    client.onNotification("session/update", (params) => void updates.push(params.update));
    agent.onRequest("session/prompt", async (params: { sessionId: string }) => {
      await agent.notify("session/update", {
        sessionId: params.sessionId,
        update: { sessionUpdate: "agent_message", messageId: "msg_a1", content: [{ type: "text", text: "Looking at main.py." }] },
      });
      return { stopReason: "end_turn" };
    });
    const result = await client.request("session/prompt", { sessionId: "sess_1", prompt: [{ type: "text", text: "Review main.py" }] });
    expect(result).toEqual({ stopReason: "end_turn" });
    expect(updates).toEqual([{ sessionUpdate: "agent_message", messageId: "msg_a1", content: [{ type: "text", text: "Looking at main.py." }] }]);
  });

  it("answers invalid session/prompt params with -32602 and the schema's JSON path", async () => {
    const { transport, connection } = real("agent", 1);
    connection.onRequest("session/prompt", () => ({ stopReason: "end_turn" }));
    transport.deliver({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [{ type: "text" }] } });
    const reply = await transport.next();
    expect(reply.error.code).toBe(ErrorCode.InvalidParams);
    expect(reply.error.data.path).toMatch(/^\/prompt\/0/);
  });

  it("answers the legacy `messages` prompt with -32602 carrying legacyShape and expected", async () => {
    const { transport, connection } = real("agent", 2);
    connection.onRequest("session/prompt", () => ({ stopReason: "end_turn" }));
    transport.deliver({ jsonrpc: "2.0", id: 3, method: "session/prompt", params: { sessionId: "s", messages: [] } });
    const reply = await transport.next();
    expect(reply.error.code).toBe(ErrorCode.InvalidParams);
    expect(reply.error.data.legacyShape).toEqual(expect.any(String));
    expect(reply.error.data.expected).toEqual(expect.any(String));
  });

  it("answers fs/read_text_file on v2 with -32601 and refuses to send it from a v2 agent", async () => {
    const { transport } = real("client", 2);
    transport.deliver({ jsonrpc: "2.0", id: 3, method: "fs/read_text_file", params: { sessionId: "s", path: "/a" } });
    expect((await transport.next()).error.code).toBe(ErrorCode.MethodNotFound);
    const { connection: agent } = real("agent", 2);
    await expect(agent.request("fs/read_text_file", { sessionId: "s", path: "/a" })).rejects.toMatchObject({ code: "OutgoingInvalid" });
  });

  it("catches a non-underscore custom stop reason in development mode (v2 conformance)", async () => {
    const { transport, connection, diagnostics } = real("agent", 2);
    connection.onRequest("session/prompt", () => ({ stopReason: "error" }));
    transport.deliver({ jsonrpc: "2.0", id: 4, method: "session/prompt", params: { sessionId: "s", prompt: [] } });
    const reply = await transport.next();
    expect(reply.error.code).toBe(ErrorCode.InternalError);
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: "outgoing_invalid", method: "session/prompt" }));
  });

  it("drops a v1 tool_call update on a v2 connection with a legacy_shape diagnostic", async () => {
    const { transport, connection, diagnostics } = real("client", 2);
    const received: unknown[] = [];
    connection.onNotification("session/update", (params) => void received.push(params));
    transport.deliver({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "call_1", title: "Edit" } },
    });
    expect(received).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: "legacy_shape", method: "session/update", sessionId: "s1" })]);
  });

  it("runs the dual-version initialize flow: 0 → 2, then v2 validation applies", async () => {
    const { negotiateVersion, requestedVersionOf } = await import("../src/negotiation.js");
    const { transport, connection } = real("agent", undefined, true);
    connection.onRequest("initialize", (params) => {
      const negotiated = negotiateVersion(requestedVersionOf(params), [1, 2]);
      if (!negotiated.ok) throw negotiated.error;
      connection.setVersion(negotiated.version);
      return { protocolVersion: negotiated.version, authMethods: [] };
    });
    transport.deliver({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 0, clientCapabilities: { fs: { readTextFile: true } } } });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 2, authMethods: [] } });
    expect(connection.version).toBe(2);
  });
});
