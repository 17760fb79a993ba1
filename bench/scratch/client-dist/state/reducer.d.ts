import type { v2 } from "@acpkit/schema";
import { SessionState } from "./session-state.js";
/** Prefix of the ids given to the prompts the client sent (M11: an echo attaches to them). */
export declare const PROMPT_MESSAGE_ID_PREFIX = "acpkit-prompt-";
/**
 * Apply one model update (pinned-v2 shape) and return the new state; `state` is left as it was.
 * Unknown update variants are ignored and listed in `state.diagnostics`.
 */
export declare function applyUpdate(state: SessionState, update: v2.SessionUpdate): SessionState;
/**
 * The client sent `session/prompt`: a turn starts. With `prompt`, the prompt is recorded as a user
 * message (id `acpkit-prompt-<n>`); an agent's echo of it attaches to that message (M11).
 */
export declare function beginTurn(state: SessionState, prompt?: readonly v2.ContentBlock[]): SessionState;
/**
 * The client cancelled the turn (PROTOCOL C2): every tool call of the current turn whose status is
 * `pending`, `in_progress` or unset shows `cancelled` until the wire reports it finished (C4).
 */
export declare function markTurnCancelled(state: SessionState): SessionState;
/** The `session/prompt` response arrived with `stopReason`: the turn is over. */
export declare function recordTurnEnd(state: SessionState, stopReason: v2.StopReason): SessionState;
/**
 * A permission request arrived (or was answered): its `toolCall` is applied like a
 * `tool_call_update` (PROTOCOL §4.7) and `{toolCallId, options, outcome}` is added to
 * `permissions`. Without `outcome` the entry stays unanswered until `recordPermissionOutcome`.
 */
export declare function recordPermission(state: SessionState, permission: {
    toolCall: v2.ToolCallUpdate;
    options: readonly v2.PermissionOption[];
    outcome?: v2.RequestPermissionOutcome;
}): SessionState;
/** Set the outcome of the most recent unanswered permission request for `toolCallId`. */
export declare function recordPermissionOutcome(state: SessionState, toolCallId: string, outcome: v2.RequestPermissionOutcome): SessionState;
//# sourceMappingURL=reducer.d.ts.map