// `acpkit check client`: runs the client under test once per scenario, with `{agent}` in its
// command line replaced by the scripted checking agent (client-peer.ts), then judges what the
// agent's log shows the client did. Each requirement: pass, fail (with the wire lines), skip (why).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isAbsolutePath } from "@acpkit/core";
import { validateParams, type ProtocolVersion } from "@acpkit/schema";
import { trackChildProcess } from "@acpkit/transport-stdio";
import type { CheckResult, CheckStatus } from "./agent-check.js";
import { RequestCount } from "./answer-count.js";
import { type ClientScenario, PEER_IDS, PERMISSION_OPTIONS, type PeerLogEntry, peerLogDoneFile } from "./client-peer.js";
import { CLIENT_REQUIREMENTS, requirement } from "./requirements.js";

export interface ClientCheckOptions {
  /** The client's command line; the element `{agent}` stands for the checking agent's. */
  argv: readonly string[];
  cwd: string;
  /** How long the slow scenario's prompt takes (ms). */
  slowMs: number;
  /** How long one client run may take beyond its scenario's own waits (ms). */
  timeoutMs: number;
  /** The highest version the checking agent speaks (it answers lower offers with the offer). */
  maxProtocol: ProtocolVersion;
}

export interface ClientCheckReport {
  conformant: boolean;
  protocolVersion: ProtocolVersion | null;
  client: { name: string; version: string } | null;
  results: CheckResult[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** What one client run left behind. */
interface ParsedLine {
  t: number;
  text: string;
  value: unknown;
}

interface Run {
  entries: PeerLogEntry[];
  /** Messages the client wrote, parsed (undefined where a line was not JSON). */
  incoming: ParsedLine[];
  /** Messages the checking agent wrote, parsed. */
  outgoing: ParsedLine[];
  exitCode: number | null;
  timedOut: boolean;
  /** ms from the start of the run until the client exited. */
  exitedAfter: number;
  output: string;
}

/** The command line of the checking agent for one scenario. */
function peerArgv(scenario: ClientScenario, log: string, options: ClientCheckOptions): string[] {
  const bin = fileURLToPath(new URL("../bin.js", import.meta.url));
  return [
    process.execPath,
    bin,
    "__check-peer",
    "--scenario",
    scenario,
    "--log",
    log,
    "--slow-ms",
    String(options.slowMs),
    "--max-protocol",
    String(options.maxProtocol),
  ];
}

/**
 * How long the checker waits, once the client has exited, for the checking agent to finish its
 * log: the agent reads the rest of its input when the client's end of the pipe closes, which is
 * milliseconds unless the client left something else holding that pipe open.
 */
const PEER_LOG_WAIT_MS = 5_000;

/** Resolves true once `file` exists, false if it still does not after `ms`. */
async function waitForFile(file: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!existsSync(file)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

async function runScenario(options: ClientCheckOptions, scenario: ClientScenario, dir: string): Promise<Run> {
  const log = join(dir, `${scenario}.ndjson`);
  const argv = options.argv.flatMap((part) => (part === "{agent}" ? peerArgv(scenario, log, options) : [part]));
  const started = Date.now();
  const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });
  // A SIGTERM sent to acpkit alone (timeout, a supervisor) must reach the client too (bin.ts).
  trackChildProcess(child, { processGroup: false });
  child.stdin.end();
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-8192));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const limit = options.timeoutMs + (scenario === "slow" ? options.slowMs : 0) + (scenario === "cancel" ? 5_000 : 0);
  let timedOut = false;
  const exitCode = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, limit);
    child.once("error", () => resolve(null));
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
  const parsedOf = (dir: PeerLogEntry["dir"]) =>
    entries.filter((entry) => entry.dir === dir).map((entry) => ({ t: entry.t, text: entry.text, value: parseJson(entry.text) }));
  return { entries, incoming: parsedOf("in"), outgoing: parsedOf("out"), exitCode, timedOut, exitedAfter, output };
}

const ARROWS: Record<PeerLogEntry["dir"], string> = { in: "←", out: "→", note: "·", tail: "·" };

/** What the log could not hold in this run, as a clause for a result's message ("" when it held everything). */
function unrecorded(run: Run): string {
  const notes = run.entries.filter((entry) => entry.dir === "note");
  return notes.length === 0 ? "" : `; not everything was recorded: ${notes.map((note) => note.text).join("; ")}`;
}

