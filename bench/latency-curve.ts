// `tsx bench/latency-curve.ts [--channel=stdio] [--prompts=10000] [--block=500] [--runs=1] [impl…]`:
// how the per-prompt round trip of the latency scenario evolves in one fresh process, warm-up
// included (the warm-up switches sessions halfway and at its end, as in the scenario). Prints the
// p50 of every block of prompts per implementation, so one can see where the JIT reaches steady
// state and check that the measured window of `pnpm bench` lies after it; on Linux also the CPU
// time each side's main thread spent per prompt in the last block.
import type { Channel, ImplName } from "./lib/impl.js";
import type { LatencyMeasurement } from "./lib/measure.js";
import { cpuForRound } from "./lib/cpu-pin.js";
import { runInFreshProcess } from "./lib/worker-pool.js";

const IMPLS: readonly ImplName[] = ["acpkit", "official", "raw"];

function parseArgs(argv: readonly string[]): { channel: Channel; prompts: number; block: number; runs: number; impls: ImplName[] } {
  let channel: Channel = "stdio";
  let prompts = 10_000;
  let block = 500;
  let runs = 1;
  const impls: ImplName[] = [];
  const positive = (arg: string, value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${arg} needs a positive integer, got ${JSON.stringify(value)}`);
    return n;
  };
  for (const arg of argv) {
    const [key, value = ""] = arg.split("=", 2) as [string, string?];
    if (key === "--channel") {
      if (value !== "stdio" && value !== "memory" && value !== "websocket")
        throw new Error(`--channel is stdio, memory or websocket, got ${JSON.stringify(value)}`);
      channel = value;
    } else if (key === "--prompts") prompts = positive(arg, value);
    else if (key === "--block") block = positive(arg, value);
    else if (key === "--runs") runs = positive(arg, value);
    else if ((IMPLS as readonly string[]).includes(arg)) impls.push(arg as ImplName);
    else if (arg !== "--")
      throw new Error(`unknown argument ${JSON.stringify(arg)} (expected --channel=, --prompts=, --block=, --runs= or an implementation: ${IMPLS.join(", ")})`);
  }
  return { channel, prompts, block, runs, impls: impls.length > 0 ? impls : [...IMPLS] };
}

async function main(): Promise<void> {
  const { channel, prompts, block, runs, impls } = parseArgs(process.argv.slice(2));
  console.log(`latency-${channel}: p50 (µs) of each block of ${block} prompts, ${prompts} prompts per fresh process`);
  for (let run = 0; run < runs; run++) {
    for (const impl of impls) {
      // Everything counts as warm-up except the last block, so every prompt is traced.
      const result = await runInFreshProcess<LatencyMeasurement>(
        { kind: "latency", impl, channel, warmup: prompts - block, count: block, traceBlock: block },
        { cpu: cpuForRound(run) }, // as in the latency scenario
      );
      const cpu = result.cpuPerPrompt;
      const cpuText = cpu
        ? `  | last block, per prompt: client ${cpu.clientMicros.toFixed(1)} µs CPU, ${cpu.clientSwitches.toFixed(1)} switches; agent ${cpu.agentMicros?.toFixed(1) ?? "—"} µs, ${cpu.agentSwitches?.toFixed(1) ?? "—"}`
        : "";
      console.log(`${impl.padEnd(8)} ${result.blockP50Micros!.map((v) => v.toFixed(0).padStart(4)).join(" ")}${cpuText}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
