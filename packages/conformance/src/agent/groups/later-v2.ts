// Group "later-v2": the later v2 draft's own rules (docs/protocol.md §12), judged when the agent
// answered a v2 check in that draft (`context.later`). Everything is read on the raw wire, in the
// draft's shapes: the version rule and -32022, a retry after a failed initialize, no batches, the
// insertion receipt and the idle that ends a turn, a cancel confirmed by idle cancelled, cancelling
// one tool call, and auth/login. For an agent that does not speak the draft every id here is
// not_applicable.
import { isJsonObject as isObject } from "@acpkit/core";
import type { AgentRequirementId } from "../../requirements.js";
import type { CheckGroup, Judge, Results } from "../../results.js";
import type { RawConnection } from "../raw-connection.js";
import { connect, evidence, initializeParams, type Json, newSession, SessionRefused, start } from "../session-steps.js";
import type { CheckContext } from "../target.js";

export const LATER_GROUP = {
  name: "later-v2",
  judges: ["LATER-INIT-001", "LATER-INIT-002", "LATER-INIT-003", "LATER-RPC-001", "LATER-PROMPT-001", "LATER-CANCEL-001", "LATER-TOOL-001", "LATER-AUTH-001"],
} as const satisfies CheckGroup<AgentRequirementId>;

type LaterJudge = Judge<AgentRequirementId>;

/** Not a later-draft agent: none of this group's rules apply. */
export function laterNotApplicable(all: Results<AgentRequirementId>, why: string): void {
  const results = all.for(LATER_GROUP);
  for (const id of LATER_GROUP.judges) results.set(id, "not_applicable", why);
}

export async function laterGroup(context: CheckContext, init: Json, all: Results<AgentRequirementId>): Promise<void> {
  const results = all.for(LATER_GROUP);
  judgeAnswer(results, init);
  await judgeVersionRule(context, results);
  const { agent } = await start(context);
  try {
    await judgeBatch(agent, context, results);
    await judgeAuthLogin(agent, context, init, results);
    const session = await newSession(agent, context, "later-new-1");
    if (session instanceof SessionRefused) {
      const ids: AgentRequirementId[] = ["LATER-PROMPT-001", "LATER-CANCEL-001", "LATER-TOOL-001"];
      if (session.auth) results.block(ids, session.message);
      else for (const id of ids) results.set(id, "fail", session.message, evidence(agent));
      return;
    }
    const sessionId = String(session.sessionId);
    await judgeTurn(agent, context, sessionId, results);
    await judgeCancel(agent, context, sessionId, results);
  } finally {
    await agent.kill();
  }
}

/** LATER-INIT-001: the answer to the later initialize names the agent with `info` and a version ≤ 2. */
function judgeAnswer(results: LaterJudge, init: Json): void {
  const version = init.protocolVersion;
  if (!isObject(init.info) || typeof init.info.name !== "string" || typeof init.info.version !== "string")
    results.set("LATER-INIT-001", "fail", `the answer has no info {name, version}: ${JSON.stringify(init.info)}`);
  else if (typeof version !== "number" || !Number.isInteger(version) || version > 2)
    results.set("LATER-INIT-001", "fail", `protocolVersion ${JSON.stringify(version)} is not a supported version at or below the requested 2`);
  else results.pass("LATER-INIT-001", `answered protocolVersion ${version} with info ${init.info.name} ${init.info.version}`);
}

/** LATER-INIT-002 and -003: version 0 is below every version, so -32022; then the connection takes a good initialize. */
async function judgeVersionRule(context: CheckContext, results: LaterJudge): Promise<void> {
  const agent = await connect(context);
  try {
    if (await agent.spawnError) return;
    const refused = await agent.request("later-init-0", "initialize", initializeParams(2, 0, true), context.startTimeoutMs);
    const error = isObject(refused?.error) ? refused.error : undefined;
    const data = isObject(error?.data) ? error.data : undefined;
    if (!refused) results.set("LATER-INIT-002", "fail", "no answer to an initialize for protocolVersion 0", evidence(agent));
    else if (error === undefined)
      results.set(
        "LATER-INIT-002",
        "fail",
        `protocolVersion 0 was answered ${JSON.stringify(refused.result)}; no version is at or below 0, so it must be -32022`,
        evidence(agent),
      );
    else if (error.code !== -32022 || data?.requested !== 0 || !Array.isArray(data?.supported))
      results.set("LATER-INIT-002", "fail", `expected -32022 with data {requested: 0, supported: [...]}, got ${JSON.stringify(error)}`, evidence(agent));
    else results.pass("LATER-INIT-002", `-32022, supported ${JSON.stringify(data.supported)}`);

    const again = await agent.request("later-init-2", "initialize", initializeParams(2, 2, true), context.timeoutMs);
    if (!again || !isObject(again.result))
      results.set(
        "LATER-INIT-003",
        "fail",
        `the initialize after the failed one was answered ${JSON.stringify(again?.error ?? "nothing (was the connection closed?)")}`,
        evidence(agent),
      );
    else results.pass("LATER-INIT-003", "the second initialize on the connection succeeded");
  } finally {
    await agent.kill();
  }
}

