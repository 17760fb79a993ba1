// What each scenario's run shows about the client, one group of requirements per scenario (and
// "client-wire" for what every run must show). Each group writes only the ids it declares.
import { isAbsolutePath, isJsonObject as isObject } from "@acpkit/core";
import { LATER_V2, validateParams, type ProtocolVersion } from "@acpkit/schema";
import { RequestCount } from "../answer-count.js";
import type { ClientCheckReport } from "../report.js";
import type { ClientRequirementId } from "../requirements.js";
import type { CheckGroup, Results } from "../results.js";
import { PEER_IDS, PERMISSION_OPTIONS, type PeerLogEntry } from "./peer.js";
import type { Run } from "./runs.js";

type Json = Record<string, unknown>;

export const CLIENT_WIRE_GROUP = {
  name: "client-wire",
  judges: ["ACPKIT-CLIENT-STDIO-001", "ACPKIT-CLIENT-RPC-001", "ACPKIT-CLIENT-RPC-003"],
} as const satisfies CheckGroup<ClientRequirementId>;
export const BASIC_GROUP = {
  name: "basic",
  judges: [
    "ACPKIT-CLIENT-INIT-001",
    "ACPKIT-CLIENT-SESSION-001",
    "ACPKIT-CLIENT-PROMPT-001",
    "ACPKIT-CLIENT-PERM-001",
    "ACPKIT-CLIENT-RPC-002",
    "ACPKIT-CLIENT-CAP-001",
    "ACPKIT-CLIENT-UPDATE-001",
    "ACPKIT-CLIENT-INFO",
  ],
} as const satisfies CheckGroup<ClientRequirementId>;
export const LOWER_VERSION_GROUP = { name: "lower-version", judges: ["ACPKIT-CLIENT-INIT-002"] } as const satisfies CheckGroup<ClientRequirementId>;
export const CANCEL_GROUP = {
  name: "cancel",
  judges: ["ACPKIT-CLIENT-CANCEL-001", "ACPKIT-CLIENT-CANCEL-002"],
} as const satisfies CheckGroup<ClientRequirementId>;
export const SLOW_GROUP = { name: "slow", judges: ["ACPKIT-CLIENT-SLOW-001"] } as const satisfies CheckGroup<ClientRequirementId>;
export const AGENT_EXIT_GROUP = { name: "agent-exit", judges: ["ACPKIT-CLIENT-EXIT-001"] } as const satisfies CheckGroup<ClientRequirementId>;

/** The groups of client checks; between them they judge every client requirement once. */
export const CLIENT_CHECK_GROUPS: readonly CheckGroup<ClientRequirementId>[] = [
  CLIENT_WIRE_GROUP,
  BASIC_GROUP,
  LOWER_VERSION_GROUP,
  CANCEL_GROUP,
  SLOW_GROUP,
  AGENT_EXIT_GROUP,
];

const ARROWS: Record<PeerLogEntry["dir"], string> = { in: "←", out: "→", note: "·", tail: "·" };

/** The last lines of a run's log, the evidence a failure carries. */
function evidence(run: Run): string[] {
  return run.entries.slice(-12).map((entry) => `${ARROWS[entry.dir]} ${entry.text.slice(0, 2000)}`);
}

/** What the log could not hold in this run, as a clause for a result's message ("" when it held everything). */
function unrecorded(run: Run): string {
  const notes = run.entries.filter((entry) => entry.dir === "note");
  return notes.length === 0 ? "" : `; not everything was recorded: ${notes.map((note) => note.text).join("; ")}`;
}

const answerTo = (run: Run, id: string): Json | undefined =>
  run.incoming.map((line) => line.value).find((value): value is Json => isObject(value) && value.id === id && !("method" in value));
const requestsOf = (run: Run, method: string): Json[] =>
  run.incoming.map((line) => line.value).filter((value): value is Json => isObject(value) && value.method === method);

