// Scenario shutdown: how long each side holds on once the work is done, with whole processes and
// the agents written as their READMEs write them (no process.exit).
// - exit-after-stdin: an agent has answered initialize; its stdin ends; how long until the process
//   has exited. Idle, an agent has nothing left to do, so this is what every session's end costs.
// - close-after-turn: the cold-start clients (coldstart/*-client.mjs) print how long their own
//   shutdown took after the turn (acpkit: `await agent.close()`); the cold-start scenario records it.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ImplName } from "../lib/impl.js";
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { median } from "../lib/stats.js";
import { failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const agents = fileURLToPath(new URL("../agents/", import.meta.url));
const IMPLS: readonly ImplName[] = ["acpkit", "official", "raw"];
/** Past this the agent is killed and the round fails: it would never have exited on its own. */
const LIMIT_MS = 30_000;

/** Start `impl`'s agent, initialize, then end its stdin and time the exit (ms). */
function exitAfterStdin(impl: ImplName): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${agents}${impl}-agent.mjs`, "stdio"], { stdio: ["pipe", "pipe", "ignore"] });
    let endedAt = 0n;
    let buffered = "";
    const limit = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${impl}'s agent had not exited ${LIMIT_MS} ms after its stdin ended`));
    }, LIMIT_MS);
    child.once("error", reject);
    child.once("exit", () => {
      clearTimeout(limit);
      if (endedAt === 0n) reject(new Error(`${impl}'s agent exited before answering initialize`));
      else resolve(Number(process.hrtime.bigint() - endedAt) / 1e6);
    });
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      buffered += text;
      if (endedAt !== 0n || !buffered.includes("\n")) return;
      endedAt = process.hrtime.bigint();
      child.stdin.end();
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`);
  });
}

export const shutdownScenario: Scenario = {
  names: ["shutdown"],
  impls: IMPLS,
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    // The issue asks for medians of at least 5; a round costs one process start per implementation.
    const rounds = config.quick ? 2 : 9;
    const samples: Record<string, number[]> = { acpkit: [], official: [], raw: [] };
    try {
      for (let round = 0; round < rounds; round++) for (const impl of IMPLS) samples[impl]!.push(await exitAfterStdin(impl));
    } catch (error) {
      return IMPLS.map((impl) =>
        skippedRecord({ scenario: "shutdown", impl, metric: "exit-after-stdin", unit: "ms", n: 1, better: "lower" }, failureReason(error)),
      );
    }
    config.log(`  agent exit after stdin: ${IMPLS.map((impl) => `${impl} ${median(samples[impl]!).toFixed(0)} ms`).join(", ")}`);
    return IMPLS.map((impl) =>
      recordFromSamples({ scenario: "shutdown", impl, metric: "exit-after-stdin", unit: "ms", n: 1, better: "lower" }, samples[impl]!),
    );
  },
};
