// `acpkit check agent`: drives an agent with the raw client (raw-agent.ts), a fresh process per
// group of requirements so one failure cannot poison the rest, and judges each requirement of
// requirements.ts: pass, fail (with the wire evidence), skip (with why) or not_tested.
import { validateParams, type ProtocolVersion } from "@acpkit/schema";
import { addressLabel } from "../address-label.js";
import { MAX_LINE_BYTES, RawAgent, RECORD_BUDGET_CHARS, type RawConnection, type RecordedLine } from "./raw-agent.js";
import { turnUpdateSession } from "./turn-updates.js";
import { AGENT_REQUIREMENTS, requirement, type Tier } from "./requirements.js";

export type CheckStatus = "pass" | "fail" | "skip" | "not_tested";

export interface CheckResult {
  id: string;
  tier: Tier;
  status: CheckStatus;
  message: string;
  /** For a failure: the relevant lines of the wire (`→` sent, `←` received). */
  transcript?: string[];
}

/**
 * conformant: every MUST requirement was judged and none failed. not_conformant:
 * one failed. inconclusive: none failed but one was never judged (blocked by authentication, a
 * step the agent refused first); a requirement that was not tested is never a pass.
 */
export type Verdict = "conformant" | "not_conformant" | "inconclusive";

export interface AgentCheckReport {
  verdict: Verdict;
  /** Why the verdict is inconclusive: one line per reason (empty otherwise). */
  inconclusive: string[];
  /** verdict === "conformant" (kept for scripts written against earlier reports). */
  conformant: boolean;
  protocolVersion: ProtocolVersion | null;
  agent: { name: string; version: string } | null;
  results: CheckResult[];
}

export interface AgentCheckOptions {
  command: string;
  args: readonly string[];
  /** Connect to an agent served over WebSocket instead of starting `command`. */
  ws?: { url: string; token?: string };
  cwd: string;
  protocol: ProtocolVersion;
  /** How long one answer may take (a prompt gets 20× this). */
  timeoutMs: number;
  /** The prompt for the turn and cancel checks. */
  prompt: string;
  /** Authenticate with this method before sessions. */
  auth?: string;
  /** How long the first answer of a fresh agent (initialize) may take: real agents take seconds to start. Default max(30 s, timeoutMs). */
  startTimeoutMs?: number;
}

/** The first answer's limit (see AgentCheckOptions.startTimeoutMs). */
function startTimeout(options: AgentCheckOptions): number {
  return options.startTimeoutMs ?? Math.max(30_000, options.timeoutMs);
}

/** The agent could not be started or initialized: `acpkit check` exits 2. */
export class AgentUnavailable extends Error {}

const V1_STOP_REASONS = new Set(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]);
const CLIENT_INFO = { name: "acpkit-check", version: "0.1.0" };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

class Results {
  private readonly byId = new Map<string, CheckResult>();
  constructor() {
    for (const req of AGENT_REQUIREMENTS) this.byId.set(req.id, { id: req.id, tier: req.tier, status: "not_tested", message: "not reached" });
  }
  set(id: string, status: CheckStatus, message: string, agent?: RawConnection): void {
    const current = this.byId.get(id)!;
    // A failure found by one group stays, whatever a later group sees.
    if (current.status === "fail" && status !== "fail") return;
    const result: CheckResult = { id, tier: requirement(id).tier, status, message };
    if (status === "fail" && agent) result.transcript = agent.transcript.slice(-12);
    this.byId.set(id, result);
  }
  pass(id: string, message: string): void {
    if (this.byId.get(id)!.status === "not_tested") this.set(id, "pass", message);
  }
  /** `ids` could not be judged because the agent demanded a login first: not_tested, with why (never a pass or a skip). */
  block(ids: readonly string[], why: string): void {
    for (const id of ids) {
      const current = this.byId.get(id)!;
      if (current.status === "not_tested" || current.status === "skip") this.byId.set(id, { ...current, status: "not_tested", message: why });
    }
  }
  message(id: string): string {
    return this.byId.get(id)!.message;
  }
  status(id: string): CheckStatus {
    return this.byId.get(id)!.status;
  }
  list(): CheckResult[] {
    return [...this.byId.values()];
  }
}

function initializeParams(version: ProtocolVersion, offered: number = version): Json {
  return version === 1
    ? { protocolVersion: offered, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: CLIENT_INFO }
    : { protocolVersion: offered, capabilities: {}, clientInfo: CLIENT_INFO };
}