/** LATER-RPC-001: one -32600 with id null for an array; the request inside must not run. */
async function judgeBatch(agent: RawConnection, context: CheckContext, results: LaterJudge): Promise<void> {
  const from = agent.lines.length;
  agent.writeLine(JSON.stringify([{ jsonrpc: "2.0", id: "later-batch-1", method: "session/list", params: {} }]));
  const answer = await agent.waitFor((value) => !("method" in value) && (value.id === null || value.id === "later-batch-1"), context.timeoutMs, from);
  const value = answer?.value as Json | undefined;
  if (agent.movesMessages) results.set("LATER-RPC-001", "not_applicable", `${agent.messageChannel} carries single messages only`);
  else if (!value) results.set("LATER-RPC-001", "fail", "the batch got no answer", evidence(agent));
  else if (value.id !== null || !isObject(value.error) || value.error.code !== -32600)
    results.set("LATER-RPC-001", "fail", `the batch was answered ${JSON.stringify(value)}, not one -32600 with id null`, evidence(agent));
  else results.pass("LATER-RPC-001", "one -32600 with id null");
}

/** LATER-AUTH-001: with authMethods listed, auth/login exists (an unknown method id is refused otherwise than -32601). */
async function judgeAuthLogin(agent: RawConnection, context: CheckContext, init: Json, results: LaterJudge): Promise<void> {
  if (!Array.isArray(init.authMethods) || init.authMethods.length === 0) {
    results.set("LATER-AUTH-001", "not_applicable", "the agent lists no authMethods");
    return;
  }
  const answer = await agent.request("later-login", "auth/login", { methodId: "acpkit-check-no-such-method" }, context.timeoutMs);
  const error = isObject(answer?.error) ? answer.error : undefined;
  if (!answer) results.set("LATER-AUTH-001", "fail", "auth/login got no answer", evidence(agent));
  else if (error?.code === -32601) results.set("LATER-AUTH-001", "fail", "auth/login is answered -32601 although authMethods are listed", evidence(agent));
  else results.pass("LATER-AUTH-001", `auth/login with an unknown method answered ${error ? error.code : "a result"}`);
}

/** Whether a message is an idle state_update of `sessionId`. */
function isIdleOf(value: Json, sessionId: string): boolean {
  const params = isObject(value.params) ? value.params : undefined;
  const update = isObject(params?.update) ? params.update : undefined;
  return value.method === "session/update" && params?.sessionId === sessionId && update?.sessionUpdate === "state_update" && update.state === "idle";
}

/** The first idle state_update for `sessionId` at or after line `from`. */
function idleOf(agent: RawConnection, sessionId: string, ms: number, from: number) {
  return agent.waitFor((value) => isIdleOf(value, sessionId), ms, from);
}

/**
 * The first message at or after line `from` that ends the turn of prompt `promptId`: its idle, or
 * (an agent outside the draft) an answer to the prompt that is an error or carries a stop reason,
 * after which no idle is owed.
 */
function turnEndOf(agent: RawConnection, sessionId: string, promptId: string, ms: number, from: number) {
  return agent.waitFor(
    (value) =>
      isIdleOf(value, sessionId) ||
      (value.id === promptId && !("method" in value) && ("error" in value || (isObject(value.result) && "stopReason" in value.result))),
    ms,
    from,
  );
}

