// Group "turn": sessions and prompt turns. A turn ends with a stop reason of the negotiated
// version; every update during it is valid and names a session this client opened; nothing of the
// turn comes after its response; a cancelled turn ends with stopReason cancelled.
import { isJsonObject as isObject, STOP_REASONS } from "@acpkit/core";
import { validateParams, type ProtocolVersion } from "@acpkit/schema";
import type { AgentRequirementId } from "../../requirements.js";
import type { CheckGroup, Results } from "../../results.js";
import type { RawConnection, RecordedLine } from "../raw-connection.js";
import { authBlock, evidence, type Json, newSession, SessionRefused, start } from "../session-steps.js";
import type { CheckContext } from "../target.js";
import { turnUpdateSession } from "../turn-updates.js";
import { checkWire, unrecordedNote, WIRE_GROUP } from "./wire.js";

export const TURN_GROUP = {
  name: "turn",
  judges: ["ACPKIT-SESSION-001", "ACP-PROMPT-001", "ACPKIT-UPDATE-001", "ACPKIT-ORDER-001", "ACP-CANCEL-001"],
} as const satisfies CheckGroup<AgentRequirementId>;

const V1_STOP_REASONS: ReadonlySet<string> = new Set(STOP_REASONS[1]);

/** Why a session/update's params fail ACPKIT-UPDATE-001, or undefined when they pass. */
function updateProblem(version: ProtocolVersion, known: ReadonlySet<unknown>, params: unknown): string | undefined {
  const check = validateParams(version, "session/update", params);
  if (!check.valid) return `not valid v${version} (${check.errors[0]?.path || "/"}: ${check.errors[0]?.message})`;
  const named = isObject(params) ? params.sessionId : undefined;
  return known.has(named) ? undefined : `for session ${JSON.stringify(named)}, which this client never opened`;
}

function stopReasonProblem(version: ProtocolVersion, reason: unknown): string | undefined {
  if (typeof reason !== "string") return `stopReason ${JSON.stringify(reason)} is not a string`;
  if (V1_STOP_REASONS.has(reason) || (version === 2 && reason.startsWith("_"))) return undefined;
  return `stopReason "${reason}" is not one of protocol v${version}'s`;
}

/** Whether an update of `sessionId`'s turn came after `response`: kept, or read past the record budget. */
function lateTurnUpdate(agent: RawConnection, response: RecordedLine, sessionId: unknown): string | undefined {
  const at = agent.lines.indexOf(response);
  const late = agent.lines.slice(at + 1).find((line) => sessionId !== undefined && turnUpdateSession(line.value) === sessionId);
  if (late) return late.text.slice(0, 200);
  if (agent.droppedUpdateAfter(sessionId, response.seq)) return `one of the ${agent.unrecorded} lines read past the checker's record`;
  return undefined;
}

/** Two sessions and one turn; returns the first session/new result (the capability group reads its modes and options). */
export async function turnGroup(context: CheckContext, version: ProtocolVersion, all: Results<AgentRequirementId>): Promise<Json | undefined> {
  const results = all.for(TURN_GROUP);
  const { agent } = await start(context);
  const sessionIds = ["ACPKIT-SESSION-001", "ACP-PROMPT-001", "ACPKIT-UPDATE-001", "ACPKIT-ORDER-001"] as const;
  try {
    const first = await newSession(agent, context, "new-1");
    const second = first instanceof SessionRefused ? first : await newSession(agent, context, "new-2");
    if (first instanceof SessionRefused || second instanceof SessionRefused) {
      const refused = (first instanceof SessionRefused ? first : second) as SessionRefused;
      if (refused.auth) results.block(sessionIds, refused.message);
      else for (const id of sessionIds) results.set(id, "fail", refused.message, evidence(agent));
      return undefined;
    }
    if (typeof first.sessionId === "string" && typeof second.sessionId === "string" && first.sessionId !== second.sessionId) {
      results.pass("ACPKIT-SESSION-001", `${first.sessionId} and ${second.sessionId}`);
    } else results.set("ACPKIT-SESSION-001", "fail", `session ids ${JSON.stringify(first.sessionId)} and ${JSON.stringify(second.sessionId)}`, evidence(agent));

    const sessionId = first.sessionId as string;
    // Every update during the turn is judged: valid for the version, and for a session this
    // connection has (an agent may report on any of its sessions; one the client never opened is
    // wrong). Judged as read, so that updates past the checker's record are judged too.
    const known = new Set([sessionId, second.sessionId]);
    agent.judgeUpdate = (params) => updateProblem(version, known, params);
    const from = agent.lines.length;
    const response = await agent.request("prompt-1", "session/prompt", { sessionId, prompt: [{ type: "text", text: context.prompt }] }, context.timeoutMs * 20);
    if (!response) {
      for (const id of sessionIds.slice(1)) results.set(id, "fail", "session/prompt got no answer", evidence(agent));
      return first;
    }
    if (isObject(response.error) && response.error.code === -32000) {
      // The agent made a session but wants a login before it works (claude-agent-acp lists no
      // methods and does this): the turn's requirements were not tested, which is not a failure.
      results.block(sessionIds.slice(1), authBlock("session/prompt", response.error, context));
      checkWire(agent, all.for(WIRE_GROUP));
      return first;
    }
    const responseAt = agent.lines.findIndex((line, index) => index >= from && isObject(line.value) && line.value.id === "prompt-1");
    const problem = isObject(response.error)
      ? `session/prompt failed with ${response.error.code}`
      : stopReasonProblem(version, isObject(response.result) ? response.result.stopReason : undefined);
    if (problem) results.set("ACP-PROMPT-001", "fail", problem, evidence(agent));
    else results.pass("ACP-PROMPT-001", `stopReason ${JSON.stringify((response.result as Json).stopReason)}`);

    const updates = agent.lines.slice(from, responseAt).filter((line) => isObject(line.value) && line.value.method === "session/update");
    const problem2 = updates
      .map((line) => ({ line, why: updateProblem(version, known, (line.value as Json).params) }))
      .find((found) => found.why !== undefined);
    const ofTurn = updates.filter((line) => ((line.value as Json).params as Json | undefined)?.sessionId === sessionId).length;
    if (problem2) results.set("ACPKIT-UPDATE-001", "fail", `an update ${problem2.why}: ${problem2.line.text.slice(0, 200)}`, evidence(agent));
    else results.pass("ACPKIT-UPDATE-001", `${updates.length} updates (${ofTurn} for the prompted session), all valid${unrecordedNote(agent)}`);

    await new Promise((resolve) => setTimeout(resolve, context.lateUpdateWindowMs));
    const late = lateTurnUpdate(agent, agent.lines[responseAt]!, sessionId);
    if (late) results.set("ACPKIT-ORDER-001", "fail", `an update came after the prompt's response: ${late}`, evidence(agent));
    else results.pass("ACPKIT-ORDER-001", "nothing after the response");
    checkWire(agent, all.for(WIRE_GROUP));
    return first;
  } finally {
    await agent.kill();
  }
}