/** The permission question is the client's baseline duty: the checker answers it "cancelled". */
function clientDuties(agent: RawConnection): void {
  agent.answerRequest = (method) => (method === "session/request_permission" ? { outcome: { outcome: "cancelled" } } : undefined);
}

/** A fresh connection to the agent: a new process, or a new WebSocket (whose module loads only then). */
async function connectTo(options: AgentCheckOptions): Promise<RawConnection> {
  if (options.ws === undefined) return new RawAgent(options.command, options.args, options.cwd);
  const { RawWsAgent } = await import("./raw-ws-agent.js");
  return new RawWsAgent(options.ws.url, options.ws.token);
}

async function start(options: AgentCheckOptions): Promise<{ agent: RawConnection; init: Json; initMs: number }> {
  const agent = await connectTo(options);
  clientDuties(agent);
  const error = await agent.spawnError;
  if (error)
    throw new AgentUnavailable(
      options.ws ? `could not connect to ${addressLabel(options.ws.url)}: ${error.message}` : `could not start ${options.command}: ${error.message}`,
    );
  const limit = startTimeout(options);
  const began = performance.now();
  const answer = await agent.request("init-1", "initialize", initializeParams(options.protocol), limit);
  const initMs = performance.now() - began;
  if (!answer || !isObject(answer.result)) {
    await agent.kill();
    const why = answer
      ? `answered ${JSON.stringify(answer.error ?? answer)}`
      : `no answer within ${limit} ms (an agent that is slow to start may need a longer --start-timeout)`;
    throw new AgentUnavailable(`initialize failed: ${why}${agent.stderr ? `\nagent stderr:\n${agent.stderr.slice(-2000)}` : ""}`);
  }
  if (options.auth !== undefined) await agent.request("auth-1", "authenticate", { methodId: options.auth }, options.timeoutMs);
  return { agent, init: answer.result, initMs };
}

/** An agent whose output ended on its own inside a line left a message unframed (S3: each ends with a newline). */
function checkOutputEnd(agent: RawConnection, results: Results): void {
  const tail = agent.unterminatedTail;
  if (tail === undefined) return;
  results.set(
    "ACPKIT-STDIO-001",
    "fail",
    `stdout ended inside a line: ${tail.bytes} bytes after the last newline (${JSON.stringify(tail.start)}); every message ends with a newline (docs/protocol.md S3), and a reader that splits on newlines never sees it`,
    agent,
  );
}

