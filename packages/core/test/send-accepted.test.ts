// SEND_ACCEPTED: a transport that took a message at once returns core's shared resolved promise,
// and the Connection then attaches nothing to it (no failure handler, no counted send) for a
// request or an answer. Any other promise is still watched: its rejection fails the request, and
// an answer given after the peer's input ended is counted until it settles, so the connection
// closes only once it was handed over. (input-end.test.ts covers an answer taken at once after the
// input ended: the scripted transport returns SEND_ACCEPTED like acpkit's own.)
import { afterEach, describe, expect, it } from "vitest";
import { SEND_ACCEPTED } from "../src/transport-kit.js";
import { deferred, scripted, settle } from "./helpers/transports.js";

const PERMISSION = { sessionId: "s", options: [] };

// Counts `then` calls on the shared promise while a test runs (an own property shadows the
// prototype's method; removed after each test).
let thenCalls = 0;
function countThenCalls(): void {
  thenCalls = 0;
  const original = Promise.prototype.then;
  // biome-ignore lint/suspicious/noThenProperty: the test counts calls of the promise's own then.
  Object.defineProperty(SEND_ACCEPTED, "then", {
    configurable: true,
    value(this: Promise<void>, ...args: Parameters<Promise<void>["then"]>) {
      thenCalls++;
      return original.apply(this, args);
    },
  });
}
afterEach(() => {
  delete (SEND_ACCEPTED as { then?: unknown }).then;
});

describe("SEND_ACCEPTED", () => {
  it("is one resolved promise, exported by the transport kit too", async () => {
    const kit = await import("../src/transport-kit.js");
    expect(kit.SEND_ACCEPTED).toBe(SEND_ACCEPTED);
    await expect(SEND_ACCEPTED).resolves.toBeUndefined();
  });

  it("a request and an answer the transport took at once attach nothing to it", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", () => ({ sessionId: "s1" }));
    countThenCalls();
    const pending = connection.request("session/request_permission", PERMISSION);
    const sent = await transport.next();
    transport.deliver({ jsonrpc: "2.0", id: 7, method: "session/new", params: { cwd: "/" } });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 7, result: { sessionId: "s1" } });
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { outcome: { outcome: "cancelled" } } });
    expect(await pending).toEqual({ outcome: { outcome: "cancelled" } });
    expect(thenCalls).toBe(0);
  });

  it("a send that returns a promise of its own is watched: its rejection fails only that request", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const refused = deferred<void>();
    transport.pendingSend = refused.promise;
    const failing = connection.request("session/request_permission", PERMISSION);
    transport.pendingSend = undefined;
    const fine = connection.request("session/request_permission", PERMISSION);
    refused.reject(new Error("the pipe broke after taking the line"));
    await expect(failing).rejects.toThrow("the pipe broke after taking the line");
    const [, second] = [await transport.next(), await transport.next()];
    transport.deliver({ jsonrpc: "2.0", id: second.id, result: { outcome: { outcome: "cancelled" } } });
    expect(await fine).toEqual({ outcome: { outcome: "cancelled" } });
  });

  it("a send that returns no promise at all fails that request, which is not left pending", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    const send = transport.send.bind(transport);
    transport.send = (message) => {
      void send(message);
      return undefined as unknown as Promise<void>;
    };
    const pending = connection.request("session/request_permission", PERMISSION);
    await expect(pending).rejects.toThrow(new TypeError("transport.send() returned nothing instead of a promise"));
    const sent = await transport.next();
    // Its answer, if the peer got the line after all, is a late one: taken quietly.
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { outcome: { outcome: "cancelled" } } });
    await settle();
    expect(diagnostics.filter((d) => d.code === "unexpected_response")).toEqual([]);
  });

  it("an answer whose send returns no promise is reported, and the request is not answered a second time", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", () => ({ sessionId: "s1" }));
    const send = transport.send.bind(transport);
    transport.send = (message) => {
      void send(message);
      return undefined as unknown as Promise<void>;
    };
    transport.deliver({ jsonrpc: "2.0", id: 7, method: "session/new", params: { cwd: "/" } });
    transport.deliver({ jsonrpc: "2.0", id: 8, method: "session/new", params: { cwd: "/" } });
    await settle();
    expect(transport.sent).toEqual([
      { jsonrpc: "2.0", id: 7, result: { sessionId: "s1" } },
      { jsonrpc: "2.0", id: 8, result: { sessionId: "s1" } },
    ]);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["transport_error", "Could not send a reply: transport.send() returned nothing instead of a promise"],
      ["transport_error", "Could not send a reply: transport.send() returned nothing instead of a promise"],
    ]);
  });

  it("a v1 request given up on still fails at its caller when sending $/cancel_request throws", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const controller = new AbortController();
    const pending = connection.request("session/request_permission", PERMISSION, { signal: controller.signal });
    await transport.next();
    transport.send = () => {
      throw new Error("the channel broke");
    };
    // The throw would otherwise leave the abort listener (or a timer callback) and end the process.
    expect(() => controller.abort()).not.toThrow();
    await expect(pending).rejects.toMatchObject({ code: "Cancelled" });
  });

  it("after the peer's input ended, an answer still waiting for its send keeps the connection open until it settles", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", () => ({ sessionId: "s1" }));
    const draining = deferred<void>();
    transport.pendingSend = draining.promise;
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } });
    transport.endInput();
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { sessionId: "s1" } });
    await settle();
    expect(transport.isEnded).toBe(false);
    draining.resolve();
    expect(await connection.closed).toEqual({ reason: "peer closed the stream" });
  });
});
