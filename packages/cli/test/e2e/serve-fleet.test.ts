// `acpkit serve --redis` processes forming one fleet on a real redis-server (docs/remote.md §7):
// a client whose requests and streams go to different nodes; the node that runs the agent killed
// with SIGKILL in the middle of a turn; Redis stopped and started in the middle of a stream. The
// agent is the built-in one with a session store all nodes share, as a real agent's session files
// would be.
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectAgent } from "@acpkit/client";
import { isRpcError } from "@acpkit/core";
import { hasRedisServer, type RedisServer, startRedisServer } from "@acpkit/test-support/redis";
import { connectHttp, NODE_LOST_DATA_KEY } from "@acpkit/transport-http";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILTIN_AGENT } from "../support/cli.js";
import { startServe } from "../support/serve.js";

let redis: RedisServer;
let store: string;

/** Start `count` nodes of one fleet (a Redis key prefix of their own is not needed: each test has its own nodes and connections). */
async function startFleet(context: TestContext, count: number, agentFlags: readonly string[] = [], nodeTimeout = "1000") {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      startServe(
        context,
        ["--listen", "127.0.0.1:0", "--redis", redis.url, "--node-id", `node-${context.task.id}-${index}`, "--node-timeout", nodeTimeout],
        [...BUILTIN_AGENT, "--store", store, ...agentFlags],
      ),
    ),
  );
}

/**
 * A fetch that sends initialize to `owner` (which then runs the agent), the other POSTs to `posts`
 * and the GET streams to `streams`: the client's requests spread over the fleet.
 */
function spread(owner: string, posts: string, streams: string): typeof fetch {
  return (_input, init) => {
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? init.body : "";
    const target = method === "POST" && body.includes('"method":"initialize"') ? owner : method === "GET" ? streams : posts;
    return fetch(target, init);
  };
}

const textOf = (session: { state: { toJSON(): unknown } }) => JSON.stringify(session.state.toJSON());

describe.skipIf(!hasRedisServer)("acpkit serve --redis: a fleet", () => {
  beforeAll(async () => {
    redis = await startRedisServer();
    store = await mkdtemp(join(tmpdir(), "acpkit-fleet-store-"));
  });
  afterAll(async () => {
    await redis?.dispose();
    await rm(store, { recursive: true, force: true });
  });

  it("RT30: three nodes: initialize on one (it runs the agent), POSTs to a second, streams from a third; a whole turn with a permission request", async (context) => {
    const [one, two, three] = await startFleet(context, 3);
    const agent = await connectAgent(connectHttp(two!.url, { fetch: spread(one!.url, two!.url, three!.url) }), {
      requestPermission: (request) => ({ outcome: "selected", optionId: request.options[0]!.optionId }),
    });
    context.onTestFinished(() => agent.close());
    const session = await agent.newSession({ cwd: store });
    expect((await session.prompt("/permission")).stopReason).toBe("end_turn");
    expect((await session.prompt("/echo across the fleet")).stopReason).toBe("end_turn");
    expect(textOf(session)).toContain("across the fleet");
    expect(one!.stderr()).toMatch(/starting /);
    expect(two!.stderr()).not.toMatch(/starting /);
    expect(three!.stderr()).not.toMatch(/starting /);
  });

  // Ten times in a row in every run: a failover that works nine times in ten is a defect (the issue
  // asks for ten runs without a flake).
  it.for(Array.from({ length: 10 }, (_, index) => index + 1))(
    "RT34–RT35 (kill %i of 10): the node running the agent is killed (SIGKILL) mid-turn: the turn ends with a clear error, and the session goes on on another node",
    async (_kill, context) => {
      const [owner, other] = await startFleet(context, 2);
      const agent = await connectAgent(connectHttp(other!.url, { fetch: spread(owner!.url, other!.url, other!.url) }));
      context.onTestFinished(() => agent.close());
      const session = await agent.newSession({ cwd: store });
      expect((await session.prompt("/echo before")).stopReason).toBe("end_turn");
      const running = session.prompt("/wait");
      const failed = running.then(
        () => undefined,
        (error: unknown) => error,
      );
      await context.expect.poll(() => textOf(session), { timeout: 20_000 }).toContain("Waiting until the turn is cancelled");
      owner!.serve.kill("SIGKILL");
      const error = await failed;
      expect(isRpcError(error)).toBe(true);
      expect((error as { data?: Record<string, unknown> }).data?.[NODE_LOST_DATA_KEY]).toBe(true);
      expect((error as Error).message).toMatch(/stopped before answering/);
      // The other node adopted the connection: its agent process resumed the session from the store.
      await context.expect.poll(() => other!.stderr(), { timeout: 20_000 }).toMatch(/starting /);
      expect((await session.prompt("/echo after the move")).stopReason).toBe("end_turn");
      expect(textOf(session)).toContain("after the move");
    },
  );

  it("RT39: SIGTERM on the node running the agent hands the connection over: serve exits 0, and the session goes on on another node", async (context) => {
    // A node timeout far beyond the test's waits: only the hand-over can move the connection in time.
    const [owner, other] = await startFleet(context, 2, [], "600000");
    const agent = await connectAgent(connectHttp(other!.url, { fetch: spread(owner!.url, other!.url, other!.url) }));
    context.onTestFinished(() => agent.close());
    const session = await agent.newSession({ cwd: store });
    expect((await session.prompt("/echo before")).stopReason).toBe("end_turn");
    owner!.serve.kill("SIGTERM");
    const [code] = await once(owner!.serve, "exit");
    expect(code).toBe(0);
    await context.expect.poll(() => other!.stderr(), { timeout: 20_000 }).toMatch(/starting /);
    expect((await session.prompt("/echo after the hand-over")).stopReason).toBe("end_turn");
    expect(textOf(session)).toContain("after the hand-over");
  });

  it("RT37: Redis stopped and started during a streamed turn: every chunk arrives once, in order", async (context) => {
    const [owner, other] = await startFleet(context, 2, ["--chunk-delay", "10"]);
    const agent = await connectAgent(connectHttp(other!.url, { fetch: spread(owner!.url, other!.url, other!.url) }));
    context.onTestFinished(() => agent.close());
    const session = await agent.newSession({ cwd: store });
    const turn = session.prompt("/stream 300");
    const chunks = () => (textOf(session).match(/\d+ the quick/g) ?? []).length;
    await context.expect.poll(chunks, { timeout: 20_000 }).toBeGreaterThan(20);
    await redis.stop();
    await redis.start();
    expect((await turn).stopReason).toBe("end_turn");
    const labels = [...textOf(session).matchAll(/(\d+) the quick/g)].map((match) => Number(match[1]));
    expect(labels).toEqual(Array.from({ length: 300 }, (_, index) => index));
  });
});
