// The peer's input ends while it still reads (an agent's stdin reached end of file, docs/protocol.md
// S9): everything it sent is still answered, running handlers see their signal abort, our own
// requests fail at once, and only then does the connection close its transport.
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors.js";
import { deferred, scripted, settle } from "./helpers/transports.js";

describe("input ends while the peer still reads", () => {
  it("closes at once when nothing is outstanding", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    expect(transport.isEnded).toBe(false);
    transport.endInput();
    expect(await connection.closed).toEqual({ reason: "peer closed the stream" });
  });

  it("answers a running request first, with its signal aborted, then closes", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const gate = deferred<void>();
    let aborted: boolean | undefined;
    connection.onRequest("session/new", async (_params, ctx) => {
      await gate.promise;
      aborted = ctx.signal.aborted;
      return { sessionId: "s1" };
    });
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } });
    transport.endInput();
    await settle();
    expect(transport.isEnded).toBe(false);
    gate.resolve();
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { sessionId: "s1" } });
    expect(aborted).toBe(true);
    expect(await connection.closed).toEqual({ reason: "peer closed the stream" });
  });

  it("answers a handler that gives up on its aborted signal with -32800", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", (_params, ctx) => new Promise((_resolve, reject) => ctx.onCancel(reject)));
    transport.deliver({ jsonrpc: "2.0", id: "n", method: "session/new", params: { cwd: "/" } });
    await settle();
    transport.endInput();
    expect(await transport.next()).toMatchObject({ id: "n", error: { code: ErrorCode.RequestCancelled } });
    await connection.closed;
  });

  it("handles messages queued behind an async notification handler before closing", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const gate = deferred<void>();
    const seen: string[] = [];
    connection.onNotification("session/cancel", async () => {
      seen.push("cancel");
      await gate.promise;
    });
    connection.onRequest("session/new", () => {
      seen.push("new");
      return { sessionId: "s2" };
    });
    transport.deliver({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } });
    transport.deliver({ jsonrpc: "2.0", id: 7, method: "session/new", params: { cwd: "/" } });
    transport.endInput();
    await settle();
    expect(seen).toEqual(["cancel"]);
    expect(transport.isEnded).toBe(false);
    gate.resolve();
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", id: 7, result: { sessionId: "s2" } });
    await connection.closed;
    expect(seen).toEqual(["cancel", "new"]);
  });

  it("fails our pending and later requests, since no answer can come, but still sends notifications", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 2 });
    const gate = deferred<void>();
    connection.onRequest("session/new", async () => {
      await gate.promise;
      return { sessionId: "s3" };
    });
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } });
    const pending = connection.request("session/request_permission", { sessionId: "s3", options: [] });
    await transport.next(); // our request went out
    transport.endInput();
    await expect(pending).rejects.toMatchObject({ code: "ConnectionClosed", message: expect.stringContaining("closed its side") });
    await expect(connection.request("session/request_permission", { sessionId: "s3", options: [] })).rejects.toMatchObject({ code: "ConnectionClosed" });
    await connection.notify("session/update", {
      sessionId: "s3",
      update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "bye" } },
    });
    expect((await transport.next()).method).toBe("session/update");
    gate.resolve();
    expect(await transport.next()).toMatchObject({ id: 1, result: { sessionId: "s3" } });
    await connection.closed;
  });
});