class Results {
  private readonly byId = new Map<string, CheckResult>();
  constructor() {
    for (const req of CLIENT_REQUIREMENTS) this.byId.set(req.id, { id: req.id, tier: req.tier, status: "not_tested", message: "not reached" });
  }
  set(id: string, status: CheckStatus, message: string, run?: Run): void {
    if (this.byId.get(id)!.status === "fail" && status !== "fail") return;
    const result: CheckResult = { id, tier: requirement(id).tier, status, message };
    if (status === "fail" && run) result.transcript = run.entries.slice(-12).map((entry) => `${ARROWS[entry.dir]} ${entry.text.slice(0, 2000)}`);
    this.byId.set(id, result);
  }
  pass(id: string, message: string): void {
    if (this.byId.get(id)!.status === "not_tested") this.set(id, "pass", message);
  }
  list(): CheckResult[] {
    return [...this.byId.values()];
  }
}

const answerTo = (run: Run, id: string): Json | undefined =>
  run.incoming.map((line) => line.value).find((value): value is Json => isObject(value) && value.id === id && !("method" in value));
const requestsOf = (run: Run, method: string): Json[] =>
  run.incoming.map((line) => line.value).filter((value): value is Json => isObject(value) && value.method === method);

/** Checks every run shares: framing and no answers to notifications. */
function checkWire(run: Run, results: Results): void {
  const bad = run.incoming.find((line) => !isObject(line.value) || line.value.jsonrpc !== "2.0");
  if (bad) results.set("ACPKIT-CLIENT-STDIO-001", "fail", `the client wrote a line that is not a JSON-RPC message: ${bad.text.slice(0, 200)}`, run);
  else if (run.incoming.length > 0) results.pass("ACPKIT-CLIENT-STDIO-001", `every line a JSON-RPC message${unrecorded(run)}`);
  // A last message without its newline was never framed (S3). When the checker killed the client
  // (its time ran out), the output may have stopped anywhere: not judged then.
  const tail = run.entries.find((entry) => entry.dir === "tail");
  if (tail && !run.timedOut) results.set("ACPKIT-CLIENT-STDIO-001", "fail", `${tail.text}; every message ends with a newline (docs/protocol.md S3)`, run);
  const ours = new Set<unknown>(Object.values(PEER_IDS));
  const stray = run.incoming.find((line) => isObject(line.value) && !("method" in line.value) && !ours.has(line.value.id));
  if (stray) results.set("ACPKIT-CLIENT-RPC-001", "fail", `an answer to something that was not a request: ${stray.text.slice(0, 200)}`, run);
  else if (run.incoming.length > 0) results.pass("ACPKIT-CLIENT-RPC-001", "no answer to any notification");
  const sent = new RequestCount();
  for (const { value } of run.outgoing) sent.add(value);
  const twice = sent.firstRepeatedAnswer(run.incoming);
  if (twice) results.set("ACPKIT-CLIENT-RPC-003", "fail", `request ${twice.id} was answered ${twice.answers} times: ${twice.text.slice(0, 200)}`, run);
  else if (run.incoming.length > 0) results.pass("ACPKIT-CLIENT-RPC-003", "no request answered twice");
}

