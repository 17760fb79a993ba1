// The promises every FleetBackend keeps (the invariants at the top of transport-http's
// fleet/backend.ts), run against each backend: the in-memory one and the Redis one. Each test gets
// a fresh backend from `create`, which the suite closes afterwards.
// The types by path to the build, type-only: transport-http's tests use this package, so a package dependency
// back would be a cycle.
import type { FleetBackend, StreamRef } from "../packages/transport-http/dist/index.js";
import { describe, expect, it } from "vitest";

const KEEP_NONE = { maxEvents: 0, maxChars: 0 };
const KEEP = { maxEvents: 3, maxChars: 1_000_000 };

let connections = 0;
/** A connection owned by `owner` (alive), with its connection stream. */
async function open(backend: FleetBackend, owner = "node-a"): Promise<StreamRef> {
  const connectionId = `conn-${process.pid}-${++connections}-${Date.now()}`;
  await backend.heartbeat(owner, 60_000);
  await backend.openConnection({ connectionId, owner, epoch: 0, initialize: '{"jsonrpc":"2.0","id":0,"method":"initialize"}' });
  return { connectionId };
}

export function fleetBackendSuite(name: string, create: () => Promise<FleetBackend>): void {
  const withBackend = (test: (backend: FleetBackend) => Promise<void>) => async () => {
    const backend = await create();
    try {
      await test(backend);
    } finally {
      await backend.close();
    }
  };

  describe(`FleetBackend contract: ${name}`, () => {
    it(
      "appends get consecutive ids; a repeated (epoch, seq) is a no-op; a reader reads them in order once",
      withBackend(async (backend) => {
        const ref = await open(backend);
        await backend.append(ref, "node-a", 0, 1, ["one", "two"], [], KEEP_NONE);
        const repeated = await backend.append(ref, "node-a", 0, 1, ["one", "two"], [], KEEP_NONE);
        expect(repeated).toEqual({ fenced: false, unreadChars: 6 });
        await backend.append(ref, "node-a", 0, 2, ["three"], [], KEEP_NONE);
        const start = await backend.openReader(ref, "r1", 10_000, undefined);
        expect(start).toEqual({ after: 0 });
        const read = await backend.read(ref, 0, 1_000_000);
        expect(read.events).toEqual([
          { id: 1, text: "one" },
          { id: 2, text: "two" },
          { id: 3, text: "three" },
        ]);
        await backend.advance(ref, "r1", 3, 11, KEEP_NONE);
        expect(await backend.unreadChars(ref)).toBe(0);
        expect((await backend.read(ref, 3, 1_000_000)).events).toEqual([]);
      }),
    );

    it(
      "a batch read stops near maxChars but returns at least one event",
      withBackend(async (backend) => {
        const ref = await open(backend);
        await backend.append(ref, "node-a", 0, 1, ["x".repeat(10), "y".repeat(10), "z"], [], KEEP_NONE);
        expect((await backend.read(ref, 0, 15)).events.map((event) => event.id)).toEqual([1]);
        expect((await backend.read(ref, 0, 5)).events.map((event) => event.id)).toEqual([1]);
        expect((await backend.read(ref, 0, 20)).events.map((event) => event.id)).toEqual([1, 2]);
        expect((await backend.read(ref, 0, 21)).events.map((event) => event.id)).toEqual([1, 2, 3]);
      }),
    );

    it(
      "a read may start inside an append and stop inside one; ids stay per message",
      withBackend(async (backend) => {
        const ref = await open(backend);
        await backend.append(ref, "node-a", 0, 1, ["a", "b", "c", "d", "e"], [], KEEP);
        await backend.append(ref, "node-a", 0, 2, ["f", "g"], [], KEEP);
        expect((await backend.read(ref, 2, 1_000_000)).events.map((event) => `${event.id}${event.text}`)).toEqual(["3c", "4d", "5e", "6f", "7g"]);
        expect((await backend.read(ref, 5, 1_000_000)).events.map((event) => `${event.id}${event.text}`)).toEqual(["6f", "7g"]);
        expect((await backend.read(ref, 1, 2)).events.map((event) => event.id)).toEqual([2, 3]);
        await backend.openReader(ref, "r1", 10_000, undefined);
        await backend.advance(ref, "r1", 3, 3, KEEP);
        expect(await backend.unreadChars(ref)).toBe(4);
      }),
    );

    it(
      "one reader at a time; the lease passes on release",
      withBackend(async (backend) => {
        const ref = await open(backend);
        expect(await backend.openReader(ref, "r1", 10_000, undefined)).toEqual({ after: 0 });
        expect(await backend.openReader(ref, "r2", 10_000, undefined)).toBe("busy");
        expect(await backend.renewReader(ref, "r2", 10_000)).toBe(false);
        expect(await backend.renewReader(ref, "r1", 10_000)).toBe(true);
        await backend.releaseReader(ref, "r1");
        expect(await backend.openReader(ref, "r2", 10_000, undefined)).toEqual({ after: 0 });
        expect(await backend.openReader({ connectionId: "no-such-connection" }, "r3", 10_000, undefined)).toBe("gone");
        // At most maxStreams streams per connection: a new one past it is refused, existing ones stay open.
        expect(await backend.openReader({ ...ref, sessionId: "s1" }, "r4", 10_000, undefined, 2)).toEqual({ after: 0 });
        expect(await backend.openReader({ ...ref, sessionId: "s2" }, "r5", 10_000, undefined, 2)).toBe("full");
        await backend.releaseReader(ref, "r2");
        expect(await backend.openReader(ref, "r6", 10_000, undefined, 2)).toEqual({ after: 0 });
      }),
    );

    it(
      "retention keeps the last handed-out events for a returning reader; older ones are a gap; unread ones are never trimmed",
      withBackend(async (backend) => {
        const ref = await open(backend);
        // One append per event: a backend may keep whole appends, so a window is exact only at their edges.
        for (let index = 1; index <= 8; index++) await backend.append(ref, "node-a", 0, index, [`e${index}`], [], KEEP);
        await backend.openReader(ref, "r1", 10_000, undefined);
        await backend.advance(ref, "r1", 6, 12, KEEP);
        await backend.releaseReader(ref, "r1");
        // Events 4–6 are kept (3), 7–8 unread; a reader back from event 5 gets 6, 7, 8.
        expect(await backend.openReader(ref, "r2", 10_000, 5)).toEqual({ after: 5 });
        expect((await backend.read(ref, 5, 1_000_000)).events.map((event) => event.text)).toEqual(["e6", "e7", "e8"]);
        await backend.releaseReader(ref, "r2");
        // From event 1: 2 and 3 are gone.
        expect(await backend.openReader(ref, "r3", 10_000, 1)).toEqual({ after: 1, gap: { from: 2, to: 3 } });
        expect((await backend.read(ref, 1, 1_000_000)).events.map((event) => event.id)).toEqual([4, 5, 6, 7, 8]);
        expect(await backend.unreadChars(ref)).toBe(4);
      }),
    );

    it(
      "an append from a node that is not the owner, or from an old epoch, is fenced and changes nothing",
      withBackend(async (backend) => {
        const ref = await open(backend);
        expect((await backend.append(ref, "node-b", 0, 1, ["stray"], [], KEEP_NONE)).fenced).toBe(true);
        expect((await backend.append(ref, "node-a", 1, 1, ["stray"], [], KEEP_NONE)).fenced).toBe(true);
        expect((await backend.read(ref, 0, 1_000_000)).events).toEqual([]);
        expect((await backend.append({ connectionId: "no-such-connection" }, "node-a", 0, 1, ["x"], [], KEEP_NONE)).fenced).toBe(true);
      }),
    );

    it(
      "forward: to a live owner's inbox in order, recording the pending request; orphaned when the owner is dead; gone when unknown",
      withBackend(async (backend) => {
        const ref = await open(backend);
        const received: string[] = [];
        const inbox = backend.receive("node-a", (connectionId, message) => {
          if (connectionId === ref.connectionId) received.push(message);
        });
        try {
          for (let index = 0; index < 5; index++)
            expect(await backend.forward(ref.connectionId, `m${index}`, index === 2 ? { key: "n2", id: 2 } : undefined)).toBe("sent");
          await expect.poll(() => received, { timeout: 10_000 }).toEqual(["m0", "m1", "m2", "m3", "m4"]);
          expect(await backend.forward("no-such-connection", "m", undefined)).toBe("gone");
          await backend.heartbeat("node-a", 1);
          await expect.poll(() => backend.isAlive("node-a"), { timeout: 10_000 }).toBe(false);
          expect(await backend.forward(ref.connectionId, "late", undefined)).toBe("orphaned");
          // The pending request is the adopter's to answer; an answered one is not.
          await backend.addPending(ref.connectionId, { key: "n7", id: 7, sessionId: "s1" });
          await backend.append(ref, "node-a", 0, 1, ["answer to 7"], ["n7"], KEEP_NONE);
          await backend.setSession(ref.connectionId, "s1", '{"cwd":"/tmp"}');
          expect(await backend.orphans()).toContain(ref.connectionId);
          await backend.heartbeat("node-b", 60_000);
          const [first, second] = await Promise.all([backend.adopt(ref.connectionId, "node-b"), backend.adopt(ref.connectionId, "node-c")]);
          const adoption = first ?? second;
          expect(first === undefined || second === undefined).toBe(true);
          expect(adoption?.record).toMatchObject({ connectionId: ref.connectionId, epoch: 1 });
          expect(adoption?.pending).toEqual([{ key: "n2", id: 2 }]);
          expect(adoption?.sessions).toEqual([{ sessionId: "s1", params: '{"cwd":"/tmp"}' }]);
          expect(await backend.orphans()).not.toContain(ref.connectionId);
          // The old owner is fenced now.
          expect((await backend.append(ref, "node-a", 0, 2, ["stale"], [], KEEP_NONE)).fenced).toBe(true);
        } finally {
          await inbox.stop();
        }
      }),
    );

    it(
      "ending a connection ends its streams after what they hold; a waiting reader wakes",
      withBackend(async (backend) => {
        const ref = await open(backend);
        await backend.openReader(ref, "r1", 10_000, undefined);
        const waiting = backend.waitForEvents(ref, 0, AbortSignal.timeout(30_000));
        await backend.append(ref, "node-a", 0, 1, ["last"], [], KEEP_NONE);
        await waiting;
        await backend.endConnection(ref.connectionId, "the client ended the connection (DELETE)");
        expect((await backend.read(ref, 0, 1_000_000)).events.map((event) => event.text)).toEqual(["last"]);
        expect(await backend.read(ref, 1, 1_000_000)).toEqual({ events: [], ended: "the client ended the connection (DELETE)" });
        expect(await backend.connection(ref.connectionId)).toBeUndefined();
      }),
    );
  });
}