/** LATER-PROMPT-001: a receipt, then an idle with a stop reason. */
async function judgeTurn(agent: RawConnection, context: CheckContext, sessionId: string, results: LaterJudge): Promise<void> {
  const from = agent.lines.length;
  const answer = await agent.request(
    "later-prompt-1",
    "session/prompt",
    { sessionId, prompt: [{ type: "text", text: context.prompt }] },
    context.timeoutMs * 20,
  );
  const result = isObject(answer?.result) ? answer.result : undefined;
  if (!answer) return results.set("LATER-PROMPT-001", "fail", "session/prompt was not answered", evidence(agent));
  if (result === undefined) return results.set("LATER-PROMPT-001", "fail", `session/prompt was refused: ${JSON.stringify(answer.error)}`, evidence(agent));
  if ("stopReason" in result)
    return results.set(
      "LATER-PROMPT-001",
      "fail",
      `session/prompt was answered ${JSON.stringify(result)}: the pinned draft's end of turn, not a receipt`,
      evidence(agent),
    );
  if (result.messageId !== undefined && typeof result.messageId !== "string")
    return results.set("LATER-PROMPT-001", "fail", `the receipt's messageId is not a string: ${JSON.stringify(result.messageId)}`, evidence(agent));
  const idle = await idleOf(agent, sessionId, context.timeoutMs * 20, from);
  const update = idle ? (((idle.value as Json).params as Json).update as Json) : undefined;
  if (!update) return results.set("LATER-PROMPT-001", "fail", "the turn never reported state_update idle", evidence(agent));
  if (typeof update.stopReason !== "string")
    return results.set("LATER-PROMPT-001", "fail", "the idle that ended the turn carries no stopReason", evidence(agent));
  const receipt = typeof result.messageId === "string" ? `{messageId}` : "{} (a draft before alpha.5)";
  results.pass("LATER-PROMPT-001", `receipt ${receipt}, then idle with stopReason ${update.stopReason}`);
}

/**
 * Start a turn and wait for its answer, the receipt the draft sends once the prompt is inserted.
 * Undefined when the prompt was answered with a stop reason (the pinned draft's end of turn: no
 * later turn runs). The wait is for the answer itself, not for the turn's first update: an agent
 * may write an update before its answer, and a turn judged running on that update alone would
 * then be waited on for an idle that never comes. An agent that holds its receipt back past
 * `timeoutMs` is taken as running; the idle waits that follow bound that case.
 */
async function startTurn(agent: RawConnection, context: CheckContext, sessionId: string, id: string): Promise<number | undefined> {
  const from = agent.lines.length;
  agent.send({ jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: context.prompt }] } });
  const answered = await agent.waitFor((value) => value.id === id && !("method" in value), context.timeoutMs, from);
  const answer = answered?.value as Json | undefined;
  return isObject(answer?.result) && "stopReason" in answer.result ? undefined : from;
}

const NO_LATER_TURN = "the prompt was answered with a stop reason, the pinned draft's end of turn (LATER-PROMPT-001): no later turn ran";

/**
 * LATER-TOOL-001 on one turn (a tool call that advertises cancel is cancelled on its own, and the
 * turn is left to end), then LATER-CANCEL-001 on another, cancelled as soon as it shows itself:
 * two turns, so that a turn that ends soon after its tool call was cancelled cannot be taken for
 * one that ignored session/cancel.
 */
