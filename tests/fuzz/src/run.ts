// The fuzz runner: seeded cases in batches against one receiver, each batch closed by a sync
// request, then every answer checked against the oracle. A failure names the seed and case numbers
// so `pnpm fuzz --seed S --from N --cases M` replays exactly those cases.
import { type AgentConnection, type ClientSession, connectAgent } from "@acpkit/client";
import { isAcpError, isRpcError } from "@acpkit/core";
import { type ClientChannel, memoryAgent, memoryClientChannel, type RawPeer, stdioAgent, stdioClientChannel } from "./channels.js";
import { mutate } from "./mutate.js";
import { type Expectation, expectationFor, type ServedMethods } from "./oracle.js";
import { Random } from "./random.js";
import { agentServed, agentTraffic, clientServed, clientTraffic } from "./traffic.js";

export interface FuzzOptions {
  side: "agent" | "client";
  channel: "memory" | "stdio";
  version: 1 | 2;
  /** Agent side, version 2: speak the later v2 draft (initialize with `info`) instead of the pinned one. */
  later?: boolean;
  seed: number;
  /** First case number (for replaying). */
  from: number;
  cases: number;
  batch?: number;
}

export interface FuzzReport {
  options: FuzzOptions;
  cases: number;
  lines: number;
  /** Answers seen, by kind: "result", or the error code. */
  answers: Record<string, number>;
  unanswered: number;
  failures: string[];
  /** Client side: how the turns of the batches ended. */
  turns?: Record<string, number>;
}

const encoder = new TextEncoder();
const line = (value: unknown) => JSON.stringify(value);
const BATCH_TIMEOUT_MS = 10_000;
const MAX_FAILURES = 20;

export interface Answer {
  id: unknown;
  code: number | "result";
}

/** The answers in one line the receiver wrote (responses only; its own requests are skipped). */
function answersIn(text: string): { answers: Answer[]; batched: boolean } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const batched = Array.isArray(value);
  const answers: Answer[] = [];
  for (const entry of batched ? (value as unknown[]) : [value]) {
    if (typeof entry !== "object" || entry === null || "method" in entry) continue;
    const message = entry as { id?: unknown; error?: { code?: unknown } | null };
    answers.push({ id: message.id, code: message.error !== undefined ? Number(message.error?.code) : "result" });
  }
  return { answers, batched };
}

const keyOf = (id: unknown) => JSON.stringify(id);
/** An id as failure reports show it: long ones cut. */
const shown = (key: string) => (key.length > 60 ? `${key.slice(0, 57)}…"` : key);

/** Waits until `done()` or the timeout; yields to I/O between checks. */
async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return true;
}

/** Checks one batch's answers against the expectations; returns the problems found. */
export function checkBatch(
  expectations: { index: number; label: string; expectation: Expectation }[],
  answers: Answer[],
  syncKey: string,
  report: FuzzReport,
): string[] {
  const problems: string[] = [];
  const expectedById = new Map<string, { code: number | "served"; index: number; label: string }>();
  const expectedNull: { code: number; index: number; label: string }[] = [];
  for (const { index, label, expectation } of expectations) {
    for (const entry of expectation.byId) expectedById.set(keyOf(entry.id), { code: entry.code, index, label });
    for (const code of expectation.nullAnswers) expectedNull.push({ code, index, label });
  }
  const seen = new Set<string>();
  const nullAnswers: Answer[] = [];
  for (const answer of answers) {
    report.answers[String(answer.code)] = (report.answers[String(answer.code)] ?? 0) + 1;
    if (answer.id === null) {
      nullAnswers.push(answer);
      continue;
    }
    const key = keyOf(answer.id);
    if (key === syncKey) continue;
    const expected = expectedById.get(key);
    if (!expected) {
      problems.push(`an answer under id ${shown(key)} that no case expected (${answer.code})`);
      continue;
    }
    if (seen.has(key)) problems.push(`case ${expected.index} (${expected.label}): id ${shown(key)} answered twice`);
    seen.add(key);
    if (answer.code === -32603 || answer.code === -32700) problems.push(`case ${expected.index} (${expected.label}): id ${shown(key)} answered ${answer.code}`);
    else if (expected.code !== "served" && answer.code !== expected.code)
      problems.push(`case ${expected.index} (${expected.label}): id ${shown(key)} answered ${answer.code}, expected ${expected.code}`);
  }
  for (const [key, expected] of expectedById) {
    if (!seen.has(key)) {
      report.unanswered++;
      problems.push(`case ${expected.index} (${expected.label}): id ${shown(key)} was never answered`);
    }
  }
  // Null-id answers: the exact codes, as a multiset; a 0 stands for "any answer but -32603".
  const remaining = [...nullAnswers];
  for (const expected of expectedNull.filter((entry) => entry.code !== 0)) {
    const at = remaining.findIndex((answer) => answer.code === expected.code);
    if (at < 0) {
      report.unanswered++;
      problems.push(`case ${expected.index} (${expected.label}): no ${expected.code} answer with id null`);
    } else remaining.splice(at, 1);
  }
  const anyCount = expectedNull.filter((entry) => entry.code === 0).length;
  if (remaining.length !== anyCount)
    problems.push(`${remaining.length - anyCount} unexpected answer(s) with id null: ${remaining.map((a) => a.code).join(", ")}`);
  for (const answer of remaining) if (answer.code === -32603) problems.push("an id-null answer was -32603");
  return problems;
}

