// `pnpm bench [--quick] [--only=name,name] [--out=file.json]`: runs every scenario for acpkit, the official SDK and
// the raw ceiling, prints a table and the target ratios, and writes bench/results/latest.json.
import os from "node:os";
import { writeCharts } from "./charts.js";
import { checkTargets, printTargets } from "./lib/targets.js";
import { printTable, writeResults, type BenchRecord } from "./lib/report.js";
import { FAILED_PREFIX } from "./scenarios/alternate.js";
import { benchConfig } from "./scenarios/config.js";
import { SCENARIOS } from "./scenarios/index.js";

function parseArgs(argv: readonly string[]): { quick: boolean; only: string[] | undefined; out: string } {
  let quick = false;
  let only: string[] | undefined;
  let out = "latest.json";
  for (const arg of argv) {
    if (arg === "--quick") quick = true;
    else if (arg.startsWith("--out=")) {
      out = arg.slice("--out=".length);
      if (!/^[\w.-]+\.json$/.test(out)) throw new Error(`--out takes a file name inside bench/results ending in .json, got ${JSON.stringify(out)}`);
    } else if (arg.startsWith("--only=")) only = arg.slice("--only=".length).split(",").filter(Boolean);
    else if (arg === "--") continue;
    else throw new Error(`unknown argument ${JSON.stringify(arg)} (expected --quick, --only=scenario,… or --out=file.json)`);
  }
  const known = SCENARIOS.flatMap((s) => s.names);
  for (const name of only ?? []) {
    if (!known.includes(name)) throw new Error(`unknown scenario ${JSON.stringify(name)}; known: ${known.join(", ")}`);
  }
  return { quick, only, out };
}

export function machineDescription(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model ?? "unknown CPU"} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

async function main(): Promise<void> {
  const { quick, only, out } = parseArgs(process.argv.slice(2));
  const log = (line: string) => console.log(line);
  const config = benchConfig(quick, log);
  const started = Date.now();
  log(`acpkit bench${quick ? " --quick" : ""}: ${machineDescription()}`);
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
  const file = writeResults(out, records);
  writeResults(out.replace(/\.json$/, "-targets.json"), { machine: machineDescription(), quick, date: new Date().toISOString(), targets });
  log(`\nwrote ${file} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  // A full run (every scenario, full sizes) redraws the charts docs/performance.md shows.
  if (!quick && only === undefined) log(`drew ${writeCharts(records).length} charts in docs/images/bench`);
  const failed = records.filter((r) => r.skipped?.startsWith(FAILED_PREFIX));
  if (failed.length > 0) {
    console.error(`\n${failed.length} measurement(s) failed:\n  ${failed.map((r) => `${r.scenario}/${r.metric}/${r.impl}: ${r.skipped}`).join("\n  ")}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
