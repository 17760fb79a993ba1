// The WebSocket Transport, shared by the Node (`ws`) and browser (global WebSocket) entries.
// One JSON-RPC message per text frame (docs/protocol.md §8.3). No Node built-ins here: the browser entry
// imports this file.
//
// What differs between Node and browsers (how to send, how to learn the socket drained, how close
// is reported) sits behind FrameSocket; the adapter feeds received frames to handleText /
// handleBinary and the final close to handleClosed.
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver, __transportKit } from "@acpkit/core";
import type { Deferred } from "@acpkit/core/transport-kit";

// The transport kit, from the copy core's main entry carries (one module of core to load).
const { createDeferred, deliverMessage, encodeMessage, OUTPUT_HIGH_WATER, oversizedRequestId, SEND_ACCEPTED, utf8SizeOver } = __transportKit;

/**
 * The browser adapters' send bound: above this much handed to the socket and not yet written
 * (`bufferedAmount` bytes, or characters given to a WebSocketStream), senders wait; they go on
 * below a quarter of it. Node's `ws` has a drain event instead.
 */
export const BROWSER_SEND_HIGH_WATER = 1024 * 1024;

/** Default maximum size of one incoming message: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

/** What the transport needs from a socket; implemented for `ws` and for the browser WebSocket. */
export interface FrameSocket {
  /** Send one text frame. */
  sendText(text: string): void;
  /** Whether outgoing data piled up enough that senders should wait. */
  isCongested(): boolean;
  /** Call `callback` once the outgoing buffer drained (or the socket closed). */
  whenDrained(callback: () => void): void;
  /** Begin the closing handshake with `code`; the adapter reports the end through handleClosed. */
  close(code: number, reason: string): void;
  /** Stop reading incoming frames (flow control), where the socket can; browsers cannot. */
  pause?(): void;
  /** Read incoming frames again. */
  resume?(): void;
}

/** Options of every WebSocket transport. */
export interface FrameTransportOptions {
  /** Largest incoming message in bytes; a larger one is discarded with an error event. Default 64 MiB. */
  maxMessageSize?: number;
}

/** A Transport over one WebSocket connection. Created by `listen()` and `connect()`. */
export class WebSocketTransport implements Transport {
  readonly closed: Promise<CloseInfo>;
  private resolveClosed!: (info: CloseInfo) => void;
  private receiver: TransportReceiver | undefined;
  /** Frames that arrived before start(). */
  private early: (string | AcpError)[] | undefined = [];
  private closeInfo: CloseInfo | undefined;
  private closeRequested: string | undefined;
  private readonly maxMessageSize: number;
  /** Messages waiting for the socket to drain, and the promise their senders hold. */
  private queued: string[] = [];
  private queuedSize = 0;
  private drained: Deferred | undefined;
  /** Frames are not read while either is true: pause() was called, or our unread output is past OUTPUT_HIGH_WATER. */
  private pausedByCaller = false;
  private outputCongested = false;

  constructor(
    private readonly socket: FrameSocket,
    options: FrameTransportOptions = {},
  ) {
    this.maxMessageSize = validateMaxMessageSize(options.maxMessageSize);
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.onDrained = this.onDrained.bind(this);
  }

  start(receiver: TransportReceiver): void {
    if (this.receiver !== undefined) throw new AcpError("ProtocolViolation", "transport.start() was called twice");
    this.receiver = receiver;
    const early = this.early!;
    this.early = undefined;
    for (const item of early) this.dispatch(item);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closeInfo !== undefined || this.closeRequested !== undefined) {
      return Promise.reject(this.closedError());
    }
    let text: string;
    try {
      text = encodeMessage(message);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.sendText(text);
  }

  /**
   * Send one message that is already encoded JSON text, as one frame, with the same ordering and
   * backpressure as `send` (for a relay that holds messages as text, so it need not parse and
   * encode them again). The text is not checked.
   */
  sendText(text: string): Promise<void> {
    if (this.closeInfo !== undefined || this.closeRequested !== undefined) {
      return Promise.reject(this.closedError());
    }
    if (this.drained !== undefined) {
      this.queued.push(text);
      // Answers to the peer's requests are sent without waiting: a peer that keeps sending and
      // never reads would grow this queue without end, so stop reading it until it drained.
      this.queuedSize += text.length;
      if (!this.outputCongested && this.queuedSize > OUTPUT_HIGH_WATER) this.setOutputCongested(true);
      return this.drained.promise;
    }
    this.socket.sendText(text);
    if (this.socket.isCongested()) this.waitForDrain();
    return SEND_ACCEPTED;
  }

  close(reason = "closed locally"): Promise<void> {
    return this.closeWithCode(1000, reason);
  }

  /** Stop reading frames until `resume()` (Node only: the peer's sends then back up in TCP). */
  pause(): void {
    this.pausedByCaller = true;
    this.applyFlow();
  }

  /** Read frames again after `pause()` (once our own output is not congested either). */
  resume(): void {
    this.pausedByCaller = false;
    this.applyFlow();
  }

  private setOutputCongested(congested: boolean): void {
    this.outputCongested = congested;
    this.applyFlow();
    // The Connection then holds its further answers unencoded until the socket drained.
    this.receiver?.onOutputCongestion?.(congested);
  }

  private applyFlow(): void {
    if (this.closeInfo !== undefined) return;
    if (this.pausedByCaller || this.outputCongested) this.socket.pause?.();
    else this.socket.resume?.();
  }