/** Reads and removes the lines the receiver wrote so far, as answers. */
function drain(received: string[], into: Answer[], onRequest?: (message: Record<string, unknown>) => void): void {
  for (const text of received.splice(0, received.length)) {
    const parsed = answersIn(text);
    if (parsed === undefined) continue;
    into.push(...parsed.answers);
    if (onRequest) {
      try {
        const value = JSON.parse(text);
        for (const entry of Array.isArray(value) ? value : [value]) if (entry && typeof entry === "object" && "method" in entry) onRequest(entry);
      } catch {
        // not JSON: nothing the peer asked for
      }
    }
  }
}

function newReport(options: FuzzOptions): FuzzReport {
  return { options, cases: 0, lines: 0, answers: {}, unanswered: 0, failures: [] };
}

// ── agent side ─────────────────────────────────────────────────────────────────────────────────

/** Attack the fuzz agent with client→agent traffic. */
export async function fuzzAgentSide(options: FuzzOptions): Promise<FuzzReport> {
  const report = newReport(options);
  const peer: RawPeer = options.channel === "memory" ? memoryAgent() : stdioAgent();
  const later = options.later === true && options.version === 2;
  const served: ServedMethods = agentServed(options.version, later);
  const answers: Answer[] = [];
  const request = async (id: string, method: string, params: unknown): Promise<Answer & { result?: unknown }> => {
    const text = line({ jsonrpc: "2.0", id, method, params });
    peer.write(encoder.encode(`${text}\n`), [text]);
    let found: (Answer & { result?: unknown }) | undefined;
    await until(() => {
      for (const raw of peer.received.splice(0, peer.received.length)) {
        const value = JSON.parse(raw);
        if (value.id === id) found = { id, code: value.error ? value.error.code : "result", result: value.result };
      }
      return found !== undefined;
    }, BATCH_TIMEOUT_MS);
    if (!found) throw new Error(`setup request ${method} was not answered`);
    return found;
  };
  try {
    await request("init", "initialize", later ? { protocolVersion: 2, info: { name: "fuzz", version: "1" } } : { protocolVersion: options.version });
    const created = await request("setup", "session/new", { cwd: "/work", mcpServers: [] });
    const sessionId = (created.result as { sessionId: string }).sessionId;
    const batchSize = options.batch ?? 100;
    for (let start = options.from; start < options.from + options.cases && report.failures.length < MAX_FAILURES; start += batchSize) {
      const end = Math.min(start + batchSize, options.from + options.cases);
      const expectations: { index: number; label: string; expectation: Expectation }[] = [];
      for (let index = start; index < end; index++) {
        const random = Random.forCase(options.seed, index);
        const valid = clientTraffic(random, options.version, sessionId, `c${index}`, later);
        let extras = 0;
        const mutated = mutate(random, valid, {
          uniq: index,
          bytes: peer.bytes,
          extra: () => clientTraffic(random, options.version, sessionId, `c${index}-b${++extras}`, later),
        });
        for (const text of mutated.lines) expectations.push({ index, label: mutated.label, expectation: expectationFor(text, options.version, served) });
        peer.write(mutated.bytes, mutated.lines);
        report.cases++;
        report.lines += mutated.lines.length;
      }
      const syncId = `sync-${start}`;
      const sync = line({ jsonrpc: "2.0", id: syncId, method: "_fuzz/sync" });
      peer.write(encoder.encode(`${sync}\n`), [sync]);
      const wantIds = expectations.reduce((n, e) => n + e.expectation.byId.length + e.expectation.nullAnswers.length, 0) + 1;
      await until(() => {
        drain(peer.received, answers);
        return answers.length >= wantIds && answers.some((a) => a.id === syncId);
      }, BATCH_TIMEOUT_MS);
      // A moment more for anything extra (which would be a failure).
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      drain(peer.received, answers);
      const problems = checkBatch(expectations, answers.splice(0, answers.length), keyOf(syncId), report);
      for (const problem of problems) report.failures.push(`seed ${options.seed}: ${problem}`);
    }
  } finally {
    await peer.close();
  }
  return report;
}

