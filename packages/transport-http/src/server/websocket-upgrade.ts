// The WebSocket profile on Node (docs/remote.md RT13): a GET with Upgrade: websocket on the endpoint's
// path passes the same checks as every other request, then becomes one connection whose every
// message, both ways, is a text frame. The 101 names the connection in Acp-Connection-Id.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { wrapNodeSocket } from "@acpkit/transport-websocket";
import { CONNECTION_HEADER } from "../common.js";
import type { EndpointCore } from "./handle.js";
import { fromNodeRequest, writeRawReply } from "./node-adapter.js";

type Ws = typeof import("ws");
let loading: Promise<Ws> | undefined;

export function upgradeHandler(core: EndpointCore, secure: boolean): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  let server: InstanceType<Ws["WebSocketServer"]> | undefined;
  return (request, socket, head) => {
    socket.on("error", () => socket.destroy());
    const endpointRequest = fromNodeRequest(request);
    const admitted = core.admit(endpointRequest, secure);
    if ("status" in admitted) return writeRawReply(socket, admitted);
    if (core.full)
      return writeRawReply(socket, {
        status: 503,
        headers: { "Retry-After": "5" },
        body: `the server holds ${core.limits.maxConnections} connections, its limit\n`,
      });
    loading ??= import("ws");
    void loading.then(({ WebSocketServer }) => {
      server ??= new WebSocketServer({ noServer: true, maxPayload: core.limits.maxBodyBytes, perMessageDeflate: false });
      const connectionId = core.newConnectionId();
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
        core.addSocket(transport);
        core.notify(transport, { connectionId, profile: "websocket", header: (name) => endpointRequest.header(name) });
      });
    });
  };
}
