// The JSON-RPC messages the later-v2 codecs write themselves (receipts, state updates, refusals).
// Built here rather than imported from core's JSON-RPC module, which is inside core's main entry.
import type { RequestId } from "../jsonrpc.js";

type Json = Record<string, unknown>;

export function successResponse(id: RequestId, result: unknown): Json {
  return { jsonrpc: "2.0", id, result };
}

export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): Json {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** A `session/update` notification for `sessionId`. */
export function sessionUpdate(sessionId: string, update: Json): Json {
  return { jsonrpc: "2.0", method: "session/update", params: { sessionId, update } };
}
