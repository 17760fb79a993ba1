// The three wire dialects acpkit speaks (docs/protocol.md §1.2 and §12). Two of them share protocol
// version 2, so the version alone does not name what a connection speaks: the `initialize` does.
// The later draft requires `info` in both the request and the result; the pinned draft names the
// same thing `clientInfo` / `agentInfo`, and v1 is version 1.
import { isJsonObject } from "./json.js";

/** A wire dialect: v1, the v2 of the pinned spec revision, or the later v2 draft that `@agentclientprotocol/sdk` 2.4 and the agents built on it speak. */
export type Dialect = "v1" | "v2-pinned" | "v2-later";

/**
 * Whether `initialize` params come from a later-draft client: an `info` object, which only the
 * later draft has. Such a client gets the later draft's version rule whatever version it asks for
 * (the highest supported one at or below it, or -32022); if that is 1, the connection is plain v1.
 */
export function isLaterV2InitializeParams(params: unknown): boolean {
  return isJsonObject(params) && typeof params.protocolVersion === "number" && isJsonObject(params.info);
}

/** The dialect an `initialize` result speaks, or undefined for a version acpkit does not speak. */
export function dialectOfInitializeResult(result: unknown): Dialect | undefined {
  if (!isJsonObject(result)) return undefined;
  if (result.protocolVersion === 1) return "v1";
  if (result.protocolVersion !== 2) return undefined;
  return isJsonObject(result.info) ? "v2-later" : "v2-pinned";
}

/**
 * A JSON-RPC id a codec may answer under: a string, or a number that survives a round trip (finite,
 * within ±2^53, as the runtime's Connection requires; null is handled apart).
 */
function isAnswerableId(id: unknown): boolean {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id) && Math.abs(id) <= Number.MAX_SAFE_INTEGER);
}

/**
 * The envelope of a message the codec maps: `jsonrpc: "2.0"`; a request or notification with a
 * string method, params absent or an object or array, and (for a request) an id that is a string,
 * a number within ±2^53 or null; a response with such an id.
 */
export function isWellFormedMessage(message: Record<string, unknown>): boolean {
  if (message.jsonrpc !== "2.0") return false;
  if ("method" in message) {
    if (typeof message.method !== "string") return false;
    const params = message.params;
    if (params !== undefined && params !== null && typeof params !== "object") return false;
    return !("id" in message) || message.id === null || isAnswerableId(message.id);
  }
  return isAnswerableId(message.id);
}