/** The JSON value of a logged line, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function offeredVersion(run: Run): ProtocolVersion | undefined {
  const init = requestsOf(run, "initialize")[0];
  const offered = isObject(init?.params) ? init.params.protocolVersion : undefined;
  return offered === 1 || offered === 2 ? offered : undefined;
}

function judgeBasic(run: Run, results: Results, maxProtocol: ProtocolVersion): { version: ProtocolVersion | null; client: ClientCheckReport["client"] } {
  checkWire(run, results);
  const first = run.incoming[0]?.value;
  // A client may start its agent again (acpkit run does, to offer v1 with v1 fields to an agent
  // that answered 1 to its v2 offer): each start is a process of this checking agent appending to
  // one log, and the session runs on the last connection, so the last initialize is the one that
  // says what the client advertised for it.
  const inits = requestsOf(run, "initialize");
  const init = inits[inits.length - 1];
  if (!init || !isObject(first) || first.method !== "initialize") {
    const why = init ? "initialize was not the first message" : "the client never sent initialize";
    results.set("ACPKIT-CLIENT-INIT-001", "fail", `${why}${unrecorded(run)}`, run);
    return { version: null, client: null };
  }
  const params = isObject(init.params) ? init.params : {};
  const offered = params.protocolVersion;
  const shape: ProtocolVersion = offered === 2 ? 2 : 1;
  const invalid = inits
    .map((request) => (isObject(request.params) ? request.params : {}))
    .map((each) => validateParams(each.protocolVersion === 2 ? 2 : 1, "initialize", each))
    .find((result) => !result.valid);
  const valid = invalid ?? validateParams(shape, "initialize", params);
  if (!Number.isInteger(offered)) results.set("ACPKIT-CLIENT-INIT-001", "fail", `protocolVersion ${JSON.stringify(offered)} is not an integer`, run);
  else if (!valid.valid)
    results.set("ACPKIT-CLIENT-INIT-001", "fail", `initialize params are not valid v${shape}: ${valid.errors[0]?.path} ${valid.errors[0]?.message}`, run);
  else results.pass("ACPKIT-CLIENT-INIT-001", `offered protocol ${offered}`);
  const info = isObject(params.clientInfo) ? { name: String(params.clientInfo.name), version: String(params.clientInfo.version) } : null;
  // What was advertised is in the offered version's shape; what follows is in the agreed version's.
  const caps = (shape === 1 ? params.clientCapabilities : params.capabilities) ?? {};
  const agreed: ProtocolVersion = shape === 2 && maxProtocol === 2 ? 2 : 1;
  results.set("ACPKIT-CLIENT-INFO", "pass", `clientInfo ${JSON.stringify(params.clientInfo ?? null)}; capabilities ${JSON.stringify(caps)}`);

  const sessionNew = requestsOf(run, "session/new")[0];
  if (!sessionNew) results.set("ACPKIT-CLIENT-SESSION-001", "fail", "the client never sent session/new", run);
  else {
    const check = validateParams(agreed, "session/new", sessionNew.params);
    const cwd = isObject(sessionNew.params) ? sessionNew.params.cwd : undefined;
    if (!check.valid) results.set("ACPKIT-CLIENT-SESSION-001", "fail", `session/new params: ${check.errors[0]?.path} ${check.errors[0]?.message}`, run);
    // H10's test, not this machine's: a client may name a Windows directory for an agent on Linux.
    else if (typeof cwd !== "string" || !isAbsolutePath(cwd))
      results.set("ACPKIT-CLIENT-SESSION-001", "fail", `cwd ${JSON.stringify(cwd)} is not absolute`, run);
    else results.pass("ACPKIT-CLIENT-SESSION-001", `cwd ${cwd}`);
  }

  const prompts = requestsOf(run, "session/prompt");
  const blocks = prompts.flatMap((prompt) => (isObject(prompt.params) && Array.isArray(prompt.params.prompt) ? (prompt.params.prompt as Json[]) : []));
  const foreign = blocks.find((block) => block.type !== "text" && block.type !== "resource_link");
  if (prompts.length === 0) results.set("ACPKIT-CLIENT-PROMPT-001", "skip", "the client sent no prompt (give it one, e.g. acpkit run --prompt hi)");
  else if (foreign) results.set("ACPKIT-CLIENT-PROMPT-001", "fail", `a ${String(foreign.type)} block, which the agent did not advertise`, run);
  else results.pass("ACPKIT-CLIENT-PROMPT-001", `${blocks.length} block(s), all text or resource_link`);
  if (prompts.length === 0) return { version: agreed, client: info };

  const unknown = answerTo(run, PEER_IDS.unknownMethod);
  if (!unknown) results.set("ACPKIT-CLIENT-UPDATE-001", "fail", "after an unknown update kind the client stopped answering", run);
  else results.pass("ACPKIT-CLIENT-UPDATE-001", "the connection went on after an unknown update kind");
  if (unknown && isObject(unknown.error) && unknown.error.code === -32601) results.pass("ACPKIT-CLIENT-RPC-002", "-32601");
  else results.set("ACPKIT-CLIENT-RPC-002", "fail", unknown ? `answered ${JSON.stringify(unknown.error ?? unknown.result)}` : "never answered", run);

  if (agreed === 1) {
    // A v2 offer carries no fs or terminal: a client that was answered v1 must refuse both.
    const fsOffered = shape === 1 && isObject(caps) && isObject(caps.fs) && caps.fs.readTextFile === true;
    const terminalOffered = shape === 1 && isObject(caps) && caps.terminal === true;
    const problems: string[] = [];
    for (const [id, offeredIt, what] of [
      [PEER_IDS.fsRead, fsOffered, "fs/read_text_file"],
      [PEER_IDS.terminal, terminalOffered, "terminal/create"],
    ] as const) {
      const answer = answerTo(run, id);
      const notFound = isObject(answer?.error) && answer.error.code === -32601;
      if (!answer) problems.push(`${what} was never answered`);
      else if (offeredIt && notFound) problems.push(`${what} was advertised but answered -32601`);
      else if (!offeredIt && !notFound) problems.push(`${what} was not advertised but answered ${JSON.stringify(answer.error ?? answer.result).slice(0, 80)}`);
    }
    if (problems.length > 0) results.set("ACPKIT-CLIENT-CAP-001", "fail", problems.join("; "), run);
    else results.pass("ACPKIT-CLIENT-CAP-001", `fs ${fsOffered ? "served" : "refused"}, terminal ${terminalOffered ? "served" : "refused"}, as advertised`);
  } else results.pass("ACPKIT-CLIENT-CAP-001", "v2 has no fs or terminal; none was asked");

  const permission = answerTo(run, PEER_IDS.permission);
  const outcome = isObject(permission?.result) && isObject(permission.result.outcome) ? permission.result.outcome : undefined;
  const ids = PERMISSION_OPTIONS.map((option) => option.optionId);
  if (!permission) results.set("ACPKIT-CLIENT-PERM-001", "fail", "the permission request was never answered", run);
  else if (outcome?.outcome === "cancelled" || (outcome?.outcome === "selected" && ids.includes(String(outcome.optionId))))
    results.pass("ACPKIT-CLIENT-PERM-001", `answered ${JSON.stringify(outcome)}`);
  else
    results.set(
      "ACPKIT-CLIENT-PERM-001",
      "fail",
      `answered ${JSON.stringify(permission.result ?? permission.error)}, not one of ${ids.join(", ")} or cancelled`,
      run,
    );
  return { version: agreed, client: info };
}

function judgeLowerVersion(run: Run, results: Results): void {
  checkWire(run, results);
  if (offeredVersion(run) !== 2) {
    results.set("ACPKIT-CLIENT-INIT-002", "skip", "the client offers v1, so no agent can answer lower");
    return;
  }
  // Extension methods (`_` first, D3) are in no version's method table and valid in every version.
  const after = run.incoming
    .map((line) => line.value)
    .filter((value): value is Json => isObject(value) && typeof value.method === "string" && value.method !== "initialize" && !value.method.startsWith("_"));
  const wrong = after
    .map((message) => ({ message, check: validateParams(1, String(message.method), message.params ?? undefined) }))
    .find(({ check }) => !check.valid);
  if (wrong && !wrong.check.valid) {
    results.set(
      "ACPKIT-CLIENT-INIT-002",
      "fail",
      `after the agent answered v1 the client sent ${String(wrong.message.method)} that is not valid v1: ${wrong.check.errors[0]?.path} ${wrong.check.errors[0]?.message}`,
      run,
    );
  } else
    results.pass(
      "ACPKIT-CLIENT-INIT-002",
      after.length === 0 ? "the client closed after the v1 answer" : `went on in v1 (${after.length} messages, all valid v1)`,
    );
}

function judgeCancel(run: Run, results: Results): void {
  checkWire(run, results);
  if (requestsOf(run, "session/cancel").length === 0) {
    const why = "the client never cancelled (run it with a cancel, e.g. acpkit run --cancel-after 300)";
    results.set("ACPKIT-CLIENT-CANCEL-001", "skip", why);
    results.set("ACPKIT-CLIENT-CANCEL-002", "skip", why);
    return;
  }
  const answer = answerTo(run, PEER_IDS.permissionAfterCancel);
  const outcome = isObject(answer?.result) && isObject(answer.result.outcome) ? answer.result.outcome.outcome : undefined;
  if (!answer) {
    results.set("ACPKIT-CLIENT-CANCEL-001", "fail", "after the cancel a permission request was never answered", run);
    results.set("ACPKIT-CLIENT-CANCEL-002", "fail", "after the cancel the client stopped taking the agent's messages", run);
    return;
  }
  results.pass("ACPKIT-CLIENT-CANCEL-002", "updates after the cancel were taken; the client waited for the response");
  // The question asked before the cancel: if it was still pending when the client cancelled, its
  // answer must be "cancelled" too (an answer given before the cancel may be anything offered).
  const cancelAt = run.incoming.find((line) => isObject(line.value) && line.value.method === "session/cancel")?.t ?? 0;
  const pending = run.incoming.find((line) => isObject(line.value) && line.value.id === PEER_IDS.permissionPending && !("method" in line.value));
  const heldOverCancel = pending !== undefined && pending.t >= cancelAt;
  if (heldOverCancel) {
    const pendingOutcome =
      isObject(pending.value) && isObject(pending.value.result) && isObject(pending.value.result.outcome) ? pending.value.result.outcome.outcome : undefined;
    if (pendingOutcome !== "cancelled") {
      results.set(
        "ACPKIT-CLIENT-CANCEL-001",
        "fail",
        `a permission request pending at the cancel was answered ${JSON.stringify(isObject(pending.value) ? pending.value.result : undefined)}`,
        run,
      );
      return;
    }
  }
  if (outcome === "cancelled")
    results.pass("ACPKIT-CLIENT-CANCEL-001", heldOverCancel ? "answered cancelled, the question pending at the cancel too" : "answered cancelled");
  else
    results.set(
      "ACPKIT-CLIENT-CANCEL-001",
      "fail",
      `after its cancel the client answered a permission request ${JSON.stringify(answer.result ?? answer.error)}`,
      run,
    );
}

function judgeSlow(run: Run, results: Results, slowMs: number): void {
  checkWire(run, results);
  if (requestsOf(run, "session/prompt").length === 0) {
    results.set("ACPKIT-CLIENT-SLOW-001", "skip", "the client sent no prompt");
    return;
  }
  const answered = run.entries.some((entry) => entry.dir === "out" && entry.text.includes('"stopReason"'));
  if (answered) results.pass("ACPKIT-CLIENT-SLOW-001", `waited the ${slowMs} ms the prompt took`);
  else results.set("ACPKIT-CLIENT-SLOW-001", "fail", `the client gave up on a prompt that took ${slowMs} ms (it exited after ${run.exitedAfter} ms)`, run);
}

function judgeAgentExit(run: Run, results: Results): void {
  checkWire(run, results);
  if (requestsOf(run, "session/prompt").length === 0) {
    results.set("ACPKIT-CLIENT-EXIT-001", "skip", "the client sent no prompt");
    return;
  }
  const agentGoneAt = (run.entries.filter((entry) => entry.dir === "out").at(-1)?.t ?? 0) + 100;
  if (run.timedOut || run.exitedAfter - agentGoneAt > 5000)
    results.set("ACPKIT-CLIENT-EXIT-001", "fail", `the client was still running ${run.exitedAfter - agentGoneAt} ms after the agent exited`, run);
  else
    results.pass(
      "ACPKIT-CLIENT-EXIT-001",
      `the client ended ${Math.max(0, run.exitedAfter - agentGoneAt)} ms after the agent exited (exit code ${run.exitCode})`,
    );
}

/** Run every scenario against the client; throws when the command has no `{agent}` placeholder. */
export async function checkClient(options: ClientCheckOptions): Promise<ClientCheckReport> {
  const results = new Results();
  const dir = mkdtempSync(join(tmpdir(), "acpkit-check-client-"));
  try {
    const basic = await runScenario(options, "basic", dir);
    const { version, client } = judgeBasic(basic, results, options.maxProtocol);
    judgeLowerVersion(await runScenario(options, "lower-version", dir), results);
    judgeCancel(await runScenario(options, "cancel", dir), results);
    judgeSlow(await runScenario(options, "slow", dir), results, options.slowMs);
    judgeAgentExit(await runScenario(options, "agent-exit", dir), results);
    const list = results.list();
    return { conformant: !list.some((result) => result.tier === "MUST" && result.status === "fail"), protocolVersion: version, client, results: list };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