/** Checks every line of a group's wire that concerns all of them: framing, UTF-8, responses, fs/terminal. */
function checkWire(agent: RawConnection, results: Results): void {
  const bad = agent.lines.find((line) => !isMessageLine(line));
  if (bad) results.set("ACPKIT-STDIO-001", "fail", `stdout line is not a JSON-RPC 2.0 message: ${bad.text.slice(0, 200)}`, agent);
  else if (agent.oversizedLine)
    results.set(
      "ACPKIT-STDIO-001",
      "fail",
      `stdout held a line of more than ${MAX_LINE_BYTES} bytes (${agent.oversizedLine.bytesSeen} without a newline when the checker gave it up); acpkit's transports refuse lines that long by default`,
      agent,
    );
  else results.pass("ACPKIT-STDIO-001", `${agent.lines.length} lines, each one JSON-RPC message${unrecordedNote(agent)}`);
  checkOutputEnd(agent, results);
  if (agent.invalidUtf8) results.set("ACPKIT-STDIO-002", "fail", "stdout held bytes that are not UTF-8", agent);
  else results.pass("ACPKIT-STDIO-002", "all of stdout was UTF-8");
  // A response: an object with an id and no method.
  const both = agent.lines.find(
    (line) => isObject(line.value) && !("method" in line.value) && "id" in line.value && "result" in line.value === "error" in line.value,
  );
  if (both)
    results.set(
      "ACPKIT-RPC-002",
      "fail",
      `a response with ${"result" in (both.value as Json) ? "both result and error" : "neither result nor error"}: ${both.text.slice(0, 200)}`,
      agent,
    );
  else results.pass("ACPKIT-RPC-002", "every response had exactly one of result and error");
  const twice = agent.requestsSent.firstRepeatedAnswer(agent.lines);
  if (twice)
    results.set(
      "ACPKIT-RPC-009",
      "fail",
      `request id ${twice.id} was answered ${twice.answers} times (sent ${twice.sent}): ${twice.text.slice(0, 200)}`,
      agent,
    );
  else results.pass("ACPKIT-RPC-009", "no request was answered twice");
  const client = agent.lines.find((line) => isObject(line.value) && typeof line.value.method === "string" && /^(fs|terminal)\//.test(line.value.method));
  if (client) results.set("ACPKIT-CAP-001", "fail", `the agent sent ${(client.value as Json).method} though the client advertised no fs or terminal`, agent);
  else results.pass("ACPKIT-CAP-001", "no fs/* or terminal/* request");
}

/** What a pass message adds when lines were read past the record budget and judged as read, not kept ("" otherwise). */
function unrecordedNote(agent: RawConnection): string {
  if (agent.unrecorded === 0) return "";
  const budget = RECORD_BUDGET_CHARS / (1024 * 1024);
  return `; ${agent.unrecorded} more lines, past the ${budget} Mi characters the checker keeps, were judged as they were read and not kept`;
}

/** Why a session/update's params fail ACPKIT-UPDATE-001, or undefined when they pass. */
function updateProblem(version: ProtocolVersion, known: ReadonlySet<unknown>, params: unknown): string | undefined {
  const check = validateParams(version, "session/update", params);
  if (!check.valid) return `not valid v${version} (${check.errors[0]?.path || "/"}: ${check.errors[0]?.message})`;
  const named = isObject(params) ? params.sessionId : undefined;
  return known.has(named) ? undefined : `for session ${JSON.stringify(named)}, which this client never opened`;
}

function isMessageLine(line: RecordedLine): boolean {
  const values = Array.isArray(line.value) ? line.value : [line.value];
  return values.length > 0 && values.every((value) => isObject(value) && value.jsonrpc === "2.0");
}

/** ACPKIT-RPC-005's judgement of the answer to a line that is not JSON (undefined: none came). */
function parseErrorVerdict(answer: RecordedLine | undefined): ["pass" | "fail", string] {
  if (!answer) return ["fail", 'a line that is not JSON got no answer (JSON-RPC requires a -32700 error with "id": null)'];
  const value = answer.value as Json;
  const code = (value.error as Json).code;
  const problems: string[] = [];
  if (code !== -32700) problems.push(`its code is ${JSON.stringify(code)}, not -32700`);
  if (!("id" in value)) problems.push('it has no "id" member (JSON-RPC requires "id": null when the id could not be read)');
  if (problems.length === 0) return ["pass", "-32700 with id null"];
  return ["fail", `a line that is not JSON was answered, but ${problems.join(" and ")}: ${answer.text.slice(0, 200)}`];
}

/** Group: JSON-RPC behaviour, errors, and exiting when stdin closes. */
async function protocolGroup(options: AgentCheckOptions, results: Results): Promise<{ init: Json; version: ProtocolVersion; initMs: number }> {
  const { agent, init, initMs } = await start(options);
  try {
    const answered = init.protocolVersion;
    if (!Number.isInteger(answered)) results.set("ACPKIT-INIT-001", "fail", `protocolVersion ${JSON.stringify(answered)} is not an integer`, agent);
    else
      results.pass(
        "ACPKIT-INIT-001",
        answered === options.protocol ? `answered ${answered}, as offered` : `answered ${answered} to an offer of ${options.protocol}`,
      );
    const version: ProtocolVersion = answered === 2 ? 2 : 1;

    const stringId = "ü-🙂-check";
    const bigId = 9007199254740991;
    const unknown1 = await agent.request(stringId, "acpkit/check-unknown-method", {}, options.timeoutMs);
    const unknown2 = await agent.request(bigId, "acpkit/check-unknown-method", {}, options.timeoutMs);
    if (!unknown1 || !unknown2) results.set("ACPKIT-RPC-001", "fail", "a request with a unicode or a large integer id got no answer under that id", agent);
    else results.pass("ACPKIT-RPC-001", "both ids came back exactly");
    const codes = [unknown1, unknown2].map((answer) => (isObject(answer?.error) ? answer.error.code : undefined));
    if (codes.every((code) => code === -32601)) results.pass("ACPKIT-RPC-004", "-32601 for an unknown method");
    else results.set("ACPKIT-RPC-004", "fail", `an unknown method was answered ${JSON.stringify(codes)}, not -32601`, agent);

    let from = agent.lines.length;
    agent.writeLine('{"jsonrpc":"2.0","id":"parse-1","method":');
    // Any error response that is not under one of our ids answers the broken line; judge what came
    // (an answer without an id member is a wrong answer, not a missing one).
    const parse = await agent.waitFor(
      (value) => (value.id === null || !("id" in value)) && !("method" in value) && isObject(value.error),
      options.timeoutMs,
      from,
    );
    results.set("ACPKIT-RPC-005", ...parseErrorVerdict(parse), agent);

    from = agent.lines.length;
    agent.send({ jsonrpc: "2.0", id: "invalid-1", method: 5 });
    const invalid = await agent.waitFor((value) => (value.id === "invalid-1" || value.id === null) && isObject(value.error), options.timeoutMs, from);
    if (invalid && ((invalid.value as Json).error as Json).code === -32600) results.pass("ACPKIT-RPC-006", "-32600 for a method that is not a string");
    else results.set("ACPKIT-RPC-006", "fail", invalid ? `answered ${invalid.text.slice(0, 200)}` : "an invalid request got no -32600 answer", agent);

    // Notifications, then a request to sync on: nothing may answer the notifications.
    from = agent.lines.length;
    agent.send({ jsonrpc: "2.0", method: "_acpkit/check-notification", params: {} });
    agent.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "acpkit-check-no-such-session" } });
    const sync = await agent.request("sync-1", "acpkit/check-unknown-method", {}, options.timeoutMs);
    const stray = agent.lines.slice(from).find((line) => isObject(line.value) && !("method" in line.value) && line.value.id !== "sync-1");
    if (stray) results.set("ACPKIT-RPC-003", "fail", `a notification was answered: ${stray.text.slice(0, 200)}`, agent);
    else if (sync) results.pass("ACPKIT-RPC-003", "two notifications, no answer");
    if (sync) results.pass("ACPKIT-RPC-007", "requests after the errors are still answered");
    else results.set("ACPKIT-RPC-007", "fail", "after the malformed lines the agent stopped answering", agent);

    const extension = await agent.request("ext-1", "_acpkit/check-extension", {}, options.timeoutMs);
    if (extension) results.pass("ACPKIT-RPC-008", isObject(extension.error) ? `answered error ${extension.error.code}` : "answered a result");
    else results.set("ACPKIT-RPC-008", "fail", "an extension request got no answer", agent);

    results.set(
      "ACPKIT-INFO-AGENT",
      "pass",
      `agentInfo ${JSON.stringify(init.agentInfo ?? null)}; capabilities ${JSON.stringify(init.agentCapabilities ?? init.capabilities ?? {})}; authMethods ${JSON.stringify(init.authMethods ?? [])}`,
    );
    checkWire(agent, results);
    if (!agent.hasStdin) results.set("ACPKIT-EXIT-001", "skip", "over WebSocket there is no stdin to close");
    else {
      const exit = await agent.closeStdin(5000);
      if (exit) results.pass("ACPKIT-EXIT-001", `exited (code ${exit.code}, signal ${exit.signal}) after stdin closed`);
      else results.set("ACPKIT-EXIT-001", "fail", "still running 5 s after its stdin closed", agent);
      // What it wrote last before exiting: judged only now that its output has ended.
      checkOutputEnd(agent, results);
    }
    return { init, version, initMs };
  } finally {
    await agent.kill();
  }
}

