// The endpoint's answers that are not a connection's business: refusals with a JSON-RPC error
// body (named once each, so every path that refuses the same thing says the same sentence), where a
// POSTed message's answer goes, and what a GET stream answers with.
import { answersOnConnectionStream, CONNECTION_HEADER, EVENT_STREAM, isSessionScoped, SESSION_HEADER, sessionIdOfParams } from "../common.js";
import type { Route } from "./http-connection.js";
import type { EndpointReply, EndpointRequest } from "./types.js";

/** JSON-RPC codes the endpoint answers with (with the HTTP status that carries them). */
export const INVALID_REQUEST = -32600;
export const PARSE_ERROR = -32700;
export const INTERNAL_ERROR = -32603;

/** A refusal with a JSON-RPC error body that names the request (when it had an id) and the HTTP status. */
export function refusal(status: number, message: string, id: unknown = null, headers: Record<string, string> = {}, code = INVALID_REQUEST): EndpointReply {
  const error = { code, message, data: { httpStatus: status } };
  return {
    status,
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: typeof id === "string" || typeof id === "number" ? id : null, error }),
  };
}

/** 400: a request that names no connection (RT6). */
export function missingConnection(id: unknown = null): EndpointReply {
  return refusal(400, `missing ${CONNECTION_HEADER}: POST initialize first to open a connection`, id);
}

/** 404: a connection id nobody knows (RT7). */
export function unknownConnection(id: unknown = null): EndpointReply {
  return refusal(404, `unknown ${CONNECTION_HEADER} (the connection ended or never existed)`, id);
}

/** 429: one request too many waits for an answer on a connection. */
export function tooManyPending(limit: number, id: unknown): EndpointReply {
  return refusal(429, `${limit} requests of this connection wait for an answer already; send more once some are answered`, id);
}

/** 409: a second reader of one stream (RT9). */
export function streamTaken(sessionId: string | undefined): EndpointReply {
  return refusal(409, `the ${sessionId === undefined ? "connection" : "session"} stream already has a reader`);
}

/** Where the answer to a POSTed message goes, or the sentence that refuses it. */
export function routeOf(body: Record<string, unknown>, request: EndpointRequest, maxIdLength: number): Route | { refused: string } {
  const header = request.header(SESSION_HEADER);
  if (header !== undefined && header.length > maxIdLength) return { refused: `${SESSION_HEADER} is longer than ${maxIdLength} characters` };
  if (typeof body.method !== "string") return header === undefined ? "connection" : { session: header };
  const fromParams = sessionIdOfParams(body.params);
  if ((isSessionScoped(body.method) || fromParams !== undefined) && header === undefined)
    return { refused: `missing ${SESSION_HEADER}: ${body.method} is scoped to a session` };
  if (header !== undefined && fromParams !== undefined && header !== fromParams)
    return { refused: `${SESSION_HEADER} ${JSON.stringify(header)} does not match params.sessionId ${JSON.stringify(fromParams)}` };
  // The RFD puts the results of session/new and session/load on the connection stream.
  if (header === undefined || answersOnConnectionStream(body.method)) return "connection";
  return { session: header };
}

/** The headers of a GET stream's response. */
export const STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": EVENT_STREAM,
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
});

/** The Last-Event-ID a returning reader sent (RT27), when it is one of ours (a whole number). */
export function lastEventIdOf(request: EndpointRequest): number | undefined {
  const last = request.header("last-event-id");
  return last !== undefined && /^\d{1,15}$/.test(last) ? Number(last) : undefined;
}
