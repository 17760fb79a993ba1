// Runs a script in a fresh Node process under the resolve hook of fixtures/record-loads.mjs and
// returns what it printed with every module resolution it made. Tests ask which modules a process
// loaded (bridge-on-demand in the client and agent, the WebSocket transport's on-demand test, the
// CLI's startup test); the bench's import floor rebuilds the whole graph.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** One resolution: `specifier`, imported from `parent` (null for the entry script), resolved to `url`. */
export interface LoadEdge {
  parent: string | null;
  specifier: string;
  url: string;
}

const HOOK = fileURLToPath(new URL("./fixtures/record-loads.mjs", import.meta.url));

/**
 * `node --import <hook> script ...args`, run from the script's directory with `env` added to this
 * process's environment. Rejects if the process fails, or if the hook recorded nothing or wrote a
 * line that is not JSON (named by its line number).
 */
export async function runRecordingLoads(
  script: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<{ stdout: string; edges: LoadEdge[] }> {
  for (const file of [HOOK, script]) if (!existsSync(file)) throw new Error(`runRecordingLoads: ${file} does not exist`);
  const dir = await mkdtemp(join(tmpdir(), "acpkit-record-loads-"));
  const file = join(dir, "loads.jsonl");
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", HOOK, script, ...args], {
      cwd: dirname(script),
      env: { ...process.env, ...env, LOADS_FILE: file },
    });
    if (!existsSync(file)) throw new Error(`runRecordingLoads: the resolve hook recorded nothing for ${script}`);
    const lines = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
    const edges = lines.map((line, index) => {
      try {
        return JSON.parse(line) as LoadEdge;
      } catch {
        throw new Error(`runRecordingLoads: line ${index + 1} of the hook's output is not JSON: ${line.slice(0, 80)}`);
      }
    });
    return { stdout, edges };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs a probe script (one that prints a JSON report on stdout) under the resolve hook, with `env`:
 * its report, parsed, and the URL of every module it loaded. What the bridge-on-demand tests of
 * the client and the agent ask of their probes.
 */
export async function runProbeRecordingLoads(script: string, env: Record<string, string> = {}): Promise<{ report: unknown; loads: string[] }> {
  const { stdout, edges } = await runRecordingLoads(script, [], env);
  let report: unknown;
  try {
    report = JSON.parse(stdout);
  } catch {
    throw new Error(`runProbeRecordingLoads: ${script} did not print one JSON report: ${stdout.slice(0, 80)}`);
  }
  return { report, loads: edges.map((edge) => edge.url) };
}