// ── client side ────────────────────────────────────────────────────────────────────────────────

/** How a prompt answered by the fuzz ended at the client. */
function outcomeOf(settled: { value?: unknown; error?: unknown }): string {
  if (settled.error === undefined) return `resolved ${(settled.value as { stopReason?: string }).stopReason}`;
  if (isRpcError(settled.error)) return "rejected RpcError";
  if (isAcpError(settled.error)) return `rejected AcpError ${settled.error.code}`;
  return "rejected untyped";
}

/** A response to the client's prompt: valid, with a bad result, an error, or malformed. */
function promptAnswer(random: Random, id: unknown): { text: string; malformed: boolean } {
  const choice = random.int(6);
  const base = { jsonrpc: "2.0", id };
  if (choice <= 1) return { text: line({ ...base, result: { stopReason: random.pick(["end_turn", "cancelled", "max_tokens"]) } }), malformed: false };
  if (choice === 2) return { text: line({ ...base, result: { stopReason: random.pick(["done", 5, null]) } }), malformed: false };
  if (choice === 3) return { text: line({ ...base, error: { code: -32603, message: "agent failed" } }), malformed: false };
  if (choice === 4) return { text: line({ ...base, result: {}, error: { code: 1, message: "both" } }), malformed: true };
  return { text: line({ ...base, error: { code: "x", message: 5 } }), malformed: true };
}

/**
 * The later v2 draft ends a turn with a receipt and a state update idle (A3): the receipt first,
 * then an idle with a fuzzed stop reason (a known one, error with or without its error object, a
 * custom one, or none). Either way the prompt must settle.
 */
function laterPromptAnswer(random: Random, id: unknown): string[] {
  const receipt = line({ jsonrpc: "2.0", id, result: random.chance(0.5) ? { messageId: `u${random.int(9)}` } : {} });
  const stop = random.pick<Record<string, unknown>>([
    { stopReason: "end_turn" },
    { stopReason: "cancelled" },
    { stopReason: "error", error: { code: -32000, message: "quota" } },
    { stopReason: "error" },
    { stopReason: "_vendor/stop" },
    {},
  ]);
  const idle = line({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "state_update", state: "running" } } });
  const end = line({
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId: "s1", update: { sessionUpdate: "state_update", state: "idle", ...stop } },
  });
  return random.chance(0.5) ? [receipt, idle, end] : [idle, end, receipt];
}

