// @acpkit/transport-websocket/browser: connect() on the platform's WebSocketStream where there is
// one (browser-stream.ts), else on its WebSocket (browsers, Deno, Bun, Node ≥ 22). Imports no Node
// built-in.
import { AcpError } from "@acpkit/core";
import { openStreamTransport, type WebSocketStreamConstructor } from "./browser-stream.js";
import {
  BROWSER_SEND_HIGH_WATER,
  binarySize,
  describeClose,
  truncateCloseReason,
  withoutAccessToken,
  WebSocketTransport,
  type FrameSocket,
  type FrameTransportOptions,
} from "./frame-transport.js";

/** Browsers have no drain event; while congested, look again this often. */
const DRAIN_POLL_MS = 10;

/** The part of the standard WebSocket API this entry uses. */
export interface StandardWebSocket {
  binaryType: string;
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  // biome-ignore lint/suspicious/noExplicitAny: the DOM WebSocket passes a different event type per event name; listeners here read only what that event has.
  addEventListener(type: string, listener: (event: any) => void): void;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  removeEventListener(type: string, listener: (event: any) => void): void;
}

/** Options of `connect` (browser entry). */
export interface BrowserConnectOptions extends FrameTransportOptions {
  /**
   * Bearer token. Browsers cannot set an Authorization header on a WebSocket, so it travels as the
   * `access_token` query parameter (RFC 6750, section 2.3), which `listen({ token })` accepts.
   */
  token?: string;
  /** WebSocket subprotocols to offer. */
  protocols?: string | string[];
  /** The WebSocket constructor to use. Default: `globalThis.WebSocket`. */
  WebSocket?: new (
    url: string,
    protocols?: string | string[],
  ) => StandardWebSocket;
  /**
   * The WebSocketStream constructor to use, or `false` for the standard WebSocket. Default:
   * `globalThis.WebSocketStream` (Chromium 124 and later) unless `WebSocket` is given. Over a
   * WebSocketStream the transport can stop reading (`pause()`, and when its own unsent output
   * piles up), so an agent that sends faster than the page handles waits in TCP instead of
   * filling the page's memory; the standard WebSocket cannot stop reading.
   */
  WebSocketStream?: WebSocketStreamConstructor | false;
}

/**
 * Open a WebSocket to an ACP endpoint from a browser and resolve with its transport once open.
 * Rejects with AcpError "ConnectionClosed" if the connection cannot be opened.
 *
 * ```ts
 * import { connect } from "@acpkit/transport-websocket/browser";
 * const transport = await connect("ws://127.0.0.1:8765/acp", { token });
 * ```
 */
export function connect(url: string, options: BrowserConnectOptions = {}): Promise<WebSocketTransport> {
  let target = url;
  if (options.token !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch (error) {
      // Rejected like every other failure to connect, not thrown from connect() itself.
      return Promise.reject(
        new AcpError("InvalidArgument", `could not open WebSocket to ${JSON.stringify(withoutAccessToken(url))}: not a URL`, { cause: error }),
      );
    }
    parsed.searchParams.set("access_token", options.token);
    target = parsed.toString();
  }
  const StreamConstructor = options.WebSocketStream ?? (options.WebSocket === undefined ? platformWebSocketStream() : undefined);
  if (StreamConstructor) return openStreamTransport(StreamConstructor, url, target, options.protocols, options);
  const Constructor = options.WebSocket ?? (globalThis as { WebSocket?: BrowserConnectOptions["WebSocket"] }).WebSocket;
  if (Constructor === undefined) {
    return Promise.reject(new AcpError("Unsupported", "no WebSocket implementation: globalThis.WebSocket is missing; pass options.WebSocket"));
  }
  return new Promise((resolve, reject) => {
    let socket: StandardWebSocket;
    try {
      socket = new Constructor(target, options.protocols);
    } catch (error) {
      reject(
        new AcpError("ConnectionClosed", `could not open WebSocket to ${withoutAccessToken(url)}: ${withoutAccessToken((error as Error).message)}`, {
          cause: error,
        }),
      );
      return;
    }
    socket.binaryType = "arraybuffer";
    let earlyError: unknown;
    const onEarlyError = (event: unknown) => {
      earlyError = event;
    };
    const onOpen = () => {
      socket.removeEventListener("close", onEarlyClose);
      socket.removeEventListener("error", onEarlyError);
      resolve(wrapStandardSocket(socket, options));
    };
    // Browsers hide why a handshake failed (an error event, then close code 1006); other
    // implementations may say more in the error event's message.
    const onEarlyClose = (event: { code: number; reason: string }) => {
      socket.removeEventListener("open", onOpen);
      socket.removeEventListener("error", onEarlyError);
      const detail = (earlyError as { message?: unknown } | undefined)?.message;
      const why = typeof detail === "string" && detail !== "" ? detail : describeClose(event.code, event.reason).reason;
      reject(new AcpError("ConnectionClosed", `could not open WebSocket to ${withoutAccessToken(url)}: ${withoutAccessToken(why)}`, { cause: earlyError }));
    };
    socket.addEventListener("open", onOpen);
    socket.addEventListener("error", onEarlyError);
    socket.addEventListener("close", onEarlyClose);
  });
}

/**
 * The platform's WebSocketStream, when it has the shipped API (`opened`, `closed`); the earlier
 * experimental one (`connection`) is left alone and the standard WebSocket used instead.
 */
function platformWebSocketStream(): WebSocketStreamConstructor | undefined {
  const candidate = (globalThis as { WebSocketStream?: WebSocketStreamConstructor }).WebSocketStream;
  return typeof candidate === "function" && "opened" in candidate.prototype && "closed" in candidate.prototype ? candidate : undefined;
}

/** Wrap an already open standard WebSocket in a transport. */
export function wrapStandardSocket(socket: StandardWebSocket, options: FrameTransportOptions = {}): WebSocketTransport {
  let closed = false;
  const frameSocket: FrameSocket = {
    sendText(text) {
      socket.send(text);
    },
    isCongested() {
      return socket.bufferedAmount > BROWSER_SEND_HIGH_WATER;
    },
    whenDrained(callback) {
      const check = () => {
        if (closed || socket.bufferedAmount <= BROWSER_SEND_HIGH_WATER / 4) callback();
        else setTimeout(check, DRAIN_POLL_MS);
      };
      setTimeout(check, DRAIN_POLL_MS);
    },
    close(code, reason) {
      socket.close(code, truncateCloseReason(reason));
    },
  };
  const transport = new WebSocketTransport(frameSocket, options);
  socket.addEventListener("message", (event: { data: unknown }) => {
    const data = event.data;
    if (typeof data === "string") transport.handleText(data);
    else transport.handleBinary(binarySize(data));
  });
  let error: unknown;
  socket.addEventListener("error", (event: unknown) => {
    error = event;
  });
  socket.addEventListener("close", (event: { code: number; reason: string }) => {
    closed = true;
    const info = describeClose(event.code, event.reason);
    if (error !== undefined) info.error = error;
    transport.handleClosed(info);
  });
  return transport;
}

export { WebSocketTransport, DEFAULT_MAX_MESSAGE_SIZE, type FrameTransportOptions } from "./frame-transport.js";
export type { WebSocketStreamConstructor, WebSocketStreamLike } from "./browser-stream.js";
