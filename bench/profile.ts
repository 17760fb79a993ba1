// `tsx bench/profile.ts [--latency] [impl] [channel] [n]` (default: acpkit stdio 50000): one stream
// turn of n updates (or, with --latency, n sequential prompts) with the V8 CPU profiler on the
// client (the measured part only) and `--cpu-prof` on the agent child, then self time per area and
// per function of each side. Profiles land in bench/results/profiles/.
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Channel, ImplName } from "./lib/impl.js";
import type { LatencyMeasurement, StreamMeasurement } from "./lib/measure.js";
import { cpuForRound } from "./lib/cpu-pin.js";
import { runInFreshProcess } from "./lib/worker-pool.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PROFILE_DIR = fileURLToPath(new URL("./results/profiles/", import.meta.url));

/** Self time per area (package, node internals, GC), as a share of busy samples. */
export function selfTimeByArea(profile: CpuProfile): Array<{ share: number; name: string }> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") continue;
    const url = frame.url;
    const area =
      /packages\/([^/]+)\//.exec(url)?.[1] ??
      /node_modules\/(?:\.pnpm\/)?(@[^/]+\/[^/@]+|[^/@]+)/.exec(url)?.[1] ??
      (url.startsWith("node:")
        ? "node internals"
        : url.includes("/bench/")
          ? "bench fixture"
          : frame.functionName.startsWith("(")
            ? frame.functionName
            : "builtins (JSON, Buffer…)");
    counts.set(area, (counts.get(area) ?? 0) + 1);
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name, count]) => ({ share: count / total, name }));
}

/** Self time per function (name + file:line), as a share of all samples, highest first. */
export function topSelfTime(profile: CpuProfile, limit = 20): Array<{ share: number; name: string }> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.replace(/^file:\/\//, "").replace(/^.*\/(packages|node_modules)\//, "$1/");
    const key = `${frame.functionName || "(anonymous)"} ${file ? `${file}:${frame.lineNumber + 1}` : ""}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  // Idle time says who waits for whom, not where work goes; leave it out of the shares.
  counts.delete("(idle)");
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, count]) => ({ share: count / total, name }));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // --latency: profile the latency scenario (n sequential prompts) instead of one stream turn.
  const latency = args.includes("--latency");
  const [impl = "acpkit", channel = "stdio", updates = latency ? "5000" : "50000"] = args.filter((a) => a !== "--latency") as [ImplName?, Channel?, string?];
  rmSync(PROFILE_DIR, { recursive: true, force: true });
  mkdirSync(PROFILE_DIR, { recursive: true });
  // NODE_OPTIONS may not carry --cpu-prof, so the agent child gets it through our own variable.
  process.env.ACPKIT_BENCH_AGENT_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}agent`;
  mkdirSync(PROFILE_DIR + "client");
  // The client profiles only its measured turn (inspector); the agent child profiles its whole life.
  const profileFile = `${PROFILE_DIR}client/measured.cpuprofile`;
  if (latency) {
    // As in the latency scenario: JIT steady state first, client and agent on one CPU.
    const result = await runInFreshProcess<LatencyMeasurement>(
      { kind: "latency", impl, channel, warmup: 5000, count: Number(updates), profileFile },
      { cpu: cpuForRound(1) },
    );
    console.log(`${impl} latency-${channel}: p50 ${result.p50Micros.toFixed(1)} µs, p99 ${result.p99Micros.toFixed(1)} µs (under the profiler)`);
  } else {
    const result = await runInFreshProcess<StreamMeasurement>({ kind: "stream", impl, channel, warmup: 5000, updates: Number(updates), profileFile });
    console.log(`${impl} stream-${channel}: ${Math.round(result.updatesPerSecond)} updates/s (under the profiler)`);
  }
  delete process.env.ACPKIT_BENCH_AGENT_NODE_ARGS;
  for (const side of ["client", "agent"]) {
    let files: string[] = [];
    try {
      files = readdirSync(PROFILE_DIR + side).filter((f) => f.endsWith(".cpuprofile"));
    } catch {
      // no profile for this side (in-process agent)
    }
    for (const file of files) {
      const profile = JSON.parse(readFileSync(`${PROFILE_DIR}${side}/${file}`, "utf8")) as CpuProfile;
      console.log(`\n${side} (${file}), top self time:`);
      const idle = profile.samples.filter((id) => profile.nodes.find((n) => n.id === id)?.callFrame.functionName === "(idle)").length;
      console.log(`  idle ${((idle / profile.samples.length) * 100).toFixed(0)}% of samples; shares below are of busy samples`);
      console.log(
        `  by area: ${selfTimeByArea(profile)
          .map((r) => `${r.name} ${(r.share * 100).toFixed(0)}%`)
          .join(", ")}`,
      );
      for (const row of topSelfTime(profile, 25)) console.log(`  ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.name}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
