// serveEndpoint(): the endpoint on a Node server of its own. Plain HTTP/1.1 without TLS (loopback
// development); with `tls`, HTTP/2 over TLS with HTTP/1.1 offered by ALPN, because the RFD requires
// HTTP/2 for the SSE profile (a browser holds six HTTP/1.1 connections per host, and every open
// session is one stream).
import type { AddressInfo } from "node:net";
import { AcpError } from "@acpkit/core";
import { isLoopbackHost } from "@acpkit/transport-websocket";
import type { Duplex } from "node:stream";
import { DEFAULT_ENDPOINT_PATH } from "../common.js";
import { type AcpEndpoint, createAcpEndpoint } from "./endpoint.js";
import { refusal } from "./replies.js";
import { writeRawReply } from "./node-adapter.js";
import type { EndpointOptions } from "./types.js";

/** Options of `serveEndpoint`: the endpoint's, plus where to listen. */
export interface ServeEndpointOptions extends EndpointOptions {
  /** Interface to bind. Default "127.0.0.1". A non-loopback host requires `token`. */
  host?: string;
  /** TCP port; 0 (default) picks a free one (see `server.port`). */
  port?: number;
  /** PEM certificate and key: serve HTTP/2 over TLS (HTTP/1.1 by ALPN) instead of plain HTTP/1.1. */
  tls?: { cert: string | Buffer; key: string | Buffer };
}

/** A running endpoint server. */
export interface EndpointServer {
  /** The interface it listens on. */
  readonly host: string;
  /** The port it listens on (the one picked, when the options said 0). */
  readonly port: number;
  /** `http(s)://host:port/acp`, for `connectRemote()` (or the same with ws(s):// for the WebSocket profile). */
  readonly url: string;
  /** The endpoint it serves (its connection count, limits and adapters). */
  readonly endpoint: AcpEndpoint;
  /** Close every connection, stop listening, and resolve once the server is down. */
  close(reason?: string): Promise<void>;
}

/**
 * Serve the endpoint on its own Node server; resolves once it accepts connections.
 *
 * ```ts
 * const server = await serveEndpoint({ port: 8080, onConnection: (transport) => serveAgent(transport, myAgent) });
 * console.log(`serving: ${server.url}`);
 * ```
 */
export async function serveEndpoint(options: ServeEndpointOptions): Promise<EndpointServer> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host) && options.token === undefined)
    throw new AcpError(
      "Unsupported",
      `refusing to serve on non-loopback host "${host}" without a token: anyone who can reach it could drive the agent; set options.token`,
    );
  const endpoint = createAcpEndpoint(options);
  const server =
    options.tls === undefined
      ? process.getBuiltinModule("node:http").createServer(endpoint.node)
      : process.getBuiltinModule("node:http2").createSecureServer({ cert: options.tls.cert, key: options.tls.key, allowHTTP1: true }, endpoint.node);
  server.on("upgrade", endpoint.upgrade);
  // What Node's HTTP parser refuses (a malformed request, bytes after a body it did not expect)
  // never reaches the endpoint; it is still answered the endpoint's way (RT19): a status and a
  // JSON-RPC error that says so.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    writeRawReply(socket, refusal(error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400, `the request could not be read: ${error.message}`));
  });
  // Keep-alive and HTTP/2 sessions outlive their requests; close() ends them itself.
  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (socket: import("node:net").Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
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
    url: `${options.tls === undefined ? "http" : "https"}://${urlHost}:${port}${options.path ?? DEFAULT_ENDPOINT_PATH}`,
    endpoint,
    async close(reason) {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await endpoint.close(reason);
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}
