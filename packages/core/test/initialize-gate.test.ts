// docs/protocol.md N8 (`requireInitialize`) and the agent-side initialize flow with negotiateVersion.
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors.js";
import { negotiateVersion, requestedVersionOf } from "../src/negotiation.js";
import { deferred, scripted } from "./helpers/transports.js";

// A dual-version agent's initialize handler: read protocolVersion first, then lock the version.
function serveInitialize(connection: ReturnType<typeof scripted>["connection"]) {
  connection.onRequest("initialize", (params) => {
    const negotiated = negotiateVersion(requestedVersionOf(params), [1, 2]);
    if (!negotiated.ok) throw negotiated.error;
    connection.setVersion(negotiated.version);
    return { protocolVersion: negotiated.version };
  });
  connection.onRequest("session/new", () => ({ sessionId: "s1" }));
  const cancels: string[] = [];
  connection.onNotification("session/cancel", (params) => void cancels.push(params.sessionId));
  return cancels;
}

function gatedAgent() {
  const s = scripted({ side: "agent", requireInitialize: true });
  const cancels = serveInitialize(s.connection);
  return { ...s, cancels };
}

describe("requireInitialize (N8)", () => {
  it("answers any other request before initialize with -32600 'connection not initialized'", async () => {
    const { transport } = gatedAgent();
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } });
    expect(await transport.next()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: ErrorCode.InvalidRequest, message: "Invalid request: connection not initialized" },
    });
  });

  it("drops notifications before initialize and reports them", async () => {
    const { transport, cancels, diagnostics } = gatedAgent();
    transport.deliver({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } });
    transport.deliver({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } });
    expect(await transport.next()).toMatchObject({ id: 0, result: { protocolVersion: 1 } });
    expect(cancels).toEqual([]);
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: "not_initialized", method: "session/cancel" }));
    transport.deliver({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "after" } });
    expect(cancels).toEqual(["after"]);
  });

  it("answers a batch before initialize with one -32600 with id null", async () => {
    const { transport } = gatedAgent();
    transport.deliver([{ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 2 } }]);
    const reply = await transport.next();
    expect(reply).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest, message: "Invalid request: connection not initialized" } });
  });

  it("answers a second initialize with -32600, also while the first is still running", async () => {
    const { transport, connection } = scripted({ side: "agent", requireInitialize: true });
    const gate = deferred();
    connection.onRequest("initialize", async () => {
      await gate.promise;
      connection.setVersion(2);
      return { protocolVersion: 2 };
    });
    transport.deliver({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 2 } });
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 2 } });
    expect(await transport.next()).toMatchObject({ id: 1, error: { code: ErrorCode.InvalidRequest, message: expect.stringContaining("in progress") } });
    gate.resolve();
    expect(await transport.next()).toMatchObject({ id: 0, result: { protocolVersion: 2 } });
    transport.deliver({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: 2 } });
    expect(await transport.next()).toMatchObject({ id: 2, error: { code: ErrorCode.InvalidRequest, message: expect.stringContaining("already initialized") } });
  });

  it("lets the client retry after a failed initialize, then opens the connection", async () => {
    const { transport, connection } = gatedAgent();
    transport.deliver({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "1.0.0" } });
    const refused = await transport.next();
    expect(refused).toMatchObject({ id: 0, error: { code: ErrorCode.InvalidParams } });
    expect(connection.version).toBeUndefined();
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 3 } });
    expect(await transport.next()).toMatchObject({ id: 1, result: { protocolVersion: 2 } });
    expect(connection.version).toBe(2);
    transport.deliver({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/" } });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { sessionId: "s1" } });
  });

  it("dispatches initialize before the version is set without validating its params, then validates with the chosen version", async () => {
    const { transport, connection } = gatedAgent();
    // v2-shaped params with an extra foreign field: never rejected for the other version's fields.
    transport.deliver({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: 1, capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    expect(await transport.next()).toMatchObject({ id: 0, result: { protocolVersion: 1 } });
    expect(connection.version).toBe(1);
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: 1 } });
    expect(await transport.next()).toMatchObject({ id: 1, error: { code: ErrorCode.InvalidParams, data: { path: "/cwd" } } });
  });
});

describe("negotiateVersion", () => {
  it.each([
    [1, 1],
    [2, 2],
    [0, 2],
    [3, 2],
    [65535, 2],
  ])("a dual agent answers %s with %s", (requested, answered) => {
    expect(negotiateVersion(requested, [1, 2])).toEqual({ ok: true, version: answered });
  });

  it("answers its own latest when it supports only one version", () => {
    expect(negotiateVersion(2, [1])).toEqual({ ok: true, version: 1 });
    expect(negotiateVersion(1, [2])).toEqual({ ok: true, version: 2 });
  });

  it.each([["1.0.0"], [undefined], [-1], [65536], [1.5], [null], ["2"]])("refuses %j with -32602", (requested) => {
    const result = negotiateVersion(requested, [1, 2]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(ErrorCode.InvalidParams);
    expect(result.error.message).toContain("protocolVersion");
    expect(result.error.data).toMatchObject({ path: "/protocolVersion" });
  });

  it("reads protocolVersion from raw params of any shape", () => {
    expect(requestedVersionOf({ protocolVersion: 2, info: {} })).toBe(2);
    expect(requestedVersionOf(null)).toBeUndefined();
    expect(requestedVersionOf("x")).toBeUndefined();
  });
});
