// One run of the client under test per scenario, with the checking agent behind it, and what the
// run left behind: the agent's log of every line both ways, how the client ended, and when.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMemoryPair } from "@acpkit/transport-memory";
import { trackChildProcess } from "@acpkit/transport-stdio";
import { type ClientScenario, createClientPeer, type PeerLogEntry } from "./peer.js";
import { peerLogDoneFile } from "./peer-stdio.js";
import type { ClientCheckContext, ClientCommandTarget, InProcessClientTarget } from "./target.js";

/** One parsed line of the log. */
export interface ParsedLine {
  t: number;
  text: string;
  value: unknown;
}

/** What one client run left behind. */
export interface Run {
  /** How the client was reached: its process's pipes, or an in-process channel (no lines of bytes). */
  kind: "process" | "in-process";
  entries: PeerLogEntry[];
  /** Messages the client wrote, parsed (undefined where a line was not JSON). */
  incoming: ParsedLine[];
  /** Messages the checking agent wrote, parsed. */
  outgoing: ParsedLine[];
  /** The client's exit code (in-process: 0 when its run resolved, 1 when it rejected; null when stopped). */
  exitCode: number | null;
  timedOut: boolean;
  /** ms from the start of the run until the client exited (in-process: until its run settled). */
  exitedAfter: number;
  /** The end of what the client printed (in-process: why its run rejected). */
  output: string;
}

/**
 * How long the checker waits, once the client has exited, for the checking agent to finish its
 * log: the agent reads the rest of its input when the client's end of the pipe closes, which is
 * milliseconds unless the client left something else holding that pipe open.
 */
const PEER_LOG_WAIT_MS = 5_000;

/** How long a scenario may run: the run's limit plus what the scenario itself waits. */
function scenarioLimit(context: ClientCheckContext, scenario: ClientScenario): number {
  return context.timeoutMs + (scenario === "slow" ? context.slowMs : 0) + (scenario === "cancel" ? 5_000 : 0);
}

/** The JSON value of a logged line, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parsedOf(entries: readonly PeerLogEntry[], dir: PeerLogEntry["dir"]): ParsedLine[] {
  return entries.filter((entry) => entry.dir === dir).map((entry) => ({ t: entry.t, text: entry.text, value: parseJson(entry.text) }));
}

/** Runs `body` with a scratch folder for the checking agent's log files, removed afterwards. */
export async function withScratch<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "acpkit-check-client-"));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Resolves true once `file` exists, false if it still does not after `ms`. */
async function waitForFile(file: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!existsSync(file)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

/** The command line of the checking agent for one scenario. */
function peerArgv(scenario: ClientScenario, log: string, context: ClientCheckContext): string[] {
  const main = fileURLToPath(new URL("./peer-main.js", import.meta.url));
  return [process.execPath, main, "--scenario", scenario, "--log", log, "--slow-ms", String(context.slowMs), "--max-protocol", String(context.maxProtocol)];
}

export async function runCommandScenario(context: ClientCheckContext, target: ClientCommandTarget, scenario: ClientScenario, dir: string): Promise<Run> {
  const log = join(dir, `${scenario}.ndjson`);
  const argv = target.argv.flatMap((part) => (part === "{agent}" ? peerArgv(scenario, log, context) : [part]));
  const started = Date.now();
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: target.cwd ?? context.cwd,
    stdio: ["pipe", "pipe", "pipe"],
    ...(target.env === undefined ? {} : { env: { ...process.env, ...target.env } }),
  });
  // A SIGTERM sent to the checker alone (timeout, a supervisor) must reach the client too.
  trackChildProcess(child, { processGroup: false });
  child.stdin.end();
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-8192));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let timedOut = false;
  const exitCode = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(
      () => {
        timedOut = true;
        child.kill("SIGKILL");
      },
      scenarioLimit(context, scenario),
    );
    child.once("error", (error) => {
      clearTimeout(timer);
      output += `\ncould not start ${argv[0]}: ${error.message}`;
      resolve(null);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  const exitedAfter = Date.now() - started;
  // The client may be gone before the checking agent it started has read what it wrote.
  const logDone = await waitForFile(peerLogDoneFile(log), PEER_LOG_WAIT_MS);
  let entries: PeerLogEntry[] = [];
  try {
    entries = readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as PeerLogEntry);
  } catch (error) {
    // Judging an unreadable log as an empty one would blame the client for silence; say it instead.
    entries = [{ t: 0, dir: "note", text: `the checking agent's log could not be read: ${(error as Error).message}` }];
  }
  if (!logDone)
    entries.push({
      t: exitedAfter + PEER_LOG_WAIT_MS,
      dir: "note",
      text: `the checking agent had not finished its log ${PEER_LOG_WAIT_MS} ms after the client exited (something kept its input open, or it ended early); judged on what it had logged by then`,
    });
  return { kind: "process", entries, incoming: parsedOf(entries, "in"), outgoing: parsedOf(entries, "out"), exitCode, timedOut, exitedAfter, output };
}

export async function runInProcessScenario(context: ClientCheckContext, target: InProcessClientTarget, scenario: ClientScenario): Promise<Run> {
  const [clientEnd, agentEnd] = createMemoryPair();
  const entries: PeerLogEntry[] = [];
  const peer = createClientPeer(
    scenario,
    {
      write: (text) => {
        agentEnd.send(JSON.parse(text)).catch(() => {
          // The client closed its end: what it missed shows in the log as unanswered.
        });
      },
      log: (entry) => entries.push(entry),
      logDone: () => {},
      leave: () => void agentEnd.close("the checking agent left (agent-exit scenario)"),
    },
    { slowMs: context.slowMs, maxProtocol: context.maxProtocol },
  );
  agentEnd.start({
    onMessage: (message) => peer.line(typeof message === "string" ? message : JSON.stringify(message)),
    onTransportError: (error) => peer.note("note", `the channel reported: ${error.message}`),
  });
  const started = Date.now();
  let output = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    Promise.resolve()
      .then(() => target.run(clientEnd))
      .then(
        () => 0,
        (error: unknown) => {
          output = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          return 1;
        },
      ),
    new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), scenarioLimit(context, scenario)))),
  ]);
  clearTimeout(timer);
  const exitedAfter = Date.now() - started;
  // The client is done (or given up on): its end closes, and with it the agent's input.
  await clientEnd.close("the client's run is over");
  await agentEnd.close("the client's run is over");
  peer.end();
  const timedOut = outcome === "timeout";
  return {
    kind: "in-process",
    entries,
    incoming: parsedOf(entries, "in"),
    outgoing: parsedOf(entries, "out"),
    exitCode: timedOut ? null : outcome,
    timedOut,
    exitedAfter,
    output,
  };
}