async function negotiationGroup(options: AgentCheckOptions, results: Results): Promise<void> {
  const agent = await connectTo(options);
  clientDuties(agent);
  try {
    if (await agent.spawnError) return;
    const answer = await agent.request("init-future", "initialize", initializeParams(options.protocol, 65535), startTimeout(options));
    const version = isObject(answer?.result) ? answer.result.protocolVersion : undefined;
    if (!answer) results.set("ACPKIT-INIT-002", "fail", "no answer to initialize with protocolVersion 65535", agent);
    else if (isObject(answer.error))
      results.set(
        "ACPKIT-INIT-002",
        "fail",
        `a version mismatch was answered with error ${answer.error.code}; it must be answered with the latest supported version`,
        agent,
      );
    else if (version === 65535) results.set("ACPKIT-INIT-002", "fail", "the agent echoed protocolVersion 65535, which no agent speaks", agent);
    else results.pass("ACPKIT-INIT-002", `answered ${JSON.stringify(version)}`);
    checkWire(agent, results);
  } finally {
    await agent.kill();
  }
}

/** Why `session/new` gave no session: `auth` when the agent demanded a login (the checks it gates are then blocked, not failed). */
class SessionRefused {
  constructor(
    readonly message: string,
    readonly auth: boolean,
  ) {}
}

