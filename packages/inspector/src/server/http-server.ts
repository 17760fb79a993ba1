// The inspector's one HTTP server: the page's static files, `GET /api/info`, and the WebSocket
// endpoints a mode provides (inspect: `/acp`; tap: `/events`). Every request passes the guard
// first (guard.ts); nothing else is served.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { parseRequestTarget } from "@acpkit/core/transport-kit";
import { INFO_PATH, type InspectorInfo } from "../common/protocol.js";
import { acceptedHosts, checkRequest, checkSameSite, type GuardPolicy } from "./guard.js";
import { loadPage, PAGE_HEADERS } from "./static-page.js";

/** What request targets (a path and query) are resolved against; only their path and query are read. */
const REQUEST_BASE = "http://inspector.invalid";

const STATUS_TEXT: Readonly<Record<number, string>> = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found" };

/** Largest WebSocket message the page may send (the agent's own limits apply behind it). */
const MAX_PAYLOAD = 64 * 1024 * 1024;

/** Handles one accepted WebSocket on a path. */
export type SocketHandler = (socket: WebSocket, request: IncomingMessage) => void;

export interface InspectorServerOptions {
  host: string;
  port: number;
  token: string;
  info: InspectorInfo;
  /** WebSocket endpoints by path. */
  sockets: Readonly<Record<string, SocketHandler>>;
  log: (message: string) => void;
}

/** A listening inspector server. */
export interface InspectorServer {
  /** The address it listens on, e.g. `http://127.0.0.1:8123`. */
  readonly origin: string;
  readonly port: number;
  /** Stop listening and close every socket. */
  close(): Promise<void>;
}

export async function startServer(options: InspectorServerOptions): Promise<InspectorServer> {
  const page = loadPage();
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  let policy: GuardPolicy | undefined;

  const refuse = (response: ServerResponse, status: number, reason: string): void => {
    response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", ...PAGE_HEADERS });
    response.end(`${reason}\n`);
  };

  const server = createServer((request, response) => {
    const url = parseRequestTarget(request.url, REQUEST_BASE);
    if (url === undefined) return refuse(response, 400, "the request target is not a valid path");
    if (request.method !== "GET" && request.method !== "HEAD") return refuse(response, 405, `${request.method} is not served here`);
    if (url.pathname === INFO_PATH) {
      const verdict = checkRequest(request, policy!);
      if (!verdict.ok) return refuse(response, verdict.status, verdict.reason);
      response.writeHead(200, { "Content-Type": "application/json; charset=utf-8", ...PAGE_HEADERS });
      return response.end(JSON.stringify(options.info));
    }
    const file = page.get(url.pathname);
    if (file === undefined) return refuse(response, 404, `${url.pathname} is not part of the inspector`);
    const verdict = checkSameSite(request, policy!);
    if (!verdict.ok) return refuse(response, verdict.status, verdict.reason);
    response.writeHead(200, { "Content-Type": file.contentType, "Content-Length": file.body.length, ...PAGE_HEADERS });
    response.end(request.method === "HEAD" ? undefined : file.body);
  });

  server.on("upgrade", (request: IncomingMessage, stream: Duplex, head: Buffer) => {
    const path = parseRequestTarget(request.url, REQUEST_BASE)?.pathname;
    const handler = path !== undefined && Object.hasOwn(options.sockets, path) ? options.sockets[path] : undefined;
    const verdict =
      path === undefined
        ? ({ ok: false, status: 400, reason: "the request target is not a valid path" } as const)
        : handler === undefined
          ? ({ ok: false, status: 404, reason: `no WebSocket at ${path}` } as const)
          : checkRequest(request, policy!);
    if (!verdict.ok) {
      options.log(`refused a WebSocket upgrade to ${path ?? JSON.stringify(request.url)}: ${verdict.status} ${verdict.reason}`);
      const body = `${verdict.reason}\n`;
      stream.end(
        `HTTP/1.1 ${verdict.status} ${STATUS_TEXT[verdict.status] ?? "Not Found"}\r\n` +
          `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    sockets.handleUpgrade(request, stream, head, (socket) => handler!(socket, request));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  policy = { hosts: acceptedHosts(options.host, port), token: options.token };
  const hostPart = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    origin: `http://${hostPart}:${port}`,
    port,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
