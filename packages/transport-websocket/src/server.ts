// listen(): an ACP WebSocket server for Node. Each accepted connection becomes one
// WebSocketTransport handed to `onConnection`.
//
// Safe by default: it binds 127.0.0.1, refuses a non-loopback host unless a bearer token is set,
// and refuses browser pages from other origins (a web page can open a WebSocket to localhost; CORS
// does not stop it, only an Origin check does).
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { AcpError, __transportKit } from "@acpkit/core";

import { DEFAULT_MAX_MESSAGE_SIZE, type WebSocketTransport } from "./frame-transport.js";
import { loadWs } from "./load-ws.js";
import { wrapNodeSocket, type NodeSocketOptions } from "./node-socket.js";

// The transport kit, from the copy core's main entry carries (one module of core to load).
const { parseRequestTarget } = __transportKit;

/** Options of `listen`. */
export interface ListenOptions extends NodeSocketOptions {
  /** Interface to bind. Default "127.0.0.1". A non-loopback host requires `token`. */
  host?: string;
  /** TCP port; 0 (default) picks a free one, see `listener.port`. */
  port?: number;
  /** URL path that accepts WebSocket upgrades; other paths get 404. Default "/acp". */
  path?: string;
  /**
   * Require `Authorization: Bearer <token>` (or, for browsers, which cannot set headers, the
   * `access_token` query parameter). Compared in constant time. Missing or wrong → 401.
   */
  token?: string;
  /**
   * Origins (e.g. "https://editor.example") allowed to connect from a browser; others get 403.
   * Requests without an Origin header (non-browser clients) are not affected. Default: only
   * loopback origins (http://localhost:*, http://127.0.0.1:*, http://[::1]:*). "any" disables the check.
   */
  allowedOrigins?: readonly string[] | "any";
  /**
   * Hard limit on one frame, enforced by `ws` while reading: a larger frame closes the connection
   * with 1009. Default: twice `maxMessageSize` (messages between the two are discarded with an
   * error event and the connection goes on).
   */
  maxPayload?: number;
  /** Called once per accepted connection with its transport and the HTTP upgrade request. */
  onConnection(transport: WebSocketTransport, request: IncomingMessage): void;
}

/** A running server. */
export interface WebSocketListener {
  readonly host: string;
  readonly port: number;
  /** `ws://host:port/path`, ready for `connect()`. */
  readonly url: string;
  /** Stop accepting connections, close the open ones (1001) and wait until all are gone. */
  close(): Promise<void>;
}

/**
 * Start a WebSocket server; resolves once it is listening.
 *
 * ```ts
 * const listener = await listen({ port: 8765, onConnection: (transport) => serveAgent(transport, agent) });
 * console.log(`agent at ${listener.url}`);
 * ```
 */
export async function listen(options: ListenOptions): Promise<WebSocketListener> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/acp";
  if (typeof options.onConnection !== "function") throw new TypeError("listen() needs an onConnection(transport, request) callback");
  if (!isLoopbackHost(host) && !options.token) {
    throw new AcpError(
      "Unsupported",
      `refusing to listen on non-loopback host "${host}" without a token: anyone who can reach it could drive the agent; set options.token`,
    );
  }
  if (options.token !== undefined && options.token.length === 0) throw new TypeError("options.token must not be empty");
  const maxMessageSize = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
  const { WebSocketServer } = await loadWs();
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? maxMessageSize * 2, perMessageDeflate: false });
  const tokenMatches = options.token === undefined ? undefined : bearerTokenCheck(options.token);
  const originAllowed = makeOriginCheck(options.allowedOrigins);
  const open = new Set<WebSocketTransport>();

  // node:http and node:crypto are fetched here, not imported at the top: with `ws` (load-ws.ts) they
  // made up most of what importing this package cost, and only a server needs them.
  const server = process.getBuiltinModule("node:http").createServer((_request, response) => {
    response.writeHead(426, { "Content-Type": "text/plain", Upgrade: "websocket" });
    response.end("this endpoint speaks ACP over WebSocket only\n");
  });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const url = parseRequestTarget(request.url);
    if (url === undefined) return refuse(socket, 400, "Bad Request", "the request target is not a valid path");
    if (url.pathname !== path) return refuse(socket, 404, "Not Found", `no ACP endpoint at ${url.pathname}`);
    if (tokenMatches !== undefined && !tokenMatches(request.headers.authorization, url.searchParams)) {
      return refuse(socket, 401, "Unauthorized", "missing or wrong bearer token", { "WWW-Authenticate": 'Bearer realm="acp"' });
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !originAllowed(origin)) return refuse(socket, 403, "Forbidden", `origin ${origin} is not allowed`);
    wss.handleUpgrade(request, socket, head, (ws) => {
      const transport = wrapNodeSocket(ws, socket, options);
      open.add(transport);
      void transport.closed.then(() => open.delete(transport));
      options.onConnection(transport, request);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    host,
    port,
    url: `ws://${urlHost}:${port}${path}`,
    async close() {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...open].map((transport) => transport.closeWithCode(1001, "server shutting down")));
      wss.close();
      await closing;
    },
  };
}

/** Loopback names and addresses; everything else is reachable from other machines. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare) || bare === "::ffff:127.0.0.1";
}

function makeOriginCheck(allowed: ListenOptions["allowedOrigins"]): (origin: string) => boolean {
  if (allowed === "any") return () => true;
  if (allowed !== undefined) {
    const set = new Set(allowed.map((origin) => origin.toLowerCase()));
    return (origin) => set.has(origin.toLowerCase());
  }
  return (origin) => {
    try {
      return isLoopbackHost(new URL(origin).hostname);
    } catch {
      return false;
    }
  };
}

function digest(value: string): Buffer {
  return process.getBuiltinModule("node:crypto").createHash("sha256").update(value, "utf8").digest();
}

/**
 * The bearer-token check both ACP endpoints use (this package's `listen` and @acpkit/transport-http's):
 * the token from `Authorization: Bearer …`, or for browsers, which cannot set headers, from the
 * `access_token` query parameter, compared as SHA-256 digests, which always have equal length, so
 * timingSafeEqual says nothing about the token's length or where it differs.
 */
export function bearerTokenCheck(token: string): (authorization: string | undefined, query: URLSearchParams | undefined) => boolean {
  const expected = digest(token);
  return (authorization, query) => {
    const given = authorization !== undefined && /^bearer /i.test(authorization) ? authorization.slice(7).trim() : (query?.get("access_token") ?? undefined);
    return given !== undefined && process.getBuiltinModule("node:crypto").timingSafeEqual(digest(given), expected);
  };
}

function refuse(socket: Duplex, status: number, statusText: string, body: string, headers: Record<string, string> = {}): void {
  const lines = [
    `HTTP/1.1 ${status} ${statusText}`,
    "Connection: close",
    "Content-Type: text/plain; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body) + 1}`,
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  socket.end(lines.join("\r\n") + "\r\n\r\n" + body + "\n");
}