/** The not_tested reason for checks an authentication demand (-32000) kept from running, at any step. */
function authBlock(step: string, error: Json, options: AgentCheckOptions): string {
  const hint = options.auth === undefined ? "run again with --auth METHOD_ID if the agent lists one" : `--auth ${options.auth} did not satisfy it`;
  return `blocked by authentication: ${step} answered -32000 ${JSON.stringify(String(error.message ?? ""))} (${hint})`;
}

/** Sessions of the agent need `session/new`; an agent that demands authentication blocks them. */
async function newSession(agent: RawConnection, options: AgentCheckOptions, id: string): Promise<Json | SessionRefused> {
  const answer = await agent.request(id, "session/new", { cwd: options.cwd, mcpServers: [] }, options.timeoutMs);
  if (!answer) return new SessionRefused("session/new got no answer", false);
  if (isObject(answer.error)) {
    if (answer.error.code === -32000) return new SessionRefused(authBlock("session/new", answer.error, options), true);
    return new SessionRefused(`session/new failed with ${answer.error.code}: ${String(answer.error.message)}`, false);
  }
  return isObject(answer.result) ? answer.result : new SessionRefused("session/new answered no object", false);
}

function stopReasonProblem(version: ProtocolVersion, reason: unknown): string | undefined {
  if (typeof reason !== "string") return `stopReason ${JSON.stringify(reason)} is not a string`;
  if (V1_STOP_REASONS.has(reason) || (version === 2 && reason.startsWith("_"))) return undefined;
  return `stopReason "${reason}" is not one of protocol v${version}'s`;
}

async function turnGroup(options: AgentCheckOptions, version: ProtocolVersion, results: Results): Promise<Json | undefined> {
  const { agent } = await start(options);
  const sessionIds = ["ACPKIT-SESSION-001", "ACP-PROMPT-001", "ACPKIT-UPDATE-001", "ACPKIT-ORDER-001"];
  try {
    const first = await newSession(agent, options, "new-1");
    const second = first instanceof SessionRefused ? first : await newSession(agent, options, "new-2");
    if (first instanceof SessionRefused || second instanceof SessionRefused) {
      const refused = (first instanceof SessionRefused ? first : second) as SessionRefused;
      if (refused.auth) results.block(sessionIds, refused.message);
      else for (const id of sessionIds) results.set(id, "fail", refused.message, agent);
      return undefined;
    }
    if (typeof first.sessionId === "string" && typeof second.sessionId === "string" && first.sessionId !== second.sessionId) {
      results.pass("ACPKIT-SESSION-001", `${first.sessionId} and ${second.sessionId}`);
    } else results.set("ACPKIT-SESSION-001", "fail", `session ids ${JSON.stringify(first.sessionId)} and ${JSON.stringify(second.sessionId)}`, agent);

    const sessionId = first.sessionId as string;
    // Every update during the turn is judged: valid for the version, and for a session this
    // connection has (an agent may report on any of its sessions; one the client never opened is
    // wrong). Judged as read, so that updates past the checker's record are judged too.
    const known = new Set([sessionId, second.sessionId]);
    agent.judgeUpdate = (params) => updateProblem(version, known, params);
    const from = agent.lines.length;
    const response = await agent.request("prompt-1", "session/prompt", { sessionId, prompt: [{ type: "text", text: options.prompt }] }, options.timeoutMs * 20);
    if (!response) {
      for (const id of sessionIds.slice(1)) results.set(id, "fail", "session/prompt got no answer", agent);
      return first;
    }
    if (isObject(response.error) && response.error.code === -32000) {
      // The agent made a session but wants a login before it works (claude-agent-acp lists no
      // methods and does this): the turn's requirements were not tested, which is not a failure.
      results.block(sessionIds.slice(1), authBlock("session/prompt", response.error, options));
      checkWire(agent, results);
      return first;
    }
    const responseAt = agent.lines.findIndex((line, index) => index >= from && isObject(line.value) && line.value.id === "prompt-1");
    const problem = isObject(response.error)
      ? `session/prompt failed with ${response.error.code}`
      : stopReasonProblem(version, isObject(response.result) ? response.result.stopReason : undefined);
    if (problem) results.set("ACP-PROMPT-001", "fail", problem, agent);
    else results.pass("ACP-PROMPT-001", `stopReason ${JSON.stringify((response.result as Json).stopReason)}`);

    const updates = agent.lines.slice(from, responseAt).filter((line) => isObject(line.value) && line.value.method === "session/update");
    const problem2 = updates
      .map((line) => ({ line, why: updateProblem(version, known, (line.value as Json).params) }))
      .find((found) => found.why !== undefined);
    const ofTurn = updates.filter((line) => ((line.value as Json).params as Json | undefined)?.sessionId === sessionId).length;
    if (problem2) results.set("ACPKIT-UPDATE-001", "fail", `an update ${problem2.why}: ${problem2.line.text.slice(0, 200)}`, agent);
    else results.pass("ACPKIT-UPDATE-001", `${updates.length} updates (${ofTurn} for the prompted session), all valid${unrecordedNote(agent)}`);

    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = lateTurnUpdate(agent, agent.lines[responseAt]!, sessionId);
    if (late) results.set("ACPKIT-ORDER-001", "fail", `an update came after the prompt's response: ${late}`, agent);
    else results.pass("ACPKIT-ORDER-001", "nothing after the response");
    checkWire(agent, results);
    return first;
  } finally {
    await agent.kill();
  }
}

