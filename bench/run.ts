// `pnpm bench [--quick] [--only=name,name] [--out=file.json] [--runs N]`: runs every scenario for acpkit, the
// official SDK and the raw ceiling, prints a table and the target ratios, and writes
// bench/results/latest.json. With --runs N the whole suite runs N times in a row; each run's
// targets are printed, and the verdict is each target's median ratio over the runs: a machine's
// mood moves one run, rarely the middle one of three.
import os from "node:os";
import { writeCharts } from "./charts.js";
import { checkTargets, medianTargets, printTargets, type TargetCheck } from "./lib/targets.js";
import { printTable, writeResults, type BenchRecord } from "./lib/report.js";
import { FAILED_PREFIX } from "./scenarios/alternate.js";
import { benchConfig } from "./scenarios/config.js";
import { SCENARIOS } from "./scenarios/index.js";

function parseArgs(argv: readonly string[]): { quick: boolean; only: string[] | undefined; out: string; runs: number } {
  let quick = false;
  let only: string[] | undefined;
  let out = "latest.json";
  let runs = 1;
  for (let at = 0; at < argv.length; at++) {
    const arg = argv[at]!;
    if (arg === "--runs" || arg.startsWith("--runs=")) {
      const text = arg === "--runs" ? argv[++at] : arg.slice("--runs=".length);
      runs = Number(text);
      if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error(`--runs takes a whole number from 1 to 9, got ${JSON.stringify(text)}`);
    } else if (arg === "--quick") quick = true;
    else if (arg.startsWith("--out=")) {
      out = arg.slice("--out=".length);
      if (!/^[\w.-]+\.json$/.test(out)) throw new Error(`--out takes a file name inside bench/results ending in .json, got ${JSON.stringify(out)}`);
    } else if (arg.startsWith("--only=")) only = arg.slice("--only=".length).split(",").filter(Boolean);
    else if (arg === "--") continue;
    else throw new Error(`unknown argument ${JSON.stringify(arg)} (expected --quick, --only=scenario,…, --out=file.json or --runs N)`);
  }
  const known = SCENARIOS.flatMap((s) => s.names);
  for (const name of only ?? []) {
    if (!known.includes(name)) throw new Error(`unknown scenario ${JSON.stringify(name)}; known: ${known.join(", ")}`);
  }
  return { quick, only, out, runs };
}

export function machineDescription(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model ?? "unknown CPU"} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

/** One run of the suite: every selected scenario, its table and its targets. */
async function runOnce(quick: boolean, only: string[] | undefined, log: (line: string) => void): Promise<{ records: BenchRecord[]; targets: TargetCheck[] }> {
  const config = benchConfig(quick, log);
  const records: BenchRecord[] = [];
  for (const scenario of SCENARIOS) {
    if (only && !scenario.names.some((name) => only.includes(name))) continue;
    log(`▶ ${scenario.names.join(", ")}`);
    const scenarioStart = Date.now();
    records.push(...(await scenario.run(config)));
    log(`  (${((Date.now() - scenarioStart) / 1000).toFixed(1)} s)`);
  }
  log("");
  printTable(records, log);
  const targets = checkTargets(records);
  log("");
  log("Targets (ratios of medians from this run):");
  printTargets(targets, log);
  return { records, targets };
}

async function main(): Promise<void> {
  const { quick, only, out, runs } = parseArgs(process.argv.slice(2));
  const log = (line: string) => console.log(line);
  const started = Date.now();
  log(`acpkit bench${quick ? " --quick" : ""}${runs > 1 ? ` --runs ${runs}` : ""}: ${machineDescription()}`);
  const all: { records: BenchRecord[]; targets: TargetCheck[] }[] = [];
  for (let run = 1; run <= runs; run++) {
    if (runs > 1) log(`\n━━ run ${run} of ${runs}`);
    all.push(await runOnce(quick, only, log));
    if (runs > 1) writeResults(out.replace(/\.json$/, `-run${run}.json`), all.at(-1)!.records);
  }
  const records = all.at(-1)!.records;
  const targets = runs > 1 ? medianTargets(all.map((each) => each.targets)) : all[0]!.targets;
  if (runs > 1) {
    log("");
    log(`Targets judged on the median of ${runs} runs (each run's ratio in brackets):`);
    printTargets(targets, log);
  }
  const file = writeResults(out, records);
  writeResults(out.replace(/\.json$/, "-targets.json"), {
    machine: machineDescription(),
    quick,
    date: new Date().toISOString(),
    runs,
    targets,
    ...(runs > 1 ? { perRun: all.map((each) => each.targets) } : {}),
  });
  log(`\nwrote ${file} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  // A full run (every scenario, full sizes) redraws the charts docs/performance.md shows.
  if (!quick && only === undefined) log(`drew ${writeCharts(records).length} charts in docs/images/bench`);
  const failed = all.flatMap((each) => each.records).filter((r) => r.skipped?.startsWith(FAILED_PREFIX));
  if (failed.length > 0) {
    console.error(`\n${failed.length} measurement(s) failed:\n  ${failed.map((r) => `${r.scenario}/${r.metric}/${r.impl}: ${r.skipped}`).join("\n  ")}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
