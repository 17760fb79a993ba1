// What a prompt handler may end a turn with (docs/protocol.md §4.6): the five known reasons in both
// versions; on v2 also custom values starting with "_" (on v1 the bridge sends those as end_turn
// plus _meta, B5). Everything else is a bug in the agent, reported as a JSON-RPC internal error.
import { ErrorCode, isJsonObject, RpcError, STOP_REASONS } from "@acpkit/core";
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
  // The later v2 draft's stop reason `error` carries a JSON-RPC error; in every dialect the turn
  // fails with that error (later v2: idle with stopReason error; v1 and pinned v2: the prompt's
  // error response). Only the object form: a bare "error" is still a mistake (R1).
  if (!stringResult && stopReason === "error" && "error" in result && isJsonObject(result.error)) {
    const error = result.error as { code?: unknown; message?: unknown; data?: unknown };
    throw new RpcError(
      typeof error.code === "number" && Number.isInteger(error.code) ? error.code : ErrorCode.InternalError,
      typeof error.message === "string" ? error.message : "The agent ended the turn with an error",
      error.data,
    );
  }
  if (typeof stopReason !== "string") {
    throw new RpcError(
      ErrorCode.InternalError,
      `The agent's prompt handler returned an invalid stop reason (${JSON.stringify(stopReason)}); expected a string`,
    );
  }
  if (!KNOWN_STOP_REASONS.has(stopReason) && !stopReason.startsWith("_")) {
    throw new RpcError(
      ErrorCode.InternalError,
      `The agent's prompt handler returned stop reason "${stopReason}", which is not one of end_turn, max_tokens, max_turn_requests, refusal, cancelled; custom stop reasons must start with "_" (to end the turn with a failure, throw, or return { stopReason: "error", error: { code, message } })`,
    );
  }
  return { stopReason, _meta };
}
