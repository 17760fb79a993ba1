// Binds a `ws` WebSocket (server or client side) to a WebSocketTransport: frames in, frames out,
// backpressure from the underlying TCP socket, and a ping/pong keepalive that ends dead peers.
import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import { describeClose, truncateCloseReason, WebSocketTransport, type FrameSocket, type FrameTransportOptions } from "./frame-transport.js";

/** Default interval between keepalive pings. */
export const DEFAULT_KEEPALIVE_INTERVAL_MS = 30_000;
/** How long close() waits for the peer's close frame before dropping the connection. */
const CLOSE_HANDSHAKE_TIMEOUT_MS = 2_000;

/** Options of `wrapNodeSocket` (and, through `listen`/`connect`, of every Node WebSocket transport). */
export interface NodeSocketOptions extends FrameTransportOptions {
  /**
   * Send a ping this often; a peer that has not answered the previous ping (nor sent anything)
   * by the next one is considered dead and the connection is dropped (close code 1006).
   * 0 turns keepalive off. Default 30 000 ms.
   */
  keepaliveIntervalMs?: number;
}

/**
 * Wrap an open `ws` socket. `stream` is the TCP socket underneath, whose 'drain' tells us when a
 * congested connection can take more.
 */
export function wrapNodeSocket(ws: WebSocket, stream: Duplex | undefined, options: NodeSocketOptions = {}): WebSocketTransport {
  const interval = options.keepaliveIntervalMs ?? DEFAULT_KEEPALIVE_INTERVAL_MS;
  if (!Number.isInteger(interval) || interval < 0) {
    throw new RangeError(`keepaliveIntervalMs must be a non-negative integer, got ${String(interval)}`);
  }
  let closeTimer: ReturnType<typeof setTimeout> | undefined;
  // `ws` corks and uncorks the TCP socket around every frame, so each frame costs one writev.
  // Holding our own cork until the end of the tick makes every frame sent in one tick go out in
  // one writev (the nested cork/uncork pairs of `ws` then only count down to ours).
  let corked = false;
  const uncork = (): void => {
    corked = false;
    stream!.uncork();
  };
  const frameSocket: FrameSocket = {
    sendText(text) {
      if (!corked && stream !== undefined && !stream.destroyed) {
        corked = true;
        stream.cork();
        process.nextTick(uncork);
      }
      ws.send(text);
    },
    isCongested() {
      return stream?.writableNeedDrain === true;
    },
    whenDrained(callback) {
      if (stream === undefined || !stream.writableNeedDrain) {
        queueMicrotask(callback);
        return;
      }
      stream.once("drain", callback);
    },
    pause() {
      ws.pause();
    },
    resume() {
      ws.resume();
    },
    close(code, reason) {
      ws.close(code, truncateCloseReason(reason));
      // A peer that never answers the close frame must not keep close() waiting for ws's own 30 s.
      closeTimer = setTimeout(() => ws.terminate(), CLOSE_HANDSHAKE_TIMEOUT_MS);
      closeTimer.unref();
    },
  };
  const transport = new WebSocketTransport(frameSocket, options);
  /** Whether the peer showed life (pong or message) since the last keepalive ping. */
  let alive = true;
  let keepalive: ReturnType<typeof setInterval> | undefined;
  let keepaliveExpired = false;

  ws.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    alive = true;
    const buffer = toBuffer(data);
    if (isBinary) transport.handleBinary(buffer.length);
    else transport.handleText(buffer.toString("utf8"), buffer.length);
  });
  let closeError: Error | undefined;
  ws.on("error", (error) => {
    // 'close' always follows; remember why for CloseInfo.
    closeError = error;
  });
  ws.on("close", (code: number, reason: Buffer) => {
    if (closeTimer !== undefined) clearTimeout(closeTimer);
    if (keepalive !== undefined) clearInterval(keepalive);
    const info = describeClose(code, reason.toString("utf8"));
    if (keepaliveExpired) info.reason += " (the peer did not answer a keepalive ping)";
    if (closeError !== undefined) {
      info.error = closeError;
      info.reason += ` after error: ${closeError.message}`;
    }
    transport.handleClosed(info);
  });

  if (interval > 0) {
    ws.on("pong", () => (alive = true));
    keepalive = setInterval(() => {
      if (!alive) {
        keepaliveExpired = true;
        ws.terminate();
        return;
      }
      alive = false;
      ws.ping();
    }, interval);
    keepalive.unref();
  }
  return transport;
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
