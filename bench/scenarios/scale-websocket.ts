// Scenario scale-websocket: one agent process serving many WebSocket sessions at once. Each of
// `clients` connections (1,000; 50 with --quick) initializes (v1, which both servers speak) and
// opens a session; once every session is open, all of them send 3 prompts of 20 streamed chunks
// one after the other, concurrently. (Setting up first keeps the connection storm out of the
// prompt figures.) Rounds alternate between the two servers. The clients are plain `ws` sockets in this process, the same for acpkit's
// server (`@acpkit/transport-websocket` listen + serveAgent) and the official SDK's (AcpServer
// with its Node upgrade handler), so only the agent side differs. Reported: p50/p99 of the
// prompt latency (send → response, every chunk of the turn received first) and the agent's peak
// resident memory (VmHWM, Linux only).
import { existsSync, readFileSync } from "node:fs";
import WebSocket from "ws";
import { agentScript, spawnAgent, stopAgent, waitForPort } from "../lib/child.js";
import type { ImplName } from "../lib/impl.js";
import { streamPrompt } from "../lib/fixtures.mjs";
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { percentile } from "../lib/stats.js";
import { failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const IMPLS = ["acpkit", "official"] as const satisfies readonly ImplName[];
const PROMPTS = 3;
const CHUNKS = 20;
const SCRIPTS: Record<(typeof IMPLS)[number], { script: string; path: string }> = {
  acpkit: { script: "acpkit-agent.mjs", path: "/acp" },
  official: { script: "official-agent.mjs", path: "/" },
};

/** One client connection: requests answered by id, chunks counted per prompt. */
class ScaleClient {
  #next = 0;
  readonly #waiting = new Map<number, (message: any) => void>();
  chunks = 0;

  constructor(private readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data));
      if (message.method === "session/update") this.chunks++;
      else if (message.id !== undefined && this.#waiting.has(message.id)) {
        const resolve = this.#waiting.get(message.id)!;
        this.#waiting.delete(message.id);
        resolve(message);
      }
    });
  }

  request(method: string, params: unknown): Promise<any> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result)));
      this.socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

interface OpenSession {
  socket: WebSocket;
  client: ScaleClient;
  sessionId: string;
}

/** Connect, initialize and open a session. */
async function setUp(url: string): Promise<OpenSession> {
  const socket = await open(url);
  const client = new ScaleClient(socket);
  await client.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await client.request("session/new", { cwd: "/", mcpServers: [] });
  return { socket, client, sessionId };
}

/** Send the prompts of one session in turn; returns each prompt's latency in ms. */
async function prompts({ client, sessionId }: OpenSession): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < PROMPTS; i++) {
    const before = client.chunks;
    const started = performance.now();
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: streamPrompt(CHUNKS) }] });
    latencies.push(performance.now() - started);
    if (client.chunks - before !== CHUNKS) throw new Error(`a prompt delivered ${client.chunks - before} chunks, not ${CHUNKS}`);
  }
  return latencies;
}

function peakRssMiB(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kb === undefined) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kb) / 1024;
}

async function runOnce(impl: (typeof IMPLS)[number], clients: number): Promise<{ latencies: number[]; peak: number }> {
  const agent = spawnAgent(agentScript(SCRIPTS[impl].script), ["ws"]);
  try {
    const port = await waitForPort(agent);
    const url = `ws://127.0.0.1:${port}${SCRIPTS[impl].path}`;
    const sessions = await Promise.all(Array.from({ length: clients }, () => setUp(url)));
    const latencies = (await Promise.all(sessions.map(prompts))).flat();
    const peak = peakRssMiB(agent.pid!);
    for (const { socket } of sessions) socket.close();
    return { latencies, peak };
  } finally {
    await stopAgent(agent);
  }
}

export const scaleWebSocketScenario: Scenario = {
  names: ["scale-websocket"],
  impls: IMPLS,
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const clients = config.quick ? 50 : 1000;
    const rounds = config.quick ? 2 : 5;
    const samples = new Map(IMPLS.map((impl) => [impl, { p50: [] as number[], p99: [] as number[], peaks: [] as number[] }]));
    const failed = new Map<string, string>();
    for (let round = 0; round < rounds; round++) {
      // Alternate which server goes first, so drift on the machine hits both alike.
      const order = round % 2 === 0 ? IMPLS : [...IMPLS].reverse();
      for (const impl of order) {
        if (failed.has(impl)) continue;
        try {
          const { latencies, peak } = await runOnce(impl, clients);
          const mine = samples.get(impl)!;
          mine.p50.push(percentile(latencies, 50));
          mine.p99.push(percentile(latencies, 99));
          mine.peaks.push(peak);
          config.log(
            `  scale-websocket round ${round + 1} ${impl}: ${clients} sessions, prompt p50 ${mine.p50.at(-1)!.toFixed(1)} / p99 ${mine.p99.at(-1)!.toFixed(1)} ms, agent peak RSS ${peak.toFixed(0)} MiB`,
          );
        } catch (error) {
          failed.set(impl, failureReason(error));
        }
      }
    }
    const records: BenchRecord[] = [];
    for (const impl of IMPLS) {
      const base = { scenario: "scale-websocket", impl, n: clients, better: "lower" as const };
      const reason = failed.get(impl);
      if (reason !== undefined) {
        records.push(skippedRecord({ ...base, metric: "prompt-p50", unit: "ms" }, reason));
        continue;
      }
      const mine = samples.get(impl)!;
      records.push(recordFromSamples({ ...base, metric: "prompt-p50", unit: "ms" }, mine.p50));
      records.push(recordFromSamples({ ...base, metric: "prompt-p99", unit: "ms" }, mine.p99));
      if (existsSync("/proc/self/status")) records.push(recordFromSamples({ ...base, metric: "peak-rss", unit: "MiB" }, mine.peaks));
    }
    return records;
  },
};
