// The FleetBackend contract on a real redis-server (started here on a free loopback port).
import { fleetBackendSuite } from "@acpkit/test-support/fleet-backend-suite";
import { hasRedisServer, type RedisServer, startRedisServer } from "@acpkit/test-support/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisFleetBackend } from "../src/index.js";

let server: RedisServer;
let fleets = 0;

describe.skipIf(!hasRedisServer)("on redis-server", () => {
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.dispose();
  });
  fleetBackendSuite("RedisFleetBackend", async () => new RedisFleetBackend({ url: server.url, prefix: `contract-${++fleets}:` }));
});

describe.skipIf(!hasRedisServer)("RT37: an operation sent twice (a resend after a lost reply) has one effect", () => {
  let own: RedisServer;
  beforeAll(async () => {
    own = await startRedisServer();
  });
  afterAll(async () => {
    await own?.dispose();
  });

  it("the adopting node asking again gets the same adoption, not nothing; another node gets nothing", async () => {
    const backend = new RedisFleetBackend({ url: own.url, prefix: "resend:" });
    try {
      await backend.heartbeat("dead", 1);
      await backend.openConnection({ connectionId: "c1", owner: "dead", epoch: 0, initialize: "{}" });
      await backend.addPending("c1", { key: "n1", id: 1 });
      await expect.poll(() => backend.isAlive("dead"), { timeout: 10_000 }).toBe(false);
      await backend.heartbeat("b", 60_000);
      const first = await backend.adopt("c1", "b");
      expect(first?.pending).toEqual([{ key: "n1", id: 1 }]);
      expect(await backend.adopt("c1", "b")).toEqual(first);
      expect(await backend.adopt("c1", "c")).toBeUndefined();
    } finally {
      await backend.close();
    }
  });

  it("a forwarded message and an append, each sent twice, arrive once", async () => {
    const backend = new RedisFleetBackend({ url: own.url, prefix: "resend2:" });
    const received: string[] = [];
    const inbox = backend.receive("a", (_connection, message) => received.push(message));
    try {
      await backend.heartbeat("a", 60_000);
      await backend.openConnection({ connectionId: "c1", owner: "a", epoch: 0, initialize: "{}" });
      const ref = { connectionId: "c1" };
      await Promise.all([
        backend.append(ref, "a", 0, 1, ["x"], [], { maxEvents: 0, maxChars: 0 }),
        backend.append(ref, "a", 0, 1, ["x"], [], { maxEvents: 0, maxChars: 0 }),
      ]);
      expect((await backend.read(ref, 0, 1000)).events).toEqual([{ id: 1, text: "x" }]);
      expect(await backend.forward("c1", "m", undefined)).toBe("sent");
      await expect.poll(() => received, { timeout: 10_000 }).toEqual(["m"]);
    } finally {
      await inbox.stop();
      await backend.close();
    }
  });
});
