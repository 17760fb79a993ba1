// What both ends of the remote endpoint agree on (docs/remote.md §1): the headers, the path, which
// methods are scoped to a session, and how a JSON-RPC id becomes a map key. One module so the
// server's routing and the client's choice of stream cannot drift apart.
import { isJsonObject } from "@acpkit/core";

/** The header that names a connection; the server sets it on the answer to initialize (and on the WebSocket 101). */
export const CONNECTION_HEADER = "Acp-Connection-Id";
/** The header that names the session a POST or a GET stream belongs to. */
export const SESSION_HEADER = "Acp-Session-Id";
/** The endpoint's path, as the RFD names it. */
export const DEFAULT_ENDPOINT_PATH = "/acp";
/** The media type of an SSE stream. */
export const EVENT_STREAM = "text/event-stream";
/** The `_meta` key under which an initialize result advertises resumable streams (RT26): `{ maxEvents, maxChars }`. */
export const RESUME_META_KEY = "acpkit.dev/streamResume";
/** The SSE event type of a gap notice (RT27): its data is `{"from": N, "to": M}`, the event ids that are lost. */
export const GAP_EVENT = "acpkit-gap";
/**
 * The first frame on a resumed WebSocket (RT40), an extension notification: how many of the
 * client's frames arrived (`{"received": N}`), so the client sends the rest again.
 */
export const RESUMED_METHOD = "_acpkit.dev/resumed";
/** The query parameters a resuming WebSocket upgrade may name its connection and last frame with (a browser cannot set headers). */
export const RESUME_QUERY = Object.freeze({ connection: "acp_connection", lastEventId: "acp_last_event" });
/** The WebSocket profile's gap notice when it resumes (RT40): the frames lost (`{"from": N, "to": M}`). */
export const GAP_METHOD = "_acpkit.dev/gap";

/**
 * Methods the client sends with `Acp-Session-Id` even when their params would not say so. Any other
 * message whose params carry a `sessionId` is scoped to that session as well (RT8).
 */
const SESSION_SCOPED_METHODS: ReadonlySet<string> = new Set([
  "session/cancel",
  "session/close",
  "session/delete",
  "session/fork",
  "session/load",
  "session/prompt",
  "session/resume",
  "session/set_config_option",
  "session/set_mode",
  "session/set_model",
]);

/** Whether a method must carry `Acp-Session-Id`. */
export function isSessionScoped(method: string): boolean {
  return SESSION_SCOPED_METHODS.has(method);
}

/**
 * Whether the answer to `method` comes on the connection stream even though the request names a
 * session (RT10): session/load's and session/resume's, since the session's stream may not be open.
 */
export function answersOnConnectionStream(method: string): boolean {
  return method === "session/load" || method === "session/resume";
}

/** The `sessionId` of a message's params, when it has one that is a string. */
export function sessionIdOfParams(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return undefined;
  const sessionId = (params as { sessionId?: unknown }).sessionId;
  return typeof sessionId === "string" ? sessionId : undefined;
}

/** The `sessionId` of a successful answer's result (session/new, session/fork, …). */
export function sessionIdOfResult(message: Record<string, unknown>): string | undefined {
  return "method" in message ? undefined : sessionIdOfParams(message.result);
}

/** A map key for a JSON-RPC id that tells 1 from "1"; undefined for what is not an id. */
export function idKey(id: unknown): string | undefined {
  if (typeof id === "string") return `s${id}`;
  if (typeof id === "number") return `n${id}`;
  return undefined;
}

/**
 * A frame as an object when it is one: transports hand frames on as text (the Connection parses
 * them), so a relay that must look into a few of them parses only those, once.
 */
export function frameObject(frame: unknown): Record<string, unknown> | undefined {
  if (typeof frame !== "string") return isJsonObject(frame) ? frame : undefined;
  try {
    const value: unknown = JSON.parse(frame);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
