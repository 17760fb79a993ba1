// Runs the built `acpkit` binary the way a user does: `node packages/cli/dist/bin.js …` in a child
// process, collecting stdout, stderr and the exit code. The e2e tests need a build
// (`turbo run build`, or `npx tsc -p tsconfig.build.json` in packages/cli and its dependencies).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
export const SDK_AGENT = fileURLToPath(new URL("../fixtures/sdk-agent.mjs", import.meta.url));

/** `node dist/bin.js agent …`: the built-in agent as an agent command line for `acpkit run -- …`. */
export const BUILTIN_AGENT: readonly string[] = [process.execPath, BIN, "agent"];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Written to stdin, which is then closed. Default: stdin is closed at once. */
  input?: string;
  env?: Record<string, string | undefined>;
}

function requireBuild(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the CLI first (pnpm build)`);
}

/** Environment without color variables, so output is plain unless a test asks otherwise. */
function plainEnv(extra: CliOptions["env"] = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Start `acpkit args…` and leave it running (for `acpkit bridge`). */
export function startCli(args: readonly string[], options: CliOptions = {}): ChildProcess {
  requireBuild();
  return spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: plainEnv(options.env), stdio: ["pipe", "pipe", "pipe"] });
}

/** Run `acpkit args…` to completion. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const child = startCli(args, options);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  child.stdin!.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `acpkit run --json …` and the parsed state; fails the test with stderr when stdout is not JSON. */
export async function runJson(args: readonly string[], options: CliOptions = {}): Promise<CliResult & { state: any }> {
  const result = await runCli(["run", "--json", ...args], options);
  let state: unknown;
  try {
    state = JSON.parse(result.stdout);
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}).\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
  return { ...result, state };
}

/** What `acpkit check … --json` reported: exit code, the parsed report and a status lookup by requirement id. */
export interface CheckRun {
  code: number | null;
  report: any;
  status(id: string): string | undefined;
}

/** Runs `acpkit check …` with `--json` among `args` and parses its report (failing with stderr when there is none). */
export async function runCheck(args: readonly string[]): Promise<CheckRun> {
  const result = await runCli(args);
  let report: any;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(`no JSON report (exit ${result.code}): ${result.stderr}`);
  }
  return { code: result.code, report, status: (id: string) => report.results.find((r: any) => r.id === id)?.status };
}
