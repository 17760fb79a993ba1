// The browser entry over WebSocketStream (Chromium 124 and later), where a page can stop reading.
// The standard WebSocket hands the page every message as it arrives, so a page cannot push back on
// an agent that sends faster than it handles. A WebSocketStream delivers messages only as its
// reader asks: while the transport is paused, this adapter stops asking, the browser stops reading
// the socket once its own small queue is full, and the agent's sends back up in TCP, not in the
// page's memory. Imports no Node built-in.
import { AcpError, type CloseInfo } from "@acpkit/core";
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

/** What the reader of a WebSocketStream's readable side gives. */
interface MessageReader {
  read(): Promise<{ done: boolean; value?: unknown }>;
}

/** What the writer of its writable side takes. */
interface MessageWriter {
  write(message: string): Promise<void>;
}

/** The part of the WebSocketStream API this entry uses. */
export interface WebSocketStreamLike {
  readonly opened: Promise<{ readable: { getReader(): MessageReader }; writable: { getWriter(): MessageWriter } }>;
  readonly closed: Promise<{ closeCode?: number; reason?: string }>;
  close(info?: { closeCode?: number; reason?: string }): void;
}

/** The WebSocketStream constructor (`new WebSocketStream(url, { protocols })`). */
export type WebSocketStreamConstructor = new (url: string, options?: { protocols?: string[] }) => WebSocketStreamLike;

/**
 * Open `target` with `Constructor` and resolve with its transport once open; rejects with
 * AcpError "ConnectionClosed" naming `url` (the address without its token) when it cannot open.
 */
export async function openStreamTransport(
  Constructor: WebSocketStreamConstructor,
  url: string,
  target: string,
  protocols: string | string[] | undefined,
  options: FrameTransportOptions,
): Promise<WebSocketTransport> {
  let stream: WebSocketStreamLike;
  let opened: Awaited<WebSocketStreamLike["opened"]>;
  try {
    stream = new Constructor(target, protocols === undefined ? {} : { protocols: typeof protocols === "string" ? [protocols] : protocols });
    // Reported through `opened` (or later through the transport's `closed`), never unhandled.
    stream.closed.catch(() => {});
    opened = await stream.opened;
  } catch (error) {
    throw new AcpError("ConnectionClosed", `could not open WebSocket to ${withoutAccessToken(url)}: ${withoutAccessToken(whyNotOpen(error))}`, {
      cause: error,
    });
  }
  return wrapOpenedStream(stream, opened, options);
}

function whyNotOpen(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" && message !== "" ? message : closeOf(error).reason;
}

function wrapOpenedStream(stream: WebSocketStreamLike, opened: Awaited<WebSocketStreamLike["opened"]>, options: FrameTransportOptions): WebSocketTransport {
  const reader = opened.readable.getReader();
  const writer = opened.writable.getWriter();
  let closed = false;
  let unwritten = 0;
  let drainWaiter: (() => void) | undefined;
  let paused = false;
  let reading = false;

  const settleDrain = () => {
    if (drainWaiter !== undefined && (closed || unwritten <= BROWSER_SEND_HIGH_WATER / 4)) {
      const waiter = drainWaiter;
      drainWaiter = undefined;
      waiter();
    }
  };
  const frameSocket: FrameSocket = {
    sendText(text) {
      unwritten += text.length;
      const written = () => {
        unwritten -= text.length;
        settleDrain();
      };
      // A failed write means the stream closed; `closed` below reports that.
      writer.write(text).then(written, written);
    },
    isCongested() {
      return unwritten > BROWSER_SEND_HIGH_WATER;
    },
    whenDrained(callback) {
      drainWaiter = callback;
      settleDrain();
    },
    close(code, reason) {
      stream.close({ closeCode: code, reason: truncateCloseReason(reason) });
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      void readWhileWanted();
    },
  };
  const transport = new WebSocketTransport(frameSocket, options);

  // One read at a time, and none while paused: unread messages stay in the browser and, past its
  // queue, in TCP. A message already asked for may still arrive after pause(), as Transport allows.
  const readWhileWanted = async (): Promise<void> => {
    if (reading) return;
    reading = true;
    try {
      while (!paused && !closed) {
        const { done, value } = await reader.read();
        if (done) return;
        if (typeof value === "string") transport.handleText(value);
        else transport.handleBinary(binarySize(value));
      }
    } catch {
      // The readable side errors when the connection fails; `closed` reports why.
    } finally {
      reading = false;
    }
  };

  const finish = (info: CloseInfo) => {
    closed = true;
    settleDrain();
    transport.handleClosed(info);
  };

  stream.closed.then(
    ({ closeCode, reason }) => finish(describeClose(closeCode ?? 1005, reason ?? "")),
    (error: unknown) => finish({ ...closeOf(error), error }),
  );
  void readWhileWanted();
  return transport;
}

/** The close a WebSocketStream's failure names (its `closeCode` and `reason`), 1006 when it names none. */
function closeOf(error: unknown): CloseInfo {
  const { closeCode, reason } = (error ?? {}) as { closeCode?: unknown; reason?: unknown };
  return describeClose(typeof closeCode === "number" ? closeCode : 1006, typeof reason === "string" ? reason : "");
}