/** A `session/update` for `sessionId` that belongs to a turn (ACPKIT-ORDER-001 looks for these after the response). */
function isTurnUpdate(value: unknown, sessionId: unknown): boolean {
  return sessionId !== undefined && turnUpdateSession(value) === sessionId;
}

/** Whether an update of `sessionId`'s turn came after `response`: kept, or read past the record budget. */
function lateTurnUpdate(agent: RawConnection, response: RecordedLine, sessionId: unknown): string | undefined {
  const at = agent.lines.indexOf(response);
  const late = agent.lines.slice(at + 1).find((line) => isTurnUpdate(line.value, sessionId));
  if (late) return late.text.slice(0, 200);
  if (agent.droppedUpdateAfter(sessionId, response.seq)) return `one of the ${agent.unrecorded} lines read past the checker's record`;
  return undefined;
}

async function cancelGroup(options: AgentCheckOptions, results: Results): Promise<void> {
  const { agent } = await start(options);
  try {
    const session = await newSession(agent, options, "new-1");
    if (session instanceof SessionRefused) {
      if (session.auth) results.block(["ACP-CANCEL-001"], session.message);
      else results.set("ACP-CANCEL-001", "fail", session.message, agent);
      return;
    }
    const from = agent.lines.length;
    agent.send({
      jsonrpc: "2.0",
      id: "prompt-c",
      method: "session/prompt",
      params: { sessionId: session.sessionId, prompt: [{ type: "text", text: options.prompt }] },
    });
    await agent.waitFor((value) => value.method === "session/update" || value.id === "prompt-c", 1000, from);
    const early = agent.lines.slice(from).find((line) => isObject(line.value) && line.value.id === "prompt-c");
    if (early) {
      const error = (early.value as Json).error;
      if (isObject(error) && error.code === -32000) results.block(["ACP-CANCEL-001"], authBlock("session/prompt", error, options));
      else results.set("ACP-CANCEL-001", "skip", "the turn ended before the cancel could be sent (use a longer --prompt)");
      return;
    }
    agent.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: session.sessionId } });
    const answer = await agent.waitFor((value) => value.id === "prompt-c" && !("method" in value), options.timeoutMs * 20, from);
    const value = answer?.value as Json | undefined;
    if (!value) results.set("ACP-CANCEL-001", "fail", "the cancelled prompt was never answered", agent);
    else if (isObject(value.error) && value.error.code === -32000) results.block(["ACP-CANCEL-001"], authBlock("session/prompt", value.error, options));
    else if (isObject(value.error))
      results.set("ACP-CANCEL-001", "fail", `the cancelled prompt was answered with error ${value.error.code}; it must end with stopReason cancelled`, agent);
    else if ((value.result as Json)?.stopReason !== "cancelled") {
      results.set("ACP-CANCEL-001", "fail", `the cancelled prompt ended with stopReason ${JSON.stringify((value.result as Json)?.stopReason)}`, agent);
    } else results.pass("ACP-CANCEL-001", "stopReason cancelled");
    // A cancelled turn too: nothing of it after its response.
    if (answer) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const late = lateTurnUpdate(agent, answer, session.sessionId);
      if (late) results.set("ACPKIT-ORDER-001", "fail", `an update came after the cancelled prompt's response: ${late}`, agent);
    }
    checkWire(agent, results);
  } finally {
    await agent.kill();
  }
}

