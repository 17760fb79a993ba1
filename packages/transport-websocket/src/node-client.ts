// connect() for Node: an ACP client over `ws`.
import type { Duplex } from "node:stream";
import { AcpError } from "@acpkit/core";
import { withoutAccessToken, type WebSocketTransport } from "./frame-transport.js";
import { loadWs } from "./load-ws.js";
import { wrapNodeSocket, type NodeSocketOptions } from "./node-socket.js";

/** Options of `connect` (Node). */
export interface ConnectOptions extends NodeSocketOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Extra HTTP headers for the upgrade request. */
  headers?: Record<string, string>;
  /** Hard limit on one incoming frame (closes with 1009). Default: twice `maxMessageSize`. */
  maxPayload?: number;
  /** Give up if the handshake takes longer. Default 10 000 ms. */
  handshakeTimeoutMs?: number;
}

/**
 * Open a WebSocket to an ACP endpoint and resolve with its transport once the connection is open.
 * Rejects with AcpError "ConnectionClosed" when the server refuses (the message names the HTTP
 * status, e.g. 401) or cannot be reached, and "InvalidArgument" for a URL that does not parse.
 * Messages show an `access_token` in the URL as "…".
 *
 * ```ts
 * const transport = await connect("ws://127.0.0.1:8765/acp", { token: process.env.ACP_TOKEN });
 * ```
 */
export async function connect(url: string, options: ConnectOptions = {}): Promise<WebSocketTransport> {
  const { WebSocket } = await loadWs();
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  const maxMessageSize = options.maxMessageSize ?? 64 * 1024 * 1024;
  const address = withoutAccessToken(url);
  return new Promise((resolve, reject) => {
    let stream: Duplex | undefined;
    let ws: InstanceType<typeof WebSocket>;
    try {
      ws = new WebSocket(url, {
        headers,
        maxPayload: options.maxPayload ?? maxMessageSize * 2,
        perMessageDeflate: false,
        handshakeTimeout: options.handshakeTimeoutMs ?? 10_000,
      });
    } catch (error) {
      // A URL `ws` cannot parse (it throws a SyntaxError that quotes it).
      const why = withoutAccessToken((error as Error).message);
      reject(new AcpError("InvalidArgument", `could not open WebSocket to ${JSON.stringify(address)}: ${why}`, { cause: error }));
      return;
    }
    ws.once("upgrade", (response) => (stream = response.socket));
    const fail = (error: Error) => {
      reject(new AcpError("ConnectionClosed", `could not open WebSocket to ${address}: ${withoutAccessToken(error.message)}`, { cause: error }));
    };
    ws.once("error", fail);
    ws.once("open", () => {
      ws.off("error", fail);
      try {
        resolve(wrapNodeSocket(ws, stream, options));
      } catch (error) {
        ws.terminate();
        reject(error);
      }
    });
  });
}
