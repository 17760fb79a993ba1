// Wire order: notifications reach their handler one at a time in arrival order, and a response to
// our request resolves only after every notification that arrived before it was handled.
import { describe, expect, it } from "vitest";
import { deferred, scripted, settle } from "./helpers/transports.js";
import { IncomingQueue } from "../src/incoming-queue.js";

const update = (n: number) => ({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: `u${n}` } } });

describe("incoming order", () => {
  it("waits for an async notification handler before starting the next one", async () => {
    const { transport, connection } = scripted({ side: "client", version: 2 });
    const log: string[] = [];
    const gate = deferred();
    connection.onNotification("session/update", async (params) => {
      const tag = params.update.sessionUpdate;
      log.push(`start ${tag}`);
      if (tag === "u1") await gate.promise;
      log.push(`end ${tag}`);
    });
    transport.deliver(update(1));
    transport.deliver(update(2));
    transport.deliver(update(3));
    await settle();
    expect(log).toEqual(["start u1"]);
    gate.resolve();
    await settle();
    expect(log).toEqual(["start u1", "end u1", "start u2", "end u2", "start u3", "end u3"]);
  });

  it("resolves a response only after the notifications received before it were handled", async () => {
    const { transport, connection } = scripted({ side: "client", version: 2 });
    const handled: string[] = [];
    const gate = deferred();
    connection.onNotification("session/update", async (params) => {
      if (params.update.sessionUpdate === "u2") await gate.promise;
      handled.push(params.update.sessionUpdate);
    });
    let resolvedWith: string[] | undefined;
    const prompt = connection.request("session/prompt", { sessionId: "s", prompt: [] }).then((result) => {
      resolvedWith = [...handled];
      return result;
    });
    const sent = await transport.next();
    transport.deliver(update(1));
    transport.deliver(update(2));
    transport.deliver(update(3));
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { stopReason: "end_turn" } });
    await settle();
    expect(resolvedWith).toBeUndefined();
    expect(handled).toEqual(["u1"]);
    gate.resolve();
    expect(await prompt).toEqual({ stopReason: "end_turn" });
    expect(resolvedWith).toEqual(["u1", "u2", "u3"]);
  });

  it("delivers 10,000 notifications in wire order, mixing sync and async handling", async () => {
    const { transport, connection } = scripted({ side: "client", version: 2 });
    const seen: number[] = [];
    connection.onNotification("session/update", (params) => {
      const n = Number(params.update.sessionUpdate.slice(1));
      seen.push(n);
      // Every 97th handler is async, so later messages pile up in the queue behind it.
      if (n % 97 === 0) return Promise.resolve();
    });
    for (let n = 0; n < 10_000; n++) transport.deliver(update(n));
    await settle(500);
    expect(seen).toHaveLength(10_000);
    expect(seen.every((n, i) => n === i)).toBe(true);
  });

  it("starts request handlers in order without waiting for them", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const started: string[] = [];
    const gate = deferred();
    connection.onRequest("session/new", async (params: { cwd: string }) => {
      started.push(params.cwd);
      if (params.cwd === "/slow") await gate.promise;
      return { sessionId: params.cwd };
    });
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/slow" } });
    transport.deliver({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/fast" } });
    expect(await transport.next()).toMatchObject({ id: 2, result: { sessionId: "/fast" } });
    expect(started).toEqual(["/slow", "/fast"]);
    gate.resolve();
    expect(await transport.next()).toMatchObject({ id: 1, result: { sessionId: "/slow" } });
  });

  it("handles a message that a handler caused synchronously after the current one", () => {
    const { transport, connection } = scripted({ side: "client", version: 2 });
    const log: string[] = [];
    connection.onNotification("session/update", (params) => {
      const tag = params.update.sessionUpdate;
      log.push(`start ${tag}`);
      if (tag === "u1") transport.deliver(update(2)); // re-entrant delivery
      log.push(`end ${tag}`);
    });
    transport.deliver(update(1));
    expect(log).toEqual(["start u1", "end u1", "start u2", "end u2"]);
  });
});

describe("IncomingQueue", () => {
  it("processes synchronously when idle, and queues behind a pending promise", async () => {
    const processed: number[] = [];
    const gates = new Map<number, ReturnType<typeof deferred<void>>>();
    const queue = new IncomingQueue<number>((n) => {
      processed.push(n);
      return gates.get(n)?.promise;
    });
    queue.push(1);
    expect(processed).toEqual([1]);
    gates.set(2, deferred());
    queue.push(2);
    queue.push(3);
    queue.push(4);
    expect(processed).toEqual([1, 2]);
    expect(queue.size).toBe(2);
    gates.get(2)!.resolve();
    await settle();
    expect(processed).toEqual([1, 2, 3, 4]);
    expect(queue.size).toBe(0);
  });

  it("keeps going after an item whose promise rejects or whose processing throws", async () => {
    const processed: number[] = [];
    const queue = new IncomingQueue<number>((n) => {
      processed.push(n);
      if (n === 1) return Promise.reject(new Error("x"));
      if (n === 2) throw new Error("y");
    });
    queue.push(1);
    queue.push(2);
    queue.push(3);
    await settle();
    expect(processed).toEqual([1, 2, 3]);
  });

  it("stays in order across a long blocked stretch (compaction)", async () => {
    const processed: number[] = [];
    const gate = deferred();
    const queue = new IncomingQueue<number>((n) => {
      processed.push(n);
      if (n === 0 || n === 3000) return gate.promise;
    });
    for (let n = 0; n < 6000; n++) queue.push(n);
    gate.resolve();
    await settle();
    for (let n = 6000; n < 7000; n++) queue.push(n);
    await settle();
    expect(processed).toHaveLength(7000);
    expect(processed.every((n, i) => n === i)).toBe(true);
  });
});