/** Attack a client (connectAgent) with agent→client traffic. */
export async function fuzzClientSide(options: FuzzOptions): Promise<FuzzReport> {
  const report = newReport(options);
  report.turns = {};
  const channel: ClientChannel = options.channel === "memory" ? memoryClientChannel() : stdioClientChannel();
  const served = clientServed(options.version);
  let diagnostics = 0;
  const answers: Answer[] = [];
  const toClient = (value: unknown) => {
    const text = typeof value === "string" ? value : line(value);
    channel.write(encoder.encode(`${text}\n`), [text]);
  };
  // The stand-in agent: answers initialize and session/new, remembers the prompt's id.
  let promptId: unknown;
  const later = options.later === true && options.version === 2;
  const onRequest = (message: Record<string, unknown>) => {
    if (message.method === "initialize") {
      const result =
        options.version === 1
          ? { protocolVersion: 1, agentCapabilities: {}, authMethods: [] }
          : later
            ? { protocolVersion: 2, info: { name: "fuzz-agent", version: "1" }, capabilities: { session: {} }, authMethods: [] }
            : { protocolVersion: 2, capabilities: { session: {} }, authMethods: [] };
      toClient({ jsonrpc: "2.0", id: message.id, result });
    } else if (message.method === "session/new") toClient({ jsonrpc: "2.0", id: message.id, result: { sessionId: "s1" } });
    else if (message.method === "session/prompt") promptId = message.id;
  };
  const pump = () => drain(channel.received, answers, onRequest);
  const pumping = setInterval(pump, 1);
  let agent: AgentConnection | undefined;
  try {
    const connecting = connectAgent(channel.transport, {
      protocolVersion: options.version,
      ...(later ? { v2Dialect: "later" as const } : {}),
      fs: { readTextFile: () => "content", writeTextFile: () => {} },
      requestPermission: (request) => ({ outcome: "selected", optionId: request.options[0]?.optionId ?? "ok" }),
      elicitation: { form: () => ({ action: "decline" }) as never },
      onDiagnostic: () => diagnostics++,
    });
    agent = await connecting;
    const session: ClientSession = await agent.newSession({ cwd: "/work" });
    const batchSize = options.batch ?? 100;
    for (let start = options.from; start < options.from + options.cases && report.failures.length < MAX_FAILURES; start += batchSize) {
      const end = Math.min(start + batchSize, options.from + options.cases);
      promptId = undefined;
      const turn = session.prompt("go");
      const settled: { value?: unknown; error?: unknown; done?: boolean } = {};
      Promise.resolve(turn).then(
        (value) => Object.assign(settled, { value, done: true }),
        (error: unknown) => Object.assign(settled, { error, done: true }),
      );
      if (!(await until(() => promptId !== undefined, BATCH_TIMEOUT_MS))) throw new Error("the client never sent session/prompt");
      answers.length = 0;
      const before = diagnostics;
      const expectations: { index: number; label: string; expectation: Expectation }[] = [];
      let dropped = 0;
      for (let index = start; index < end; index++) {
        const random = Random.forCase(options.seed, index);
        const valid = agentTraffic(random, options.version, "s1", `a${index}`, later);
        let extras = 0;
        const mutated = mutate(random, valid, {
          uniq: index,
          bytes: channel.bytes,
          extra: () => agentTraffic(random, options.version, "s1", `a${index}-b${++extras}`, later),
        });
        for (const text of mutated.lines) {
          const expectation = expectationFor(text, options.version, served);
          dropped += expectation.dropped;
          expectations.push({ index, label: mutated.label, expectation });
        }
        channel.write(mutated.bytes, mutated.lines);
        report.cases++;
        report.lines += mutated.lines.length;
      }
      // End the turn with a fuzzed answer: it must settle the prompt either way.
      if (later) for (const text of laterPromptAnswer(Random.forCase(options.seed ^ 0x5a5a, start), promptId)) toClient(text);
      else {
        const answer = promptAnswer(Random.forCase(options.seed ^ 0x5a5a, start), promptId);
        toClient(answer.text);
        if (answer.malformed)
          expectations.push({ index: start, label: "prompt answer", expectation: { nullAnswers: [-32600], byId: [], batched: false, dropped: 0 } });
      }
      const syncId = `sync-${start}`;
      toClient({ jsonrpc: "2.0", id: syncId, method: "_fuzz/sync" });
      const wantIds = expectations.reduce((n, e) => n + e.expectation.byId.length + e.expectation.nullAnswers.length, 0) + 1;
      await until(() => answers.length >= wantIds && answers.some((a) => a.id === syncId) && settled.done === true, BATCH_TIMEOUT_MS);
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      pump();
      const problems = checkBatch(expectations, answers.splice(0, answers.length), keyOf(syncId), report);
      if (!settled.done) problems.push(`cases ${start}–${end - 1}: the prompt answered by the fuzz never settled at the client`);
      else {
        const outcome = outcomeOf(settled);
        report.turns[outcome] = (report.turns[outcome] ?? 0) + 1;
        if (outcome === "rejected untyped") problems.push(`cases ${start}–${end - 1}: the prompt rejected with an untyped error: ${String(settled.error)}`);
      }
      if (diagnostics - before < dropped)
        problems.push(`cases ${start}–${end - 1}: ${dropped} inputs should have been reported dropped, ${diagnostics - before} diagnostics came`);
      for (const problem of problems) report.failures.push(`seed ${options.seed}: ${problem}`);
      // Keep the state bounded whatever the peer sent.
      if (session.state.diagnostics.length > 100) report.failures.push("the session keeps more than 100 diagnostics");
    }
  } finally {
    clearInterval(pumping);
    await agent?.close();
    await channel.close();
  }
  return report;
}
