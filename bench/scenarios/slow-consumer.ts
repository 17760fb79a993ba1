// Scenario slow-consumer: a client that stops reading while the agent streams. The sending side
// must wait (backpressure) instead of buffering the stream, so its peak memory stays bounded
// whatever the stream's length. Measured per transport as the peak resident memory (VmHWM) of the
// process that would hold the backlog: the agent over stdio, the agent over WebSocket, and the
// `acpkit bridge` relay between a WebSocket client and a stdio agent. Linux only (/proc).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { streamPrompt } from "../lib/fixtures.mjs";
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const MB = 1024 * 1024;
const AGENT = fileURLToPath(new URL("../agents/acpkit-agent.mjs", import.meta.url));
const CLI = fileURLToPath(new URL("../../packages/cli/dist/bin.js", import.meta.url));
type Channel = "stdio" | "websocket" | "bridge";
const CHANNELS: readonly Channel[] = ["stdio", "websocket", "bridge"];

/** Peak resident set of `pid` so far, in bytes (the kernel's high-water mark). */
function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kb) * 1024;
}

const INIT = [
  { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } },
  { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } },
];
const promptMessage = (n: number) => ({
  jsonrpc: "2.0",
  id: 2,
  method: "session/prompt",
  params: { sessionId: "bench-session-1", prompt: [{ type: "text", text: streamPrompt(n) }] },
});

/** What a run reports: the peak memory of the process that had to hold back the stream. */
interface SlowRun {
  peakBytes: number;
}

/**
 * A reader of ndjson or frames that can stop: counts lines until the prompt's answer (id 2),
 * and stays stopped for `pauseMs` once `pauseAfter` lines arrived.
 */
function answerWatcher(onLine: (line: string) => void, sendPrompt: () => void) {
  let done: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  return {
    finished,
    line(text: string) {
      onLine(text);
      // The prompt goes out once session/new answered (a client needs the session first).
      if (text.startsWith('{"jsonrpc":"2.0","id":1,')) sendPrompt();
      else if (text.startsWith('{"jsonrpc":"2.0","id":2,')) done();
    },
  };
}

async function stdioRun(n: number, pauseMs: number): Promise<SlowRun> {
  const agent = spawn(process.execPath, [AGENT, "stdio"], { stdio: ["pipe", "pipe", "ignore"] });
  try {
    let seen = 0;
    let buffered = "";
    const watcher = answerWatcher(
      () => seen++,
      () => agent.stdin!.write(`${JSON.stringify(promptMessage(n))}\n`),
    );
    agent.stdout!.setEncoding("utf8").on("data", (text: string) => {
      buffered += text;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        watcher.line(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
      }
    });
    for (const message of INIT) agent.stdin!.write(`${JSON.stringify(message)}\n`);
    // Stop reading once the stream is under way: the pipe fills and the agent has to wait.
    while (seen < 1000) await new Promise((resolve) => setTimeout(resolve, 1));
    agent.stdout!.pause();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    agent.stdout!.resume();
    await watcher.finished;
    return { peakBytes: peakRss(agent.pid!) };
  } finally {
    agent.kill();
  }
}

/** Start `command` and read the first stdout line matching `pattern`. */
function firstLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = pattern.exec(text);
      if (match) {
        child.stdout!.off("data", onData);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the process exited (${code}) before printing its address`)));
  });
}

async function websocketRun(url: string, server: ChildProcess, measured: () => number, n: number, pauseMs: number): Promise<SlowRun> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  try {
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    let seen = 0;
    const watcher = answerWatcher(
      () => seen++,
      () => ws.send(JSON.stringify(promptMessage(n))),
    );
    ws.on("message", (data) => watcher.line(String(data)));
    for (const message of INIT) ws.send(JSON.stringify(message));
    while (seen < 1000) await new Promise((resolve) => setTimeout(resolve, 1));
    // ws.pause() stops reading the socket: TCP's window closes and the sender has to wait.
    ws.pause();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    ws.resume();
    await watcher.finished;
    void server;
    return { peakBytes: measured() };
  } finally {
    ws.terminate();
  }
}

async function directWebSocketRun(n: number, pauseMs: number): Promise<SlowRun> {
  const server = spawn(process.execPath, [AGENT, "ws"], { stdio: ["pipe", "pipe", "ignore"] });
  try {
    const port = await firstLine(server, /port (\d+)\n/);
    return await websocketRun(`ws://127.0.0.1:${port}/acp`, server, () => peakRss(server.pid!), n, pauseMs);
  } finally {
    server.stdin!.end();
    server.kill();
  }
}

async function bridgeRun(n: number, pauseMs: number): Promise<SlowRun> {
  const bridge = spawn(process.execPath, [CLI, "bridge", "--listen", "127.0.0.1:0", "--", process.execPath, AGENT, "stdio"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  try {
    const url = await firstLine(bridge, /(ws:\/\/\S+)\n/);
    return await websocketRun(url, bridge, () => peakRss(bridge.pid!), n, pauseMs);
  } finally {
    bridge.kill();
  }
}

export const slowConsumerScenario: Scenario = {
  names: ["slow-consumer"],
  impls: ["acpkit"],
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const n = config.quick ? 20_000 : 1_000_000;
    const pauseMs = config.quick ? 300 : 3_000;
    const rounds = config.quick ? 2 : 3;
    const records: BenchRecord[] = [];
    for (const channel of CHANNELS) {
      const base = { scenario: "slow-consumer", impl: "acpkit" as const, metric: `${channel}-peak-rss`, unit: "MiB", n, better: "lower" as const };
      if (!existsSync("/proc/self/status")) {
        records.push(skippedRecord(base, "needs Linux /proc to read a process's peak memory"));
        continue;
      }
      if (channel === "bridge" && !existsSync(CLI)) {
        records.push(skippedRecord(base, "the CLI is not built (pnpm build)"));
        continue;
      }
      const samples: number[] = [];
      try {
        for (let round = 0; round < rounds; round++) {
          const run =
            channel === "stdio" ? await stdioRun(n, pauseMs) : channel === "websocket" ? await directWebSocketRun(n, pauseMs) : await bridgeRun(n, pauseMs);
          samples.push(run.peakBytes / MB);
          config.log(
            `  slow-consumer ${channel} round ${round + 1}: ${n} chunks, reader stopped ${pauseMs} ms, sender peak RSS ${(run.peakBytes / MB).toFixed(0)} MiB`,
          );
        }
        records.push(recordFromSamples(base, samples));
      } catch (error) {
        records.push(skippedRecord(base, failureReason(error)));
      }
    }
    return records;
  },
};
