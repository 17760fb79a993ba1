// Cancellation and failure: AbortSignal on outgoing requests, `$/cancel_request` on incoming ones,
// timeouts, and a closing transport that rejects everything pending at once.
import { describe, expect, it } from "vitest";
import { AcpError, ErrorCode, RpcError, isAcpError } from "../src/errors.js";
import { deferred, scripted, settle } from "./helpers/transports.js";

describe("aborting our requests", () => {
  it("on v1 sends $/cancel_request and rejects locally with Cancelled", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const controller = new AbortController();
    const pending = connection.request("session/request_permission", { sessionId: "s", options: [] }, { signal: controller.signal });
    const sent = await transport.next();
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AcpError);
    expect(error).toMatchObject({ code: "Cancelled" });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: sent.id } });
    // The peer's late answer is ignored quietly.
    transport.deliver({ jsonrpc: "2.0", id: sent.id, error: { code: ErrorCode.RequestCancelled, message: "Request cancelled" } });
  });

  it("on v2 sends nothing and rejects locally with Cancelled", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 2 });
    const controller = new AbortController();
    const pending = connection.request("session/request_permission", { sessionId: "s", options: [] }, { signal: controller.signal });
    const sent = await transport.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "Cancelled" });
    await settle();
    expect(transport.unread).toEqual([]);
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { outcome: { outcome: "cancelled" } } });
    await settle();
    expect(diagnostics).toEqual([]); // a late answer to a cancelled request is not news
  });

  it("rejects at once, sending nothing, when the signal is already aborted", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    await expect(connection.request("session/request_permission", { sessionId: "s", options: [] }, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: "Cancelled",
    });
    expect(transport.sent).toEqual([]);
  });

  it("rejects with Timeout after timeoutMs and tells a v1 peer", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const pending = connection.request("fs/read_text_file", { sessionId: "s", path: "/a" }, { timeoutMs: 1 });
    const sent = await transport.next();
    await expect(pending).rejects.toMatchObject({ code: "Timeout" });
    expect(await transport.next()).toMatchObject({ method: "$/cancel_request", params: { requestId: sent.id } });
  });
});

describe("incoming $/cancel_request (v1)", () => {
  it("aborts the handler's signal; a handler that gives up answers -32800", async () => {
    const { transport, connection } = scripted({ side: "client", version: 1 });
    let signal: AbortSignal | undefined;
    connection.onRequest("session/request_permission", (_params, ctx) => {
      signal = ctx.signal;
      return new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
    });
    transport.deliver({ jsonrpc: "2.0", id: "perm-1", method: "session/request_permission", params: { sessionId: "s", options: [] } });
    await settle();
    expect(signal?.aborted).toBe(false);
    transport.deliver({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "perm-1" } });
    expect(signal?.aborted).toBe(true);
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: "perm-1", error: { code: ErrorCode.RequestCancelled, message: "Request cancelled" } });
  });

  it("lets a cancelled handler still answer with a result", async () => {
    const { transport, connection } = scripted({ side: "client", version: 1 });
    connection.onRequest(
      "session/request_permission",
      (_params, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ outcome: { outcome: "cancelled" } }))),
    );
    transport.deliver({ jsonrpc: "2.0", id: 3, method: "session/request_permission", params: { sessionId: "s", options: [] } });
    transport.deliver({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 3 } });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 3, result: { outcome: { outcome: "cancelled" } } });
  });

  it("is an unknown notification on v2 and aborts nothing", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "client", version: 2 });
    let signal: AbortSignal | undefined;
    const gate = deferred<unknown>();
    connection.onRequest("session/request_permission", (_params, ctx) => {
      signal = ctx.signal;
      return gate.promise;
    });
    transport.deliver({ jsonrpc: "2.0", id: 3, method: "session/request_permission", params: { sessionId: "s", options: [] } });
    transport.deliver({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 3 } });
    await settle();
    expect(signal?.aborted).toBe(false);
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: "unknown_notification", method: "$/cancel_request" }));
    gate.resolve({ outcome: { outcome: "cancelled" } });
    expect(await transport.next()).toMatchObject({ id: 3, result: { outcome: { outcome: "cancelled" } } });
  });
});

describe("transport close", () => {
  it("rejects every pending request with ConnectionClosed carrying the CloseInfo, and aborts running handlers", async () => {
    const { transport, connection } = scripted({ side: "client", version: 1 });
    let handlerSignal: AbortSignal | undefined;
    connection.onRequest("session/request_permission", (_params, ctx) => {
      handlerSignal = ctx.signal;
      return new Promise(() => {});
    });
    const a = connection.request("session/new", { cwd: "/" }).catch((e: unknown) => e);
    const b = connection.request("session/prompt", { sessionId: "s", prompt: [] }).catch((e: unknown) => e);
    transport.deliver({ jsonrpc: "2.0", id: 9, method: "session/request_permission", params: { sessionId: "s", options: [] } });
    await settle();
    const info = { reason: "child exited with code 1", exitCode: 1, signal: null };
    transport.end(info);
    const [errorA, errorB] = await Promise.all([a, b]);
    for (const error of [errorA, errorB]) {
      expect(isAcpError(error, "ConnectionClosed")).toBe(true);
      expect(error).not.toBeInstanceOf(RpcError);
      expect((error as AcpError).data).toEqual(info);
      expect((error as AcpError).message).toContain("child exited with code 1");
    }
    expect(handlerSignal?.aborted).toBe(true);
    expect(handlerSignal?.reason).toMatchObject({ code: "ConnectionClosed" });
    expect(await connection.closed).toEqual(info);
  });

  it("rejects requests and notifications made after the close", async () => {
    const { transport, connection } = scripted({ side: "client", version: 1 });
    transport.end({ reason: "close frame 1006", closeCode: 1006 });
    await connection.closed;
    await expect(connection.request("session/new", { cwd: "/" })).rejects.toMatchObject({ code: "ConnectionClosed", data: { closeCode: 1006 } });
    await expect(connection.notify("session/cancel", { sessionId: "s" })).rejects.toMatchObject({ code: "ConnectionClosed" });
  });

  it("close() closes the transport and settles pending requests", async () => {
    const { connection } = scripted({ side: "client", version: 1 });
    const pending = connection.request("session/new", { cwd: "/" });
    await connection.close("user quit");
    await expect(pending).rejects.toMatchObject({ code: "ConnectionClosed", data: { reason: "user quit" } });
  });
});
