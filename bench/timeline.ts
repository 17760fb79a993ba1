// Where a cold start's time goes: runs the cold-start clients (acpkit, official, raw; each spawns
// its agent) with timeline-hooks.mjs preloaded into both processes, and prints when each step
// happened, as medians over the rounds, in milliseconds since the client process started, and the
// step from the previous event. The cold-start scenario measures the whole; this splits it.
//
//   npx tsx bench/timeline.ts [--rounds=15] [--json] [acpkit|official|raw …]
//
// The hooks cost a little in each process (about a millisecond to load them), the same for every
// implementation, so compare the columns rather than read the absolute figures as the scenario's.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { median } from "./lib/stats.js";

const run = promisify(execFile);
const dir = fileURLToPath(new URL("./coldstart/", import.meta.url));
const hooks = new URL("./coldstart/timeline-hooks.mjs", import.meta.url).href;

/** The steps of a cold start in the order they happen: [process, mark, what it means]. */
export const EVENTS: readonly (readonly ["client" | "agent", string, string])[] = [
  ["client", "start", "client: Node started"],
  ["client", "spawn", "client: imports done, agent spawned"],
  ["client", "sent initialize", "client: initialize sent"],
  ["agent", "start", "agent: Node started"],
  ["agent", "input", "agent: imports done, first input read"],
  ["agent", "wrote answer initialize", "agent: initialize answered"],
  ["client", "read answer initialize", "client: answer read"],
  ["client", "sent session/new", "client: session/new sent"],
  ["agent", "wrote answer session/new", "agent: session/new answered"],
  ["client", "sent session/prompt", "client: session/prompt sent"],
  ["agent", "wrote update", "agent: first update written"],
  ["agent", "wrote answer session/prompt", "agent: prompt answered"],
  ["client", "read answer session/prompt", "client: answer read"],
  ["client", "closed stdin", "client: agent's stdin closed"],
  ["agent", "exit", "agent: exiting"],
  ["client", "agent exited", "client: agent's exit seen"],
  ["client", "exit", "client: exiting"],
];

export const TIMELINE_IMPLS = ["acpkit", "official", "raw"] as const;
export type TimelineImpl = (typeof TIMELINE_IMPLS)[number];

/** One event's medians: when it happened (ms since the client process started) and the step from the event before. */
export interface TimelineStep {
  at: number | undefined;
  step: number | undefined;
}

interface MarksRecord {
  role: "client" | "agent";
  origin: number;
  marks: [string, number][];
}

/**
 * One cold start of `impl` with the hooks: each event's time in ms since the client process
 * started (undefined for an event that did not happen).
 */
export async function timelineOnce(impl: TimelineImpl): Promise<(number | undefined)[]> {
  const scratch = mkdtempSync(join(tmpdir(), "acpkit-timeline-"));
  const out = join(scratch, "marks.jsonl");
  try {
    await run(process.execPath, ["--import", hooks, join(dir, `${impl}-client.mjs`)], {
      cwd: dir,
      env: { ...process.env, ACPKIT_TIMELINE_OUT: out, ACPKIT_TIMELINE_ROLE: "client" },
    });
    const records = readFileSync(out, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as MarksRecord);
    const client = records.find((record) => record.role === "client");
    const agent = records.find((record) => record.role === "agent");
    if (client === undefined || agent === undefined)
      throw new Error(`timeline ${impl}: expected a client and an agent record in ${out}, got ${records.length} record(s)`);
    const marksOf = { client: new Map(client.marks), agent: new Map(agent.marks) };
    return EVENTS.map(([side, name]) => {
      const at = marksOf[side].get(name);
      return at === undefined ? undefined : at - client.origin;
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The median (lib/stats.ts) of the rounds in which the event happened; undefined when it never did. */
function medianOfPresent(values: readonly (number | undefined)[]): number | undefined {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length === 0 ? undefined : median(present);
}

/** Medians over `rounds` interleaved cold starts of each of `impls`: per event, its time and the step from the event before. */
export async function measureTimeline(impls: readonly TimelineImpl[], rounds: number): Promise<Partial<Record<TimelineImpl, TimelineStep[]>>> {
  const samples: Partial<Record<TimelineImpl, (number | undefined)[][]>> = {};
  for (let round = 0; round < rounds; round++) for (const impl of impls) (samples[impl] ??= []).push(await timelineOnce(impl));
  return Object.fromEntries(
    impls.map((impl) => [
      impl,
      EVENTS.map((_, index) => ({
        at: medianOfPresent(samples[impl]!.map((times) => times[index])),
        step:
          index === 0
            ? undefined
            : medianOfPresent(
                samples[impl]!.map((times) => {
                  const here = times[index];
                  const before = times[index - 1];
                  return here === undefined || before === undefined ? undefined : here - before;
                }),
              ),
      })),
    ]),
  );
}

function formatTable(result: Partial<Record<TimelineImpl, TimelineStep[]>>, impls: readonly TimelineImpl[], rounds: number): string {
  const cell = (value: number | undefined): string => (value === undefined ? "—" : value.toFixed(1));
  const header = `| step | ${impls.map((impl) => `${impl} at | step`).join(" | ")} |`;
  const rule = `| --- | ${impls.map(() => "---: | ---:").join(" | ")} |`;
  const rows = EVENTS.map(
    ([, , label], index) => `| ${label} | ${impls.map((impl) => `${cell(result[impl]![index]!.at)} | ${cell(result[impl]![index]!.step)}`).join(" | ")} |`,
  );
  return [`Cold start, medians of ${rounds} rounds (ms since the client process started; step: since the line above)`, "", header, rule, ...rows].join("\n");
}

async function main(argv: readonly string[]): Promise<void> {
  let rounds = 15;
  let json = false;
  const impls: TimelineImpl[] = [];
  for (const arg of argv) {
    if (arg.startsWith("--rounds=")) {
      rounds = Number(arg.slice("--rounds=".length));
      if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, got ${arg.slice("--rounds=".length)}`);
    } else if (arg === "--json") json = true;
    else if ((TIMELINE_IMPLS as readonly string[]).includes(arg)) impls.push(arg as TimelineImpl);
    else throw new Error(`unknown argument ${arg} (use --rounds=N, --json, ${TIMELINE_IMPLS.join(", ")})`);
  }
  const chosen = impls.length > 0 ? impls : [...TIMELINE_IMPLS];
  const result = await measureTimeline(chosen, rounds);
  const named = Object.fromEntries(chosen.map((impl) => [impl, EVENTS.map(([side, mark], index) => ({ side, mark, ...result[impl]![index]! }))]));
  process.stdout.write(json ? `${JSON.stringify({ rounds, timeline: named }, null, 2)}\n` : `${formatTable(result, chosen, rounds)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`timeline: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
