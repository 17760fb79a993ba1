// Scenario naive-agent: an agent written the obvious way, streaming without ever awaiting
// `turn.flush()` — every chunk its own `turn.message(text)`, or every chunk appended to one
// handle — against the idiomatic handle that flushes every 256 chunks. Over stdio to a raw client
// that reads as fast as it can: the agent's wall time from prompt to response and its peak
// resident memory (VmHWM, Linux only).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { streamPrompt } from "../lib/fixtures.mjs";
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const AGENT = fileURLToPath(new URL("../agents/acpkit-agent.mjs", import.meta.url));
const MB = 1024 * 1024;
const PATTERNS = {
  handle: {},
  "naive-appends": { ACPKIT_BENCH_FLUSH_EVERY: "Infinity" },
  "naive-messages": { ACPKIT_BENCH_NAIVE: "messages" },
} as const;
type Pattern = keyof typeof PATTERNS;

async function runPattern(pattern: Pattern, n: number): Promise<{ ms: number; peak: number }> {
  const agent = spawn(process.execPath, [AGENT, "stdio"], { stdio: ["pipe", "pipe", "ignore"], env: { ...process.env, ...PATTERNS[pattern] } });
  try {
    let buffered = "";
    let started = 0n;
    const done = new Promise<number>((resolve) => {
      agent.stdout!.setEncoding("utf8").on("data", (text: string) => {
        buffered += text;
        let newline: number;
        while ((newline = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          if (line.startsWith('{"jsonrpc":"2.0","id":1,')) {
            started = process.hrtime.bigint();
            agent.stdin!.write(
              `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "bench-session-1", prompt: [{ type: "text", text: streamPrompt(n) }] } })}\n`,
            );
          } else if (line.startsWith('{"jsonrpc":"2.0","id":2,')) resolve(Number(process.hrtime.bigint() - started) / 1e6);
        }
      });
    });
    agent.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 2, capabilities: {} } })}\n`);
    agent.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } })}\n`);
    const ms = await done;
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${agent.pid}/status`, "utf8"))?.[1];
    return { ms, peak: Number(kb) * 1024 };
  } finally {
    agent.kill();
  }
}

export const naiveAgentScenario: Scenario = {
  names: ["naive-agent"],
  impls: ["acpkit"],
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const n = config.quick ? 20_000 : 500_000;
    // Nine rounds, like the bridge scenario: a round of one pattern is a single ~0.6 s run, and on
    // a shared two-core machine single runs of the same pattern spread by ±25% (521–755 ms for
    // the handle in one run), in stretches that last a few seconds. With five rounds two slow
    // samples on one side and none on the other moved the ratio of medians by 0.3.
    const rounds = config.quick ? 2 : 9;
    const records: BenchRecord[] = [];
    const base = { scenario: "naive-agent", impl: "acpkit" as const, n, better: "lower" as const };
    const patterns = Object.keys(PATTERNS) as Pattern[];
    if (!existsSync("/proc/self/status")) {
      for (const pattern of patterns) records.push(skippedRecord({ ...base, metric: `${pattern}-peak-rss`, unit: "MiB" }, "needs Linux /proc"));
      return records;
    }
    const times = new Map<Pattern, number[]>(patterns.map((pattern) => [pattern, []]));
    const peaks = new Map<Pattern, number[]>(patterns.map((pattern) => [pattern, []]));
    const failed = new Map<Pattern, string>();
    // Rounds interleave the patterns (in a rotating order), so a noisy stretch of the machine
    // hits all three alike instead of one pattern's every round.
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < patterns.length; k++) {
        const pattern = patterns[(round + k) % patterns.length]!;
        if (failed.has(pattern)) continue;
        try {
          const result = await runPattern(pattern, n);
          times.get(pattern)!.push(result.ms);
          peaks.get(pattern)!.push(result.peak / MB);
          config.log(
            `  naive-agent ${pattern} round ${round + 1}: ${n} chunks in ${result.ms.toFixed(0)} ms, agent peak RSS ${(result.peak / MB).toFixed(0)} MiB`,
          );
        } catch (error) {
          failed.set(pattern, failureReason(error));
        }
      }
    }
    for (const pattern of patterns) {
      const reason = failed.get(pattern);
      if (reason !== undefined) {
        records.push(skippedRecord({ ...base, metric: `${pattern}-time`, unit: "ms" }, reason));
        continue;
      }
      records.push(recordFromSamples({ ...base, metric: `${pattern}-time`, unit: "ms" }, times.get(pattern)!));
      records.push(recordFromSamples({ ...base, metric: `${pattern}-peak-rss`, unit: "MiB" }, peaks.get(pattern)!));
    }
    return records;
  },
};
