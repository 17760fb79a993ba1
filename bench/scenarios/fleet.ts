// The fleet of endpoint nodes (docs/remote.md §7):
// - stream-fleet-memory and stream-fleet-redis: the stream scenario (one prompt, many
//   agent_message_chunk updates, validation on) through one fleet node whose state is in a
//   MemoryFleetBackend or on a redis-server started here; the Redis figure over the in-memory one
//   is the "Redis fleet against the in-memory backend" (target ≥ 0.5);
// - failover: two `acpkit serve --redis --node-timeout 1000` nodes, a client whose requests and
//   streams go to node B while node A runs its agent; a turn runs, A is killed with SIGKILL, and the
//   time until the client has the turn's error, and until its next turn has run on B, is taken.
//   Then a fresh node takes A's place and it repeats. Reported: p50 and p99 over the kills.
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REDIS_URL_ENV } from "../lib/impl.js";
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { percentile } from "../lib/stats.js";
// Reached by path: the bench is private and never published.
import { hasRedisServer, type RedisServer, startRedisServer } from "../../test-support/redis.js";
import type { BenchConfig, Scenario } from "./config.js";
import { streamScenario } from "./stream.js";

const NO_REDIS = "redis-server is not installed (.ci/run installs Debian's)";

/** The stream scenario on a fleet node; with Redis, a server of its own for the scenario's length. */
export function streamFleetScenario(backend: "memory" | "redis"): Scenario {
  const inner = streamScenario(`fleet-${backend}`);
  if (backend === "memory") return inner;
  return {
    ...inner,
    async run(config) {
      if (!hasRedisServer) {
        const base = { impl: "acpkit" as const, metric: "throughput", unit: "updates/s", n: config.streamUpdates, better: "higher" as const };
        return inner.names.map((scenario) => skippedRecord({ ...base, scenario }, NO_REDIS));
      }
      const redis = await startRedisServer();
      process.env[REDIS_URL_ENV] = redis.url;
      try {
        return await inner.run(config);
      } finally {
        delete process.env[REDIS_URL_ENV];
        await redis.dispose();
      }
    },
  };
}

const CLI = fileURLToPath(new URL("../../packages/cli/dist/bin.js", import.meta.url));
const NODE_TIMEOUT_MS = 1000;

interface Node {
  readonly url: string;
  readonly child: ChildProcess;
}

/** One `acpkit serve --redis` node running the built-in agent with its sessions in `store`; resolves once it serves. */
async function startNode(redis: RedisServer, nodeId: string, store: string): Promise<Node> {
  const serve = ["serve", "--listen", "127.0.0.1:0", "--redis", redis.url, "--node-id", nodeId, "--node-timeout", String(NODE_TIMEOUT_MS)];
  const child = spawn(process.execPath, [CLI, ...serve, "--", process.execPath, CLI, "agent", "--store", store], { stdio: ["ignore", "pipe", "ignore"] });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      output += text;
      const line = /^serving: (\S+)$/m.exec(output);
      if (line) resolve(line[1]!);
    });
    child.once("exit", (code) => reject(new Error(`acpkit serve exited with ${code} before serving`)));
  });
  return { url, child };
}

async function stopNode(node: Node): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  const exited = once(node.child, "exit");
  node.child.kill("SIGKILL");
  await exited;
}

/** kill → the turn's error, and kill → the next turn done, in ms, for each of `kills` kills. */
async function measureFailover(redis: RedisServer, kills: number, log: (line: string) => void): Promise<{ error: number[]; next: number[] }> {
  const { connectAgent } = await import("@acpkit/client");
  const { connectHttp } = await import("@acpkit/transport-http");
  // The agents' sessions, shared by the nodes as a real agent's session files would be: the node
  // that adopts a connection resumes its session from here.
  const store = await mkdtemp(join(tmpdir(), "acpkit-bench-store-"));
  const b = await startNode(redis, `bench-b-${process.pid}`, store);
  const error: number[] = [];
  const next: number[] = [];
  try {
    for (let kill = 0; kill < kills; kill++) {
      const a = await startNode(redis, `bench-a-${process.pid}-${kill}`, store);
      // initialize to A (it runs the agent), everything else to B.
      const spread: typeof fetch = (_input, init) => fetch(typeof init?.body === "string" && init.body.includes('"method":"initialize"') ? a.url : b.url, init);
      const agent = await connectAgent(connectHttp(b.url, { fetch: spread }));
      try {
        const session = await agent.newSession({ cwd: "/" });
        const running = session.prompt("/wait").then(
          () => performance.now(),
          () => performance.now(),
        );
        while (!JSON.stringify(session.state.toJSON()).includes("Waiting until")) await new Promise((resolve) => setTimeout(resolve, 5));
        const killed = performance.now();
        a.child.kill("SIGKILL");
        const failed = await running;
        await session.prompt("/echo after the move");
        const done = performance.now();
        error.push(failed - killed);
        next.push(done - killed);
        log(`  failover kill ${kill + 1}: error after ${Math.round(failed - killed)} ms, next turn done after ${Math.round(done - killed)} ms`);
      } finally {
        await agent.close();
        await stopNode(a);
      }
    }
  } finally {
    await stopNode(b);
    await rm(store, { recursive: true, force: true });
  }
  return { error, next };
}

export const failoverScenario: Scenario = {
  names: ["failover"],
  impls: ["acpkit"],
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const kills = config.quick ? 2 : 10;
    const base = { scenario: "failover", impl: "acpkit" as const, unit: "ms", n: kills, better: "lower" as const };
    const metrics = ["error-p50", "error-p99", "next-turn-p50", "next-turn-p99"];
    if (!hasRedisServer) return metrics.map((metric) => skippedRecord({ ...base, metric }, NO_REDIS));
    const redis = await startRedisServer();
    try {
      const { error, next } = await measureFailover(redis, kills, config.log);
      // Every kill is a sample; the p99 records keep them and state the 99th percentile as their value.
      const p99 = (metric: string, samples: number[]) => ({ ...recordFromSamples({ ...base, metric }, samples), value: percentile(samples, 99) });
      return [
        recordFromSamples({ ...base, metric: "error-p50" }, error),
        p99("error-p99", error),
        recordFromSamples({ ...base, metric: "next-turn-p50" }, next),
        p99("next-turn-p99", next),
      ];
    } finally {
      await redis.dispose();
    }
  },
};
