// What a prompt handler may end a turn with (docs/protocol.md §4.6): the five known reasons in both
// versions; on v2 also custom values starting with "_" (on v1 the bridge sends those as end_turn
// plus _meta, B5). Everything else is a bug in the agent, reported as a JSON-RPC internal error.
import { ErrorCode, RpcError, STOP_REASONS } from "@acpkit/core";
import type { Meta, PromptResult, StopReason } from "./types.js";

const KNOWN_STOP_REASONS: ReadonlySet<string> = new Set(STOP_REASONS[2]);

export interface CheckedStopReason {
  stopReason: StopReason;
  _meta: Meta | null | undefined;
}

/** Normalize the handler's return value; throws RpcError(-32603) naming what was wrong. */
export function checkPromptResult(result: PromptResult): CheckedStopReason {
  if (result === undefined || result === null) return { stopReason: "end_turn", _meta: undefined };
  const stringResult = typeof result === "string";
  const stopReason = stringResult ? result : result.stopReason;
  const _meta = stringResult ? undefined : result._meta;
  if (typeof stopReason !== "string") {
    throw new RpcError(
      ErrorCode.InternalError,
      `The agent's prompt handler returned an invalid stop reason (${JSON.stringify(stopReason)}); expected a string`,
    );
  }
  if (!KNOWN_STOP_REASONS.has(stopReason) && !stopReason.startsWith("_")) {
    throw new RpcError(
      ErrorCode.InternalError,
      `The agent's prompt handler returned stop reason "${stopReason}", which is not one of end_turn, max_tokens, max_turn_requests, refusal, cancelled; custom stop reasons must start with "_" (failures are error responses, not stop reasons)`,
    );
  }
  return { stopReason, _meta };
}