/** Checks every run shares: framing and no answers to notifications. */
export function checkWire(run: Run, all: Results<ClientRequirementId>): void {
  const results = all.for(CLIENT_WIRE_GROUP);
  const bad = run.incoming.find((line) => !isObject(line.value) || line.value.jsonrpc !== "2.0");
  if (run.kind === "in-process") results.set("ACPKIT-CLIENT-STDIO-001", "not_applicable", "an in-process channel moves whole messages, not lines of bytes");
  else if (bad)
    results.set("ACPKIT-CLIENT-STDIO-001", "fail", `the client wrote a line that is not a JSON-RPC message: ${bad.text.slice(0, 200)}`, evidence(run));
  else if (run.incoming.length > 0) results.pass("ACPKIT-CLIENT-STDIO-001", `every line a JSON-RPC message${unrecorded(run)}`);
  // A last message without its newline was never framed (S3). When the checker killed the client
  // (its time ran out), the output may have stopped anywhere: not judged then.
  const tail = run.entries.find((entry) => entry.dir === "tail");
  if (tail && !run.timedOut)
    results.set("ACPKIT-CLIENT-STDIO-001", "fail", `${tail.text}; every message ends with a newline (docs/protocol.md S3)`, evidence(run));
  const ours = new Set<unknown>(Object.values(PEER_IDS));
  const stray = run.incoming.find((line) => isObject(line.value) && !("method" in line.value) && !ours.has(line.value.id));
  if (stray) results.set("ACPKIT-CLIENT-RPC-001", "fail", `an answer to something that was not a request: ${stray.text.slice(0, 200)}`, evidence(run));
  else if (run.incoming.length > 0) results.pass("ACPKIT-CLIENT-RPC-001", "no answer to any notification");
  const sent = new RequestCount();
  for (const { value } of run.outgoing) sent.add(value);
  const twice = sent.firstRepeatedAnswer(run.incoming);
  if (twice)
    results.set("ACPKIT-CLIENT-RPC-003", "fail", `request ${twice.id} was answered ${twice.answers} times: ${twice.text.slice(0, 200)}`, evidence(run));
  else if (run.incoming.length > 0) results.pass("ACPKIT-CLIENT-RPC-003", "no request answered twice");
}

function offeredVersion(run: Run): ProtocolVersion | undefined {
  const init = requestsOf(run, "initialize")[0];
  const offered = isObject(init?.params) ? init.params.protocolVersion : undefined;
  return offered === 1 || offered === 2 ? offered : undefined;
}

export function judgeBasic(
  run: Run,
  all: Results<ClientRequirementId>,
  maxProtocol: ProtocolVersion,
): { version: ProtocolVersion | null; client: ClientCheckReport["client"] } {
  const results = all.for(BASIC_GROUP);
  checkWire(run, all);
  const first = run.incoming[0]?.value;
  // A client may start its agent again (acpkit run does, to offer v1 with v1 fields to an agent
  // that answered 1 to its v2 offer): each start is a process of this checking agent appending to
  // one log, and the session runs on the last connection, so the last initialize is the one that
  // says what the client advertised for it.
  const inits = requestsOf(run, "initialize");
  const init = inits[inits.length - 1];
  if (!init || !isObject(first) || first.method !== "initialize") {
    const why = init ? "initialize was not the first message" : "the client never sent initialize";
    results.set("ACPKIT-CLIENT-INIT-001", "fail", `${why}${unrecorded(run)}`, evidence(run));
    return { version: null, client: null };
  }
  const params = isObject(init.params) ? init.params : {};
  const offered = params.protocolVersion;
  const shape: ProtocolVersion = offered === 2 ? 2 : 1;
  // `info` is the later v2 draft's (docs/protocol.md §12): such an initialize, and the session/new
  // that follows it, are judged by that draft's schema (schema/v2-later); the others by theirs.
  const later = shape === 2 && isObject(params.info);
  const invalid = inits
    .map((request) => (isObject(request.params) ? request.params : {}))
    .filter((each) => !isObject(each.info))
    .map((each) => validateParams(each.protocolVersion === 2 ? 2 : 1, "initialize", each))
    .find((result) => !result.valid);
  const valid = invalid ?? validateParams(later ? LATER_V2 : shape, "initialize", params);
  if (!Number.isInteger(offered)) results.set("ACPKIT-CLIENT-INIT-001", "fail", `protocolVersion ${JSON.stringify(offered)} is not an integer`, evidence(run));
  else if (!valid.valid)
    results.set(
      "ACPKIT-CLIENT-INIT-001",
      "fail",
      `initialize params are not valid v${shape}${later ? " (the later draft)" : ""}: ${valid.errors[0]?.path} ${valid.errors[0]?.message}`,
      evidence(run),
    );
  else results.pass("ACPKIT-CLIENT-INIT-001", `offered protocol ${offered}${later ? " in the later v2 draft (info)" : ""}`);
  const named = later ? params.info : params.clientInfo;
  const info = isObject(named) ? { name: String(named.name), version: String(named.version) } : null;
  // What was advertised is in the offered version's shape; what follows is in the agreed version's.
  const caps = (shape === 1 ? params.clientCapabilities : params.capabilities) ?? {};
  const agreed: ProtocolVersion = shape === 2 && maxProtocol === 2 ? 2 : 1;
  results.set("ACPKIT-CLIENT-INFO", "pass", `${later ? "info" : "clientInfo"} ${JSON.stringify(named ?? null)}; capabilities ${JSON.stringify(caps)}`);

  const sessionNew = requestsOf(run, "session/new")[0];
  if (!sessionNew) results.set("ACPKIT-CLIENT-SESSION-001", "fail", "the client never sent session/new", evidence(run));
  else {
    const check = validateParams(later && agreed === 2 ? LATER_V2 : agreed, "session/new", sessionNew.params);
    const cwd = isObject(sessionNew.params) ? sessionNew.params.cwd : undefined;
    if (!check.valid)
      results.set("ACPKIT-CLIENT-SESSION-001", "fail", `session/new params: ${check.errors[0]?.path} ${check.errors[0]?.message}`, evidence(run));
    // H10's test, not this machine's: a client may name a Windows directory for an agent on Linux.
    else if (typeof cwd !== "string" || !isAbsolutePath(cwd))
      results.set("ACPKIT-CLIENT-SESSION-001", "fail", `cwd ${JSON.stringify(cwd)} is not absolute`, evidence(run));
    else results.pass("ACPKIT-CLIENT-SESSION-001", `cwd ${cwd}`);
  }

  const prompts = requestsOf(run, "session/prompt");
  const blocks = prompts.flatMap((prompt) => (isObject(prompt.params) && Array.isArray(prompt.params.prompt) ? (prompt.params.prompt as Json[]) : []));
  const foreign = blocks.find((block) => block.type !== "text" && block.type !== "resource_link");
  if (prompts.length === 0) results.set("ACPKIT-CLIENT-PROMPT-001", "skip", "the client sent no prompt (give it one, e.g. acpkit run --prompt hi)");
  else if (foreign) results.set("ACPKIT-CLIENT-PROMPT-001", "fail", `a ${String(foreign.type)} block, which the agent did not advertise`, evidence(run));
  else results.pass("ACPKIT-CLIENT-PROMPT-001", `${blocks.length} block(s), all text or resource_link`);
  if (prompts.length === 0) return { version: agreed, client: info };

  const unknown = answerTo(run, PEER_IDS.unknownMethod);
  if (!unknown) results.set("ACPKIT-CLIENT-UPDATE-001", "fail", "after an unknown update kind the client stopped answering", evidence(run));
  else results.pass("ACPKIT-CLIENT-UPDATE-001", "the connection went on after an unknown update kind");
  if (unknown && isObject(unknown.error) && unknown.error.code === -32601) results.pass("ACPKIT-CLIENT-RPC-002", "-32601");
  else results.set("ACPKIT-CLIENT-RPC-002", "fail", unknown ? `answered ${JSON.stringify(unknown.error ?? unknown.result)}` : "never answered", evidence(run));

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
    if (problems.length > 0) results.set("ACPKIT-CLIENT-CAP-001", "fail", problems.join("; "), evidence(run));
    else results.pass("ACPKIT-CLIENT-CAP-001", `fs ${fsOffered ? "served" : "refused"}, terminal ${terminalOffered ? "served" : "refused"}, as advertised`);
  } else results.pass("ACPKIT-CLIENT-CAP-001", "v2 has no fs or terminal; none was asked");

  const permission = answerTo(run, PEER_IDS.permission);
  const outcome = isObject(permission?.result) && isObject(permission.result.outcome) ? permission.result.outcome : undefined;
  const ids = PERMISSION_OPTIONS.map((option) => option.optionId);
  if (!permission) results.set("ACPKIT-CLIENT-PERM-001", "fail", "the permission request was never answered", evidence(run));
  else if (outcome?.outcome === "cancelled" || (outcome?.outcome === "selected" && ids.includes(String(outcome.optionId))))
    results.pass("ACPKIT-CLIENT-PERM-001", `answered ${JSON.stringify(outcome)}`);
  else
    results.set(
      "ACPKIT-CLIENT-PERM-001",
      "fail",
      `answered ${JSON.stringify(permission.result ?? permission.error)}, not one of ${ids.join(", ")} or cancelled`,
      evidence(run),
    );
  return { version: agreed, client: info };
}

