// The endpoint's requests for a fleet's connections (docs/remote.md §7, RT30): the same checks as
// for a connection of this process, then handed to the FleetNode, which finds the connection on
// whichever node owns it.
import { CONNECTION_HEADER, SESSION_HEADER } from "../common.js";
import type { FleetNode } from "../fleet/fleet-node.js";
import {
  INTERNAL_ERROR,
  lastEventIdOf,
  missingConnection,
  refusal,
  routeOf,
  STREAM_HEADERS,
  streamTaken,
  tooManyPending,
  unknownConnection,
} from "./replies.js";
import type { EndpointLimits, EndpointReply, EndpointRequest } from "./types.js";

/** A POST of the fleet's: handed to the connection's agent on whichever node owns it. */
export async function postToFleet(
  fleet: FleetNode,
  limits: Readonly<EndpointLimits>,
  connectionId: string | undefined,
  body: Record<string, unknown>,
  request: EndpointRequest,
): Promise<EndpointReply> {
  if (connectionId === undefined) return missingConnection(body.id);
  if (connectionId.length > limits.maxIdLength) return unknownConnection(body.id);
  const route = routeOf(body, request, limits.maxIdLength);
  if (typeof route === "object" && "refused" in route) return refusal(400, route.refused, body.id);
  switch (await fleet.post(connectionId, body, route === "connection" ? undefined : route.session)) {
    case "gone":
      return unknownConnection(body.id);
    case "orphaned":
      return orphaned(body.id);
    case "busy":
      return tooManyPending(limits.maxPendingRequests, body.id);
    default:
      return { status: 202, headers: {} };
  }
}

/** A GET stream of the fleet's, read from the backend whichever node owns the connection. */
export async function streamOfFleet(fleet: FleetNode, limits: Readonly<EndpointLimits>, request: EndpointRequest): Promise<EndpointReply> {
  const connectionId = request.header(CONNECTION_HEADER);
  if (connectionId === undefined) return missingConnection();
  const sessionId = request.header(SESSION_HEADER);
  if (connectionId.length > limits.maxIdLength || (sessionId?.length ?? 0) > limits.maxIdLength)
    return refusal(400, `${CONNECTION_HEADER} or ${SESSION_HEADER} is longer than ${limits.maxIdLength} characters`);
  const reader = await fleet.stream(connectionId, sessionId, lastEventIdOf(request));
  if (reader === "gone") return unknownConnection();
  if (reader === "busy") return streamTaken(sessionId);
  if (reader === "full") return refusal(429, `this connection has ${limits.maxSessionStreams} session streams, its limit`);
  return { status: 200, headers: STREAM_HEADERS, stream: reader };
}

/** DELETE of a fleet's connection, on whichever node owns it. */
export async function removeFromFleet(fleet: FleetNode, request: EndpointRequest): Promise<EndpointReply> {
  const connectionId = request.header(CONNECTION_HEADER);
  if (connectionId === undefined) return missingConnection();
  const result = await fleet.remove(connectionId, "the client ended the connection (DELETE)");
  return result === "gone" ? unknownConnection() : { status: 202, headers: {} };
}

/** 503: the connection's node died and no node took it over within the wait (RT34). */
function orphaned(id: unknown): EndpointReply {
  return refusal(
    503,
    "the server node that holds this connection stopped, and no other node took it over yet; try again",
    id,
    { "Retry-After": "1" },
    INTERNAL_ERROR,
  );
}
