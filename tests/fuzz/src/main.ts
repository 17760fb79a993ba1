// `pnpm fuzz [--cases N] [--seed S] [--from N] [--side agent|client|both] [--channel memory|stdio|both]`:
// runs the fuzz suite at any size. Every failure line names the seed and the case number; rerun
// with `--seed S --from N --cases 1` to replay one case alone. Exit 1 on any failure.
import { type FuzzOptions, type FuzzReport, fuzzAgentSide, fuzzClientSide } from "./run.js";

function parse(argv: readonly string[]) {
  const options = { cases: 20_000, seed: Date.now() % 2 ** 31, from: 0, side: "both", channel: "both" };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (flag === "--") continue;
    if (!["--cases", "--seed", "--from", "--side", "--channel"].includes(flag) || value === undefined) {
      throw new Error(`usage: pnpm fuzz [--cases N] [--seed S] [--from N] [--side agent|client|both] [--channel memory|stdio|both] (got ${flag})`);
    }
    i++;
    if (flag === "--side" || flag === "--channel") (options as Record<string, unknown>)[flag.slice(2)] = value;
    else {
      const number = Number(value);
      if (!Number.isInteger(number) || number < 0) throw new Error(`${flag} needs a whole number, got ${value}`);
      (options as Record<string, unknown>)[flag.slice(2)] = number;
    }
  }
  return options;
}

function summarize(report: FuzzReport): string {
  const { side, channel, version, later } = report.options;
  const answers = Object.entries(report.answers)
    .sort()
    .map(([code, count]) => `${code}: ${count}`)
    .join(", ");
  const turns = report.turns
    ? ` · turns ${Object.entries(report.turns)
        .map(([how, count]) => `${how} ${count}`)
        .join(", ")}`
    : "";
  return `${side} side, ${channel}, ${later ? "later v2" : `v${version}`}: ${report.cases} cases (${report.lines} lines) · answers {${answers}} · unanswered ${report.unanswered} · failures ${report.failures.length}${turns}`;
}

const options = parse(process.argv.slice(2));
console.log(`acpkit fuzz: seed ${options.seed}, ${options.cases} cases per side from case ${options.from}`);
const sides = options.side === "both" ? (["agent", "client"] as const) : [options.side as "agent" | "client"];
const channels = options.channel === "both" ? (["memory", "stdio"] as const) : [options.channel as "memory" | "stdio"];
let failed = 0;
for (const side of sides) {
  // A side's cases are split over its channels and the three dialects (v1, pinned v2, later v2),
  // each with its own case numbers.
  const dialects = [
    { version: 1 as const, later: false },
    { version: 2 as const, later: false },
    { version: 2 as const, later: true },
  ];
  const parts = channels.flatMap((channel) => dialects.map((dialect) => ({ channel, ...dialect })));
  const per = Math.ceil(options.cases / parts.length);
  for (const [k, part] of parts.entries()) {
    const run: FuzzOptions = {
      side,
      channel: part.channel,
      version: part.version,
      later: part.later,
      seed: options.seed,
      from: options.from + k * per,
      cases: per,
    };
    const report = side === "agent" ? await fuzzAgentSide(run) : await fuzzClientSide(run);
    console.log(summarize(report));
    for (const failure of report.failures) console.log(`  ✗ ${failure}`);
    failed += report.failures.length;
  }
}
if (failed > 0) {
  console.log(`${failed} failure(s); replay with --seed ${options.seed}`);
  process.exit(1);
}