export function judgeLowerVersion(run: Run, all: Results<ClientRequirementId>): void {
  const results = all.for(LOWER_VERSION_GROUP);
  checkWire(run, all);
  if (offeredVersion(run) !== 2) {
    results.set("ACPKIT-CLIENT-INIT-002", "not_applicable", "the client offers v1, so no agent can answer lower");
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
      evidence(run),
    );
  } else
    results.pass(
      "ACPKIT-CLIENT-INIT-002",
      after.length === 0 ? "the client closed after the v1 answer" : `went on in v1 (${after.length} messages, all valid v1)`,
    );
}

export function judgeCancel(run: Run, all: Results<ClientRequirementId>): void {
  const results = all.for(CANCEL_GROUP);
  checkWire(run, all);
  if (requestsOf(run, "session/cancel").length === 0) {
    const why = "the client never cancelled (run it with a cancel, e.g. acpkit run --cancel-after 300)";
    results.set("ACPKIT-CLIENT-CANCEL-001", "skip", why);
    results.set("ACPKIT-CLIENT-CANCEL-002", "skip", why);
    return;
  }
  const answer = answerTo(run, PEER_IDS.permissionAfterCancel);
  const outcome = isObject(answer?.result) && isObject(answer.result.outcome) ? answer.result.outcome.outcome : undefined;
  if (!answer) {
    results.set("ACPKIT-CLIENT-CANCEL-001", "fail", "after the cancel a permission request was never answered", evidence(run));
    results.set("ACPKIT-CLIENT-CANCEL-002", "fail", "after the cancel the client stopped taking the agent's messages", evidence(run));
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
        evidence(run),
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
      evidence(run),
    );
}

export function judgeSlow(run: Run, all: Results<ClientRequirementId>, slowMs: number): void {
  const results = all.for(SLOW_GROUP);
  checkWire(run, all);
  if (requestsOf(run, "session/prompt").length === 0) {
    results.set("ACPKIT-CLIENT-SLOW-001", "skip", "the client sent no prompt");
    return;
  }
  const answered = run.entries.some((entry) => entry.dir === "out" && entry.text.includes('"stopReason"'));
  if (answered) results.pass("ACPKIT-CLIENT-SLOW-001", `waited the ${slowMs} ms the prompt took`);
  else
    results.set(
      "ACPKIT-CLIENT-SLOW-001",
      "fail",
      `the client gave up on a prompt that took ${slowMs} ms (it exited after ${run.exitedAfter} ms)`,
      evidence(run),
    );
}

export function judgeAgentExit(run: Run, all: Results<ClientRequirementId>): void {
  const results = all.for(AGENT_EXIT_GROUP);
  checkWire(run, all);
  if (requestsOf(run, "session/prompt").length === 0) {
    results.set("ACPKIT-CLIENT-EXIT-001", "skip", "the client sent no prompt");
    return;
  }
  const agentGoneAt = (run.entries.filter((entry) => entry.dir === "out").at(-1)?.t ?? 0) + 100;
  if (run.timedOut || run.exitedAfter - agentGoneAt > 5000)
    results.set("ACPKIT-CLIENT-EXIT-001", "fail", `the client was still running ${run.exitedAfter - agentGoneAt} ms after the agent exited`, evidence(run));
  else
    results.pass(
      "ACPKIT-CLIENT-EXIT-001",
      `the client ended ${Math.max(0, run.exitedAfter - agentGoneAt)} ms after the agent exited (exit code ${run.exitCode})`,
    );
}