  /** close() with a specific WebSocket close code (e.g. 1001 when a server shuts down). */
  closeWithCode(code: number, reason: string): Promise<void> {
    if (this.closeInfo === undefined && this.closeRequested === undefined) {
      this.closeRequested = reason;
      this.socket.close(code, reason);
    }
    return this.closed.then(() => undefined);
  }

  /** @internal Adapter: a text frame arrived. `byteLength` is its UTF-8 size when the adapter knows it. */
  handleText(text: string, byteLength?: number): void {
    if (this.closeInfo !== undefined) return;
    const size = byteLength !== undefined ? (byteLength > this.maxMessageSize ? byteLength : undefined) : utf8SizeOver(text, this.maxMessageSize);
    if (size !== undefined) {
      // A request in it still gets its answer: the Connection answers -32600 under this id.
      const requestId = oversizedRequestId(text);
      this.deliver(
        new AcpError("MessageTooLarge", `incoming WebSocket message is larger than the ${this.maxMessageSize}-byte limit (${size} bytes); it was discarded`, {
          data: requestId === undefined ? { size, limit: this.maxMessageSize } : { size, limit: this.maxMessageSize, requestId },
        }),
      );
      return;
    }
    this.deliver(text);
  }

  /** @internal Adapter: a binary frame arrived; ACP carries JSON text only, so it is reported and dropped. */
  handleBinary(byteLength: number): void {
    if (this.closeInfo !== undefined) return;
    this.deliver(
      new AcpError(
        "InvalidMessage",
        `received a binary WebSocket frame (${byteLength} bytes) and ignored it: ACP sends each JSON-RPC message as one text frame`,
        { data: { byteLength } },
      ),
    );
  }

  /** @internal Adapter: the socket is closed for good. */
  handleClosed(info: CloseInfo): void {
    if (this.closeInfo !== undefined) return;
    this.closeInfo = info;
    this.queued = [];
    this.queuedSize = 0;
    const drained = this.drained;
    this.drained = undefined;
    drained?.reject(this.closedError());
    this.resolveClosed(info);
  }

  private deliver(item: string | AcpError): void {
    if (this.early !== undefined) this.early.push(item);
    else this.dispatch(item);
  }

  private dispatch(item: string | AcpError): void {
    if (typeof item === "string") deliverMessage(this.receiver!, item);
    else this.receiver!.onTransportError(item);
  }

  private waitForDrain(): void {
    this.drained = createDeferred();
    this.socket.whenDrained(this.onDrained);
  }

  private onDrained(): void {
    const drained = this.drained;
    if (drained === undefined || this.closeInfo !== undefined) return;
    this.drained = undefined;
    const queued = this.queued;
    this.queued = [];
    this.queuedSize = 0;
    for (let i = 0; i < queued.length; i++) this.socket.sendText(queued[i]!);
    // The queued messages were handed to the socket: their senders may go on, even if the
    // socket is congested again and later sends have to wait for the next drain.
    if (this.socket.isCongested()) this.waitForDrain();
    else if (this.outputCongested) this.setOutputCongested(false);
    drained.resolve();
  }

  private closedError(): AcpError {
    const reason = this.closeInfo?.reason ?? this.closeRequested ?? "closed";
    return new AcpError("ConnectionClosed", `the WebSocket transport is closed (${reason})`, { data: this.closeInfo });
  }
}

/**
 * `text` (an address, or an error message that quotes one) with the value of every `access_token`
 * query parameter shown as "…": error messages end up in logs, and a token written into the URL
 * (the form browsers must use, RFC 6750 section 2.3) must not go with them.
 */
export function withoutAccessToken(text: string): string {
  return text.replace(/([?&]access_token=)[^&#\s"']*/gi, "$1…");
}

/** Human wording of a close, for CloseInfo.reason. */
export function describeClose(code: number, reason: string): CloseInfo {
  const meaning = CLOSE_CODE_MEANINGS[code];
  const text = `WebSocket closed with code ${code}${meaning ? ` (${meaning})` : ""}${reason ? `: ${reason}` : ""}`;
  return { reason: text, closeCode: code };
}

const CLOSE_CODE_MEANINGS: Record<number, string> = {
  1000: "normal closure",
  1001: "going away",
  1002: "protocol error",
  1003: "unsupported data",
  1005: "no status received",
  1006: "abnormal closure, no close frame",
  1007: "invalid UTF-8 in a text frame",
  1008: "policy violation",
  1009: "message too big",
  1011: "internal error",
};

/** The size of a binary message as a browser API hands it over (ArrayBuffer, a view, or a Blob). */
export function binarySize(data: unknown): number {
  if (data instanceof ArrayBuffer) return data.byteLength;
  if (ArrayBuffer.isView(data)) return data.byteLength;
  const size = (data as { size?: unknown } | null | undefined)?.size; // a Blob, if binaryType could not be set
  return typeof size === "number" ? size : 0;
}

/** Close reasons are limited to 123 bytes of UTF-8 by RFC 6455; cut longer ones. */
export function truncateCloseReason(reason: string): string {
  if (reason.length <= 40) return reason;
  const bytes = new TextEncoder().encode(reason);
  if (bytes.length <= 123) return reason;
  return new TextDecoder().decode(bytes.subarray(0, 120)).replace(/\uFFFD$/, "") + "…";
}

export function validateMaxMessageSize(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_MESSAGE_SIZE;
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`maxMessageSize must be a positive integer number of bytes, got ${String(value)}`);
  }
  return value;
}
