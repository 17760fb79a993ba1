// Scenario idle-http: what idle connections cost the node that serves them. One agent process
// behind the RFD's remote endpoint (acpkit: serveEndpoint + serveAgent; official: AcpServer behind
// its node adapter), `clients` connections (1,000; 50 with --quick) that each initialize over
// HTTP+SSE and keep their connection stream open, doing nothing else. Reported: the agent process's
// resident memory per open connection (VmRSS after minus before, Linux only), and after a GC the
// endpoint cannot trigger itself, so the figure is what the connections hold, plus what the
// allocator keeps. Rounds alternate between the two servers.
import { existsSync, readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { agentScript, spawnAgent, stopAgent, waitForPort } from "../lib/child.js";
import type { ImplName } from "../lib/impl.js";
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const IMPLS = ["acpkit", "official"] as const satisfies readonly ImplName[];
const SCRIPTS: Record<(typeof IMPLS)[number], string> = { acpkit: "acpkit-agent.mjs", official: "official-agent.mjs" };
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });

function rssKiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb);
}

/** POST initialize; the connection id. */
function initialize(port: number, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path: "/acp", method: "POST", agent, headers: { "Content-Type": "application/json" } }, (incoming) => {
      incoming.resume();
      const id = incoming.headers["acp-connection-id"];
      incoming.once("end", () =>
        typeof id === "string" ? resolve(id) : reject(new Error(`initialize answered ${incoming.statusCode} without a connection id`)),
      );
    });
    outgoing.once("error", reject);
    outgoing.end(INITIALIZE);
  });
}

/** GET the connection stream and leave it open; resolves once its headers arrived. */
function openStream(port: number, agent: Agent, connectionId: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: "127.0.0.1", port, path: "/acp", method: "GET", agent, headers: { Accept: "text/event-stream", "Acp-Connection-Id": connectionId } },
      (incoming) => {
        if (incoming.statusCode !== 200) return reject(new Error(`the connection stream answered ${incoming.statusCode}`));
        incoming.resume();
        resolve(() => outgoing.destroy());
      },
    );
    outgoing.once("error", reject);
    outgoing.end();
  });
}

async function runOnce(impl: (typeof IMPLS)[number], clients: number): Promise<number> {
  const child = spawnAgent(agentScript(SCRIPTS[impl]), ["http"]);
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const closers: (() => void)[] = [];
  try {
    const port = await waitForPort(child);
    // One connection first, so what every server pays once (its first connection) is not counted.
    closers.push(await openStream(port, agent, await initialize(port, agent)));
    const before = rssKiB(child.pid!);
    for (let index = 0; index < clients; index += 50) {
      const ids = await Promise.all(Array.from({ length: Math.min(50, clients - index) }, () => initialize(port, agent)));
      closers.push(...(await Promise.all(ids.map((id) => openStream(port, agent, id)))));
    }
    return (rssKiB(child.pid!) - before) / clients;
  } finally {
    for (const close of closers) close();
    agent.destroy();
    await stopAgent(child);
  }
}

export const idleHttpScenario: Scenario = {
  names: ["idle-http"],
  impls: IMPLS,
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const clients = config.quick ? 50 : 999; // the first connection is opened before measuring: 1,000 in all
    const rounds = config.quick ? 2 : 3;
    const samples = new Map<string, number[]>(IMPLS.map((impl) => [impl, []]));
    const failed = new Map<string, string>();
    const linux = existsSync("/proc/self/status");
    for (let round = 0; linux && round < rounds; round++) {
      const order = round % 2 === 0 ? IMPLS : [...IMPLS].reverse();
      for (const impl of order) {
        if (failed.has(impl)) continue;
        try {
          const perConnection = await runOnce(impl, clients);
          samples.get(impl)!.push(perConnection);
          config.log(`  idle-http round ${round + 1} ${impl}: ${clients + 1} idle connections, ${perConnection.toFixed(1)} KiB of agent RSS each`);
        } catch (error) {
          failed.set(impl, failureReason(error));
        }
      }
    }
    return IMPLS.map((impl) => {
      const base = { scenario: "idle-http", impl, metric: "rss-per-connection", unit: "KiB", n: clients + 1, better: "lower" as const };
      if (!linux) return skippedRecord(base, "needs /proc (Linux)");
      const reason = failed.get(impl);
      return reason !== undefined ? skippedRecord(base, reason) : recordFromSamples(base, samples.get(impl)!);
    });
  },
};
