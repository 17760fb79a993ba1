// docs/protocol.md E8: what a peer can make a Connection hold is bounded. Requests beyond
// `maxRunningRequests` are answered at once with -32603 "too_many_requests" (never paused: a running
// handler may be waiting on the peer's answer to one of our requests), and messages waiting behind a
// slow async notification handler pause the transport's input past a high-water mark.
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_RUNNING_REQUESTS, INCOMING_BACKLOG_HIGH_WATER } from "../src/index.js";
import { ErrorCode } from "../src/errors.js";
import { deferred, scripted, settle } from "./helpers/transports.js";

const newSession = (id: number) => ({ jsonrpc: "2.0", id, method: "session/new", params: { cwd: "/" } });

/** Makes every session/new wait until `release()`; `started` counts the handlers that ran. */
function holdSessionNew(connection: ReturnType<typeof scripted>["connection"]) {
  const gate = deferred<void>();
  const held = { started: 0, release: () => gate.resolve() };
  connection.onRequest("session/new", async () => {
    held.started++;
    await gate.promise;
    return { sessionId: "s" };
  });
  return held;
}

describe("E8: running requests are limited per connection", () => {
  it("answers requests over maxRunningRequests at once with -32603 and keeps serving the rest", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1, maxRunningRequests: 2 });
    const gates = [deferred<void>(), deferred<void>()];
    let started = 0;
    connection.onRequest("session/new", async () => {
      const gate = gates[started++]!;
      await gate.promise;
      return { sessionId: `s${started}` };
    });
    for (const id of [1, 2, 3, 4]) transport.deliver(newSession(id));
    await settle();
    expect(started).toBe(2);
    const refusals = transport.unread;
    expect(refusals.map((m) => m.id)).toEqual([3, 4]);
    for (const refusal of refusals) {
      expect(refusal.error.code).toBe(ErrorCode.InternalError);
      expect(refusal.error.data).toEqual({ reason: "too_many_requests", limit: 2 });
      expect(refusal.error.message).toMatch(/^Too many requests: 2 requests from this peer are still running/);
    }
    expect(diagnostics.filter((d) => d.code === "too_many_requests")).toHaveLength(2);
    await transport.next();
    await transport.next();

    // Once one is answered, the next request runs again.
    gates[0]!.resolve();
    expect(await transport.next()).toMatchObject({ id: 1, result: {} });
    gates.push(deferred<void>());
    transport.deliver(newSession(5));
    await settle();
    expect(started).toBe(3);
    expect(transport.unread).toEqual([]);
  });

  it("holds the default limit of DEFAULT_MAX_RUNNING_REQUESTS", async () => {
    expect(DEFAULT_MAX_RUNNING_REQUESTS).toBe(1024);
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const held = holdSessionNew(connection);
    for (let id = 1; id <= DEFAULT_MAX_RUNNING_REQUESTS + 5; id++) transport.deliver(newSession(id));
    await settle();
    expect(held.started).toBe(DEFAULT_MAX_RUNNING_REQUESTS);
    expect(transport.unread.map((m) => [m.id, m.error?.data?.reason])).toEqual([1025, 1026, 1027, 1028, 1029].map((id) => [id, "too_many_requests"]));
    held.release();
    await settle();
    expect(transport.sent.filter((m) => m.result !== undefined)).toHaveLength(DEFAULT_MAX_RUNNING_REQUESTS);
  });

  it("null lifts the limit", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1, maxRunningRequests: null });
    const held = holdSessionNew(connection);
    for (let id = 1; id <= DEFAULT_MAX_RUNNING_REQUESTS + 1; id++) transport.deliver(newSession(id));
    await settle();
    expect(held.started).toBe(DEFAULT_MAX_RUNNING_REQUESTS + 1);
    expect(transport.sent).toEqual([]);
    held.release();
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "10"])("refuses maxRunningRequests %s with a TypeError naming the option", (value) => {
    expect(() => scripted({ side: "agent", version: 1, maxRunningRequests: value as number })).toThrow(
      /options\.maxRunningRequests must be a positive integer or null/,
    );
  });
});

describe("E8: a backlog behind a slow notification handler pauses input", () => {
  it("pauses once INCOMING_BACKLOG_HIGH_WATER messages wait and resumes at half of that, losing none", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const gate = deferred<void>();
    const seen: number[] = [];
    let first = true;
    connection.onNotification("session/cancel", async (params: { sessionId: string }) => {
      seen.push(Number(params.sessionId));
      if (first) {
        first = false;
        await gate.promise;
      }
    });
    // One message runs (and blocks), the rest wait: the pause comes with the high-water-th waiting one.
    for (let n = 0; n < INCOMING_BACKLOG_HIGH_WATER; n++) transport.deliver({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: String(n) } });
    expect(transport.flow).toEqual([]);
    transport.deliver({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: String(INCOMING_BACKLOG_HIGH_WATER) } });
    expect(transport.flow).toEqual(["pause"]);
    // A transport may deliver a few more after pause(); they are kept too.
    transport.deliver({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: String(INCOMING_BACKLOG_HIGH_WATER + 1) } });
    expect(transport.flow).toEqual(["pause"]);
    const waitingAtResume: number[] = [];
    const total = INCOMING_BACKLOG_HIGH_WATER + 2;
    const resume = transport.resume.bind(transport);
    transport.resume = () => {
      waitingAtResume.push(total - seen.length);
      resume();
    };
    gate.resolve();
    // Each async handler holds the queue for a few microtasks: wait until everything was handled.
    for (let round = 0; round < 200 && seen.length < INCOMING_BACKLOG_HIGH_WATER + 2; round++) await settle();
    expect(transport.flow).toEqual(["pause", "resume"]);
    expect(waitingAtResume).toEqual([INCOMING_BACKLOG_HIGH_WATER / 2]);
    expect(seen).toEqual(Array.from({ length: INCOMING_BACKLOG_HIGH_WATER + 2 }, (_, n) => n));
  });
});
