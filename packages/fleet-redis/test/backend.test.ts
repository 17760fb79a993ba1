// The FleetBackend contract on a real redis-server (started here on a free loopback port).
import { fleetBackendSuite } from "@acpkit/test-support/fleet-backend-suite";
import { hasRedisServer, type RedisServer, startRedisServer } from "@acpkit/test-support/redis";
import { afterAll, beforeAll, describe } from "vitest";
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
