// JSON-RPC 2.0 message shapes: classifying what arrived and building what we send.
// Classification runs once per incoming message, so it only reads properties (no allocation);
// the reason an object is invalid is worked out separately, and only when it is.
import type { RpcErrorObject } from "./errors.js";

/** A request id. We only ever send numbers; the peer may use strings (or, against advice, null). */
export type RequestId = string | number;

/** A request: has an `id` and is answered with a response carrying the same id. */
export type JsonRpcRequest = {
  jsonrpc: "2.0";
  id: RequestId | null;
  method: string;
  params?: unknown;
};
/** A notification: no `id`, never answered. */
export type JsonRpcNotification = {
  jsonrpc: "2.0";
  method: string;
  params?: unknown;
};
/** The answer to a request that succeeded. */
export type JsonRpcSuccessResponse = {
  jsonrpc: "2.0";
  id: RequestId | null;
  result: unknown;
};
/** The answer to a request that failed (`id` is null when the request could not be read). */
export type JsonRpcErrorResponse = {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: RpcErrorObject;
};
/** Either kind of response. */
export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

/** What an incoming value is. Numbers, so the per-message check returns without allocating. */
export const JsonRpcKind = {
  Invalid: 0,
  Request: 1,
  Notification: 2,
  Response: 3,
} as const;
export type JsonRpcKind = (typeof JsonRpcKind)[keyof typeof JsonRpcKind];

// A numeric id must come back exactly as it was sent: JSON.parse turns 1e309 into Infinity
// (which serializes as null) and rounds integers beyond 2^53, so such ids are refused rather than
// answered under an id the peer never used.
function isIdValue(id: unknown): boolean {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id) && Math.abs(id) <= Number.MAX_SAFE_INTEGER) || id === null;
}

/** A value in a few words, without walking it (a peer controls its depth and size). */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return Array.isArray(value) ? "an array" : `${typeof value === "object" ? "an object" : typeof value}`;
}

function describeBadId(id: unknown): string {
  if (typeof id === "number") {
    // Only the parsed value is left here, and it may not be what was sent (9007199254740993 reads
    // as 9007199254740992), so the message says what it reads as rather than quoting it as the id.
    return `"id" is a number beyond ±2^53 (it reads as ${String(id)}), so no answer could carry the id as it was sent: numeric ids must be within ±2^53, where JSON numbers are exact; use a string id`;
  }
  return `"id" must be a string, a number or null, got ${describeValue(id)}`;
}

// Params may be absent, an object, or null (ACP's schema allows null). Arrays are structurally
// fine for JSON-RPC and are left for the method's validator to refuse with -32602; a bare
// string or number is not a JSON-RPC params value at all (-32600).
function isParamsValue(params: unknown): boolean {
  return params === undefined || params === null || typeof params === "object";
}

/** Classify one decoded value (not an array: batches are split before this). */
export function classifyMessage(value: unknown): JsonRpcKind {
  if (typeof value !== "object" || value === null) return JsonRpcKind.Invalid;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return JsonRpcKind.Invalid;
  const method = message.method;
  if (method !== undefined) {
    if (typeof method !== "string" || !isParamsValue(message.params)) return JsonRpcKind.Invalid;
    if (!("id" in message)) return JsonRpcKind.Notification;
    return isIdValue(message.id) ? JsonRpcKind.Request : JsonRpcKind.Invalid;
  }
  if (!("id" in message) || !isIdValue(message.id)) return JsonRpcKind.Invalid;
  const hasResult = "result" in message;
  const hasError = "error" in message;
  if (hasResult === hasError) return JsonRpcKind.Invalid;
  if (hasError && !isErrorObject(message.error)) return JsonRpcKind.Invalid;
  return JsonRpcKind.Response;
}

function isErrorObject(error: unknown): error is RpcErrorObject {
  if (typeof error !== "object" || error === null) return false;
  const e = error as Record<string, unknown>;
  return Number.isInteger(e.code) && typeof e.message === "string";
}

/** Why `classifyMessage` said Invalid, as one sentence for the -32600 reply and diagnostics. */
export function describeInvalidMessage(value: unknown): string {
  if (Array.isArray(value)) return "a batch array is not allowed here";
  if (typeof value !== "object" || value === null) return `expected a JSON-RPC object, got ${value === null ? "null" : typeof value}`;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return `"jsonrpc" must be "2.0", got ${describeValue(message.jsonrpc)}`;
  if (message.method !== undefined) {
    if (typeof message.method !== "string") return `"method" must be a string, got ${typeof message.method}`;
    if (!isParamsValue(message.params)) return `"params" must be an object or null, got ${typeof message.params}`;
    return describeBadId(message.id);
  }
  if (!("id" in message)) return `the object has neither "method" nor "id"`;
  if (!isIdValue(message.id)) return describeBadId(message.id);
  const hasResult = "result" in message;
  const hasError = "error" in message;
  if (hasResult && hasError) return `a response must not carry both "result" and "error"`;
  if (!hasResult && !hasError) return `a response needs "result" or "error"`;
  return `"error" must be an object with an integer "code" and a string "message"`;
}

/** `id` of a value, if it carries a usable one (used to match a malformed response). */
export function idOf(value: unknown): RequestId | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

export function requestMessage(id: RequestId, method: string, params: unknown): JsonRpcRequest {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

export function notificationMessage(method: string, params: unknown): JsonRpcNotification {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

export function successResponse(id: RequestId | null, result: unknown): JsonRpcSuccessResponse {
  // `undefined` would vanish in JSON and leave a response with neither result nor error.
  return { jsonrpc: "2.0", id, result: result === undefined ? null : result };
}

export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** True for anything with a callable `then` (a handler's promise, or any thenable). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function";
}