async function judgeCancel(agent: RawConnection, context: CheckContext, sessionId: string, results: LaterJudge): Promise<void> {
  const toolTurn = await startTurn(agent, context, sessionId, "later-prompt-t");
  if (toolTurn === undefined) {
    results.set("LATER-TOOL-001", "not_applicable", NO_LATER_TURN);
    results.set("LATER-CANCEL-001", "skip", NO_LATER_TURN);
    return;
  }
  // A tool call that can be cancelled on its own usually comes with the turn's first updates: give
  // it a moment (bounded; the turn's end also ends the wait).
  await agent.waitFor((value) => isIdleOf(value, sessionId) || advertisesCancel(value, sessionId), Math.min(1000, context.timeoutMs), toolTurn);
  await judgeToolCancel(agent, context, sessionId, toolTurn, results);
  // Let that turn end (or end it) before the next one.
  if (!(await turnEndOf(agent, sessionId, "later-prompt-t", context.timeoutMs * 20, toolTurn))) {
    agent.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId } });
    await turnEndOf(agent, sessionId, "later-prompt-t", context.timeoutMs * 20, toolTurn);
  }

  const cancelTurn = await startTurn(agent, context, sessionId, "later-prompt-c");
  if (cancelTurn === undefined) {
    results.set("LATER-CANCEL-001", "skip", NO_LATER_TURN);
    return;
  }
  if (await turnEndOf(agent, sessionId, "later-prompt-c", 0, cancelTurn)) {
    results.set("LATER-CANCEL-001", "skip", "the turn ended before the cancel could be sent (use a longer --prompt)");
    return;
  }
  agent.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId } });
  const end = (await turnEndOf(agent, sessionId, "later-prompt-c", context.timeoutMs * 20, cancelTurn))?.value as Json | undefined;
  const update = end && isIdleOf(end, sessionId) ? ((end.params as Json).update as Json) : undefined;
  if (!update)
    results.set(
      "LATER-CANCEL-001",
      "fail",
      end
        ? `the cancelled turn ended with the answer ${JSON.stringify(end.error ?? end.result)}, not state_update idle`
        : "the cancelled turn never reported state_update idle",
      evidence(agent),
    );
  else if (update.stopReason !== "cancelled")
    results.set("LATER-CANCEL-001", "fail", `the cancelled turn ended with stopReason ${JSON.stringify(update.stopReason)}, not cancelled`, evidence(agent));
  else results.pass("LATER-CANCEL-001", "idle with stopReason cancelled");
}

/** Whether one message is a tool_call_update of `sessionId` that advertises cancel (judged alone: the wait calls it per line). */
function advertisesCancel(value: Json, sessionId: string): boolean {
  const params = isObject(value.params) ? value.params : undefined;
  const update = isObject(params?.update) ? params.update : undefined;
  return (
    value.method === "session/update" &&
    params?.sessionId === sessionId &&
    update?.sessionUpdate === "tool_call_update" &&
    isObject(update.capabilities) &&
    isObject(update.capabilities.cancel)
  );
}

/** A tool call seen so far that advertises cancel and has no final status yet. */
function cancellableToolCall(agent: RawConnection, sessionId: string, from: number): string | undefined {
  const open = new Map<string, boolean>();
  for (const line of agent.lines.slice(from)) {
    const value = line.value as Json | undefined;
    const params = isObject(value?.params) ? value.params : undefined;
    const update = isObject(params?.update) ? params.update : undefined;
    if (value?.method !== "session/update" || params?.sessionId !== sessionId || update?.sessionUpdate !== "tool_call_update") continue;
    const id = String(update.toolCallId);
    if (["completed", "failed", "cancelled"].includes(String(update.status))) open.delete(id);
    else if (isObject(update.capabilities) && isObject(update.capabilities.cancel)) open.set(id, true);
    else if (update.capabilities === null) open.delete(id);
  }
  return open.keys().next().value;
}

async function judgeToolCancel(agent: RawConnection, context: CheckContext, sessionId: string, from: number, results: LaterJudge): Promise<void> {
  const toolCallId = cancellableToolCall(agent, sessionId, from);
  if (toolCallId === undefined) {
    results.set(
      "LATER-TOOL-001",
      "not_applicable",
      "no tool call advertised capabilities.cancel while the turn ran (acpkit agent: --prompt '/cancellable 30')",
    );
    return;
  }
  const at = agent.lines.length;
  const answer = await agent.request("later-tool-cancel", "tool_call/cancel", { sessionId, toolCallId }, context.timeoutMs);
  if (!answer || !isObject(answer.result)) {
    results.set("LATER-TOOL-001", "fail", `tool_call/cancel for ${toolCallId} was answered ${JSON.stringify(answer?.error ?? "nothing")}`, evidence(agent));
    return;
  }
  const final = await agent.waitFor(
    (value) => {
      const update = isObject(value.params) && isObject(value.params.update) ? value.params.update : undefined;
      return value.method === "session/update" && update?.toolCallId === toolCallId && ["completed", "failed", "cancelled"].includes(String(update?.status));
    },
    context.timeoutMs * 20,
    at,
  );
  if (!final) results.set("LATER-TOOL-001", "fail", `tool call ${toolCallId} never reached a final status after tool_call/cancel`, evidence(agent));
  else results.pass("LATER-TOOL-001", `accepted, then ${String(((final.value as Json).params as Json & { update: Json }).update.status)}`);
}