function advertised(init: Json, version: ProtocolVersion) {
  const caps = (
    isObject(version === 1 ? init.agentCapabilities : init.capabilities) ? (version === 1 ? init.agentCapabilities : init.capabilities) : {}
  ) as Json;
  const session = (isObject(version === 1 ? caps.sessionCapabilities : caps.session) ? (version === 1 ? caps.sessionCapabilities : caps.session) : {}) as Json;
  const prompt = (version === 1 ? caps.promptCapabilities : session.prompt) as Json | undefined;
  const on = (key: string) => (version === 1 ? prompt?.[key] === true : isObject(prompt?.[key]));
  return {
    load: version === 1 ? caps.loadSession === true : isObject(session.load),
    list: isObject(session.list),
    close: isObject(session.close),
    resume: isObject(session.resume),
    delete: isObject(session.delete),
    /** Prompt block types beyond text and resource_link that the agent accepts. */
    blocks: [on("image") ? "image" : undefined, on("audio") ? "audio" : undefined, on("embeddedContext") ? "resource" : undefined].filter(
      (b): b is string => b !== undefined,
    ),
  };
}

const CAPABILITY_IDS = AGENT_REQUIREMENTS.filter((requirement) => requirement.tier === "CAPABILITY").map((requirement) => requirement.id);