/** A turn cancelled while it runs: it ends with stopReason cancelled, and nothing of it comes after. */
export async function cancelGroup(context: CheckContext, all: Results<AgentRequirementId>): Promise<void> {
  const results = all.for(TURN_GROUP);
  const { agent } = await start(context);
  try {
    const session = await newSession(agent, context, "new-1");
    if (session instanceof SessionRefused) {
      if (session.auth) results.block(["ACP-CANCEL-001"], session.message);
      else results.set("ACP-CANCEL-001", "fail", session.message, evidence(agent));
      return;
    }
    const from = agent.lines.length;
    agent.send({
      jsonrpc: "2.0",
      id: "prompt-c",
      method: "session/prompt",
      params: { sessionId: session.sessionId, prompt: [{ type: "text", text: context.prompt }] },
    });
    await agent.waitFor((value) => value.method === "session/update" || value.id === "prompt-c", 1000, from);
    const early = agent.lines.slice(from).find((line) => isObject(line.value) && line.value.id === "prompt-c");
    if (early) {
      const error = (early.value as Json).error;
      if (isObject(error) && error.code === -32000) results.block(["ACP-CANCEL-001"], authBlock("session/prompt", error, context));
      else results.set("ACP-CANCEL-001", "skip", "the turn ended before the cancel could be sent (use a longer --prompt)");
      return;
    }
    agent.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: session.sessionId } });
    const answer = await agent.waitFor((value) => value.id === "prompt-c" && !("method" in value), context.timeoutMs * 20, from);
    const value = answer?.value as Json | undefined;
    if (!value) results.set("ACP-CANCEL-001", "fail", "the cancelled prompt was never answered", evidence(agent));
    else if (isObject(value.error) && value.error.code === -32000) results.block(["ACP-CANCEL-001"], authBlock("session/prompt", value.error, context));
    else if (isObject(value.error))
      results.set(
        "ACP-CANCEL-001",
        "fail",
        `the cancelled prompt was answered with error ${value.error.code}; it must end with stopReason cancelled`,
        evidence(agent),
      );
    else if ((value.result as Json)?.stopReason !== "cancelled") {
      results.set(
        "ACP-CANCEL-001",
        "fail",
        `the cancelled prompt ended with stopReason ${JSON.stringify((value.result as Json)?.stopReason)}`,
        evidence(agent),
      );
    } else results.pass("ACP-CANCEL-001", "stopReason cancelled");
    // A cancelled turn too: nothing of it after its response.
    if (answer) {
      await new Promise((resolve) => setTimeout(resolve, context.lateUpdateWindowMs));
      const late = lateTurnUpdate(agent, answer, session.sessionId);
      if (late) results.set("ACPKIT-ORDER-001", "fail", `an update came after the cancelled prompt's response: ${late}`, evidence(agent));
    }
    checkWire(agent, all.for(WIRE_GROUP));
  } finally {
    await agent.kill();
  }
}
