// @acpkit/transport-memory: two linked in-process transports, for tests and for embedding an
// agent and a client in one program. No Node built-ins: this runs in browsers too.
//
// By default a message crosses as JSON text, exactly as it would over stdio or a WebSocket, so a
// value that would not survive a real wire (a BigInt, a cycle) fails here too, and a value that
// would be changed by one (undefined fields, Dates, Maps) arrives changed. `mode: "object"` hands
// the object itself across, for speed, when both ends are trusted code.
//
// Delivery is asynchronous and in order: messages sent in one tick are queued and delivered
// together on one microtask, so a sender never re-enters the receiver synchronously.
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver, __transportKit } from "@acpkit/core";

// The transport kit, from the copy core's main entry carries (one module of core to load).
const { deliverMessage, encodeMessage, oversizedRequestId, SEND_ACCEPTED, utf8SizeOver } = __transportKit;

/** Default maximum size of one message in JSON mode: 64 MiB of UTF-8. */
export const DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

/** Options of `createMemoryPair`. */
export interface MemoryPairOptions {
  /** "json" (default): messages cross as JSON text. "object": the object itself crosses, uncopied. */
  mode?: "json" | "object";
  /** JSON mode: largest message in UTF-8 bytes; a larger one is dropped with an error event on the receiver. Default 64 MiB. */
  maxMessageSize?: number;
}

/** One end of a memory pair. */
export class MemoryTransport implements Transport {
  readonly closed: Promise<CloseInfo>;
  private resolveClosed!: (info: CloseInfo) => void;
  /** @internal Set by createMemoryPair: where our messages go. */
  peer!: MemoryTransport;
  private receiver: TransportReceiver | undefined;
  /** Messages that arrived and wait for delivery (for the next microtask, or for start()). */
  private inbox: (string | object)[] = [];
  private deliveryScheduled = false;
  /** Set by pause(): arrived messages wait in the inbox until resume(). */
  private paused = false;
  /** Set when the peer closed: delivered after the inbox drains, so earlier messages arrive first. */
  private pendingClose: CloseInfo | undefined;
  private closeInfo: CloseInfo | undefined;

  constructor(
    private readonly mode: "json" | "object",
    private readonly maxMessageSize: number,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.deliver = this.deliver.bind(this);
  }

  start(receiver: TransportReceiver): void {
    if (this.receiver !== undefined) throw new AcpError("ProtocolViolation", "transport.start() was called twice");
    this.receiver = receiver;
    if (this.inbox.length > 0 || this.pendingClose !== undefined) this.scheduleDelivery();
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closeInfo !== undefined || this.pendingClose !== undefined) {
      return Promise.reject(new AcpError("ConnectionClosed", `the memory transport is closed (${(this.closeInfo ?? this.pendingClose)!.reason})`));
    }
    if (this.mode === "object") {
      this.peer.accept(message);
      return SEND_ACCEPTED;
    }
    let text: string;
    try {
      text = encodeMessage(message);
    } catch (error) {
      return Promise.reject(error);
    }
    this.peer.accept(text);
    return SEND_ACCEPTED;
  }

  close(reason = "closed locally"): Promise<void> {
    if (this.closeInfo === undefined && this.pendingClose === undefined) {
      this.settle({ reason });
      this.peer.peerClosed({ reason: `peer closed: ${reason}` });
    }
    return this.closed.then(() => undefined);
  }

  /** Called by the peer's send(). */
  private accept(message: string | object): void {
    if (this.closeInfo !== undefined) return;
    if (typeof message === "string" && utf8SizeOver(message, this.maxMessageSize) !== undefined) {
      const size = message.length;
      // A request in it still gets its answer: the Connection answers -32600 under this id.
      const requestId = oversizedRequestId(message);
      message = new AcpError(
        "MessageTooLarge",
        `incoming message is larger than the ${this.maxMessageSize}-byte limit (at least ${size} bytes); it was discarded`,
        { data: requestId === undefined ? { limit: this.maxMessageSize } : { limit: this.maxMessageSize, requestId } },
      );
    }
    this.inbox.push(message);
    this.scheduleDelivery();
  }

  private peerClosed(info: CloseInfo): void {
    if (this.closeInfo !== undefined) return;
    this.pendingClose = info;
    this.scheduleDelivery();
  }

  private scheduleDelivery(): void {
    if (this.deliveryScheduled || this.receiver === undefined) {
      if (this.receiver === undefined && this.pendingClose !== undefined && this.inbox.length === 0) {
        // Nobody will ever read: settle now so `closed` does not wait for a start() that never comes.
        this.settle(this.pendingClose);
      }
      return;
    }
    this.deliveryScheduled = true;
    queueMicrotask(this.deliver);
  }

  /** Hold arrived messages until `resume()` (flow control; the sender is not slowed down). */
  pause(): void {
    this.paused = true;
  }

  /** Deliver held messages again. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.scheduleDelivery();
  }

  private deliver(): void {
    this.deliveryScheduled = false;
    if (this.paused) return;
    const receiver = this.receiver!;
    const batch = this.inbox;
    this.inbox = [];
    for (let i = 0; i < batch.length; i++) {
      const message = batch[i]!;
      if (message instanceof AcpError) receiver.onTransportError(message);
      else deliverMessage(receiver, message);
    }
    if (this.inbox.length > 0) this.scheduleDelivery();
    else if (this.pendingClose !== undefined) this.settle(this.pendingClose);
  }

  private settle(info: CloseInfo): void {
    if (this.closeInfo !== undefined) return;
    this.closeInfo = info;
    this.pendingClose = undefined;
    this.inbox = [];
    this.resolveClosed(info);
  }
}

/**
 * Two linked transports: what one sends, the other receives.
 *
 * ```ts
 * const [clientSide, agentSide] = createMemoryPair();
 * serveAgent(agentSide, myAgent);
 * const client = await connectAgent(clientSide);
 * ```
 *
 * Closing either end closes both; messages sent before the close are still delivered first.
 */
export function createMemoryPair(options: MemoryPairOptions = {}): [MemoryTransport, MemoryTransport] {
  const mode = options.mode ?? "json";
  if (mode !== "json" && mode !== "object") throw new RangeError(`mode must be "json" or "object", got ${String(mode)}`);
  const max = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
  if (!Number.isInteger(max) || max <= 0) {
    throw new RangeError(`maxMessageSize must be a positive integer number of bytes, got ${String(options.maxMessageSize)}`);
  }
  const a = new MemoryTransport(mode, max);
  const b = new MemoryTransport(mode, max);
  a.peer = b;
  b.peer = a;
  return [a, b];
}