async function capabilityGroup(options: AgentCheckOptions, init: Json, version: ProtocolVersion, setup: Json | undefined, results: Results): Promise<void> {
  const caps = advertised(init, version);
  const modes = isObject(setup?.modes) ? (setup.modes as Json) : undefined;
  const select = Array.isArray(setup?.configOptions)
    ? (setup.configOptions as Json[]).find((option) => option.type === "select" && Array.isArray(option.options))
    : undefined;
  if (!caps.load) results.set("ACPKIT-CAP-LOAD", "skip", "loadSession not advertised");
  if (!caps.list) results.set("ACPKIT-CAP-LIST", "skip", "session list not advertised");
  if (!caps.close) results.set("ACPKIT-CAP-CLOSE", "skip", "session close not advertised");
  if (!caps.resume) results.set("ACPKIT-CAP-RESUME", "skip", "session resume not advertised");
  if (!caps.delete) results.set("ACPKIT-CAP-DELETE", "skip", "session delete not advertised");
  if (caps.blocks.length === 0) results.set("ACPKIT-CAP-PROMPT", "skip", "no prompt content beyond text and resource_link advertised");
  if (!modes) results.set("ACPKIT-CAP-MODES", "skip", "no modes in the session/new result");
  if (!select) results.set("ACPKIT-CAP-CONFIG", "skip", "no select config option in the session/new result");
  if (!caps.load && !caps.list && !caps.close && !caps.resume && !caps.delete && caps.blocks.length === 0 && !modes && !select) return;
  const { agent } = await start(options);
  try {
    const session = await newSession(agent, options, "new-cap");
    if (session instanceof SessionRefused) {
      // Only the advertised ones are still not_tested here; the rest were skipped above.
      const advertisedIds = CAPABILITY_IDS.filter((id) => results.status(id) === "not_tested");
      if (session.auth) results.block(advertisedIds, session.message);
      else for (const id of advertisedIds) results.set(id, "fail", session.message, agent);
      return;
    }
    const sessionId = session.sessionId as string;
    const judge = (id: string, answer: Json | undefined, ok: (result: unknown) => boolean, what: string) => {
      if (answer && !isObject(answer.error) && ok(answer.result)) results.pass(id, `${what} answered`);
      else results.set(id, "fail", answer ? `${what} answered ${JSON.stringify(answer.error ?? answer.result).slice(0, 200)}` : `${what} got no answer`, agent);
    };
    if (modes) {
      const other = (modes.availableModes as Json[] | undefined)?.find((mode) => mode.id !== modes.currentModeId);
      if (other)
        judge(
          "ACPKIT-CAP-MODES",
          await agent.request("mode-1", "session/set_mode", { sessionId, modeId: other.id }, options.timeoutMs),
          () => true,
          `session/set_mode ${String(other.id)}`,
        );
      else results.set("ACPKIT-CAP-MODES", "skip", "only one mode");
    }
    if (select) {
      const values = (select.options as Json[])
        .flatMap((entry) => (Array.isArray(entry.options) ? (entry.options as Json[]) : [entry]))
        .map((entry) => entry.value);
      const other = values.find((value) => value !== select.currentValue);
      if (other !== undefined) {
        judge(
          "ACPKIT-CAP-CONFIG",
          await agent.request("config-1", "session/set_config_option", { sessionId, configId: select.id, value: other }, options.timeoutMs),
          (result) => isObject(result) && Array.isArray(result.configOptions),
          `session/set_config_option ${String(select.id)}=${String(other)}`,
        );
      } else results.set("ACPKIT-CAP-CONFIG", "skip", "the select option has one value");
    }
    if (caps.list)
      judge(
        "ACPKIT-CAP-LIST",
        await agent.request("list-1", "session/list", {}, options.timeoutMs),
        (result) => isObject(result) && Array.isArray(result.sessions),
        "session/list",
      );
    if (caps.load) {
      judge(
        "ACPKIT-CAP-LOAD",
        await agent.request("load-1", "session/load", { sessionId, cwd: options.cwd, mcpServers: [] }, options.timeoutMs * 5),
        () => true,
        "session/load",
      );
    }
    if (caps.blocks.length > 0) {
      const samples: Record<string, Json> = {
        image: { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        audio: { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
        resource: { type: "resource", resource: { uri: "file:///acpkit-check/notes.txt", text: "notes", mimeType: "text/plain" } },
      };
      const prompt = [{ type: "text", text: options.prompt }, ...caps.blocks.map((block) => samples[block]!)];
      const answer = await agent.request("prompt-blocks", "session/prompt", { sessionId, prompt }, options.timeoutMs * 20);
      if (answer && !(isObject(answer.error) && answer.error.code === -32602))
        results.pass("ACPKIT-CAP-PROMPT", `a prompt with ${caps.blocks.join(", ")} blocks was accepted`);
      else
        results.set(
          "ACPKIT-CAP-PROMPT",
          "fail",
          answer ? `a prompt with the advertised ${caps.blocks.join(", ")} blocks was refused: ${JSON.stringify(answer.error)}` : "the prompt got no answer",
          agent,
        );
    }
    if (caps.close) judge("ACPKIT-CAP-CLOSE", await agent.request("close-1", "session/close", { sessionId }, options.timeoutMs), () => true, "session/close");
    if (caps.resume)
      judge(
        "ACPKIT-CAP-RESUME",
        await agent.request("resume-1", "session/resume", { sessionId, cwd: options.cwd }, options.timeoutMs * 5),
        () => true,
        "session/resume",
      );
    if (caps.delete)
      judge("ACPKIT-CAP-DELETE", await agent.request("delete-1", "session/delete", { sessionId }, options.timeoutMs), () => true, "session/delete");
    checkWire(agent, results);
  } finally {
    await agent.kill();
  }
}

/** Run every group; throws AgentUnavailable when the agent cannot be started or initialized. */
export async function checkAgent(options: AgentCheckOptions): Promise<AgentCheckReport> {
  const results = new Results();
  const { init, version, initMs } = await protocolGroup(options, results);
  await negotiationGroup(options, results);
  const setup = await turnGroup(options, version, results);
  await cancelGroup(options, results);
  await capabilityGroup(options, init, version, setup, results);
  if (initMs > options.timeoutMs)
    results.set(
      "ACPKIT-INFO-AGENT",
      "pass",
      `${results.message("ACPKIT-INFO-AGENT")}; slow to start: its first initialize took ${Math.round(initMs)} ms, more than --timeout ${options.timeoutMs} ms (the first answer may take --start-timeout ${startTimeout(options)} ms)`,
    );
  const list = results.list();
  const info = isObject(init.agentInfo) ? { name: String(init.agentInfo.name), version: String(init.agentInfo.version) } : null;
  const { verdict, inconclusive } = judge(list);
  return { verdict, inconclusive, conformant: verdict === "conformant", protocolVersion: version, agent: info, results: list };
}

/** The verdict rules (docs/conformance.md): MUST requirements decide it; CAPABILITY, SHOULD and INFO are reported. */
export function judge(results: readonly CheckResult[]): { verdict: Verdict; inconclusive: string[] } {
  const deciding = results.filter((result) => result.tier === "MUST");
  if (deciding.some((result) => result.status === "fail")) return { verdict: "not_conformant", inconclusive: [] };
  const untested = deciding.filter((result) => result.status === "not_tested");
  if (untested.length === 0) return { verdict: "conformant", inconclusive: [] };
  const reasons = [...new Set(untested.map((result) => result.message))];
  return {
    verdict: "inconclusive",
    inconclusive: reasons.map(
      (reason) =>
        `${untested
          .filter((result) => result.message === reason)
          .map((result) => result.id)
          .join(", ")}: ${reason}`,
    ),
  };
}
