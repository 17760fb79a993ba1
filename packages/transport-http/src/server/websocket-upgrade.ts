// The WebSocket profile on Node (docs/remote.md RT13): a GET with Upgrade: websocket on the endpoint's
// path passes the same checks as every other request, then becomes one connection whose every
// message, both ways, is a text frame. The 101 names the connection in Acp-Connection-Id. With resume
// on (RT40), the agent is served on a ResumableSocket that outlives its sockets, and an upgrade that
// names a connection (Acp-Connection-Id and Last-Event-ID, or the query parameters RESUME_QUERY
// names, for browsers that cannot set headers) carries that connection on, from where its client
// left it.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { wrapNodeSocket } from "@acpkit/transport-websocket";
import { __transportKit } from "@acpkit/core";
import { CONNECTION_HEADER, RESUME_QUERY } from "../common.js";
import type { EndpointCore } from "./handle.js";
import { fromNodeRequest, writeRawReply } from "./node-adapter.js";
import { refusal } from "./replies.js";

const { parseRequestTarget } = __transportKit;

type Ws = typeof import("ws");
let loading: Promise<Ws> | undefined;

export function upgradeHandler(core: EndpointCore, secure: boolean): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  let server: InstanceType<Ws["WebSocketServer"]> | undefined;
  return (request, socket, head) => {
    socket.on("error", () => socket.destroy());
    const endpointRequest = fromNodeRequest(request);
    const admitted = core.admit(endpointRequest, secure);
    if ("status" in admitted) return writeRawReply(socket, admitted);
    const resuming = resumeOf(request);
    if (resuming !== undefined && core.resumableSocket(resuming.connectionId) === undefined)
      return writeRawReply(socket, refusal(404, `no WebSocket connection ${resuming.connectionId} waits to be resumed (it ended, or resume is off)`));
    if (resuming === undefined && core.full)
      return writeRawReply(socket, {
        status: 503,
        headers: { "Retry-After": "5" },
        body: `the server holds ${core.limits.maxConnections} connections, its limit\n`,
      });
    loading ??= import("ws");
    void loading.then(({ WebSocketServer }) => {
      server ??= new WebSocketServer({ noServer: true, maxPayload: core.limits.maxBodyBytes, perMessageDeflate: false });
      const connectionId = resuming?.connectionId ?? core.newConnectionId();
      const addHeader = (headers: string[], upgraded: IncomingMessage) => {
        if (upgraded === request) headers.push(`${CONNECTION_HEADER}: ${connectionId}`);
      };
      server.on("headers", addHeader);
      // handleUpgrade answers a bad handshake itself (400) without calling back; the socket's close
      // is the one event both outcomes share.
      socket.once("close", () => server?.off("headers", addHeader));
      server.handleUpgrade(request, socket, head, (ws) => {
        server?.off("headers", addHeader);
        const transport = wrapNodeSocket(ws, socket, { maxMessageSize: core.limits.maxBodyBytes });
        if (resuming !== undefined) {
          const waiting = core.resumableSocket(resuming.connectionId);
          if (waiting === undefined) return void transport.closeWithCode(1008, "the connection ended before it could be resumed");
          return waiting.attach(transport, resuming.lastEventId);
        }
        const resumable = core.openResumableSocket(connectionId);
        if (resumable !== undefined) resumable.attach(transport, undefined);
        else core.addSocket(transport);
        core.notify(resumable ?? transport, { connectionId, profile: "websocket", header: (name) => endpointRequest.header(name) });
      });
    });
  };
}

/** The connection and the last frame a resuming upgrade names (headers, or the query for browsers); undefined for a new connection. */
function resumeOf(request: IncomingMessage): { connectionId: string; lastEventId: number } | undefined {
  const query = parseRequestTarget(request.url ?? "/")?.searchParams;
  const connectionId = header(request, CONNECTION_HEADER) ?? query?.get(RESUME_QUERY.connection) ?? undefined;
  if (connectionId === undefined || connectionId.length > 1024) return undefined;
  const last = header(request, "last-event-id") ?? query?.get(RESUME_QUERY.lastEventId) ?? "0";
  return /^\d{1,15}$/.test(last) ? { connectionId, lastEventId: Number(last) } : undefined;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
