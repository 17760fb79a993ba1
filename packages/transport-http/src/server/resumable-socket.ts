// One connection of the WebSocket profile with resume on (docs/remote.md RT40): the agent is served
// on this Transport, which outlives the sockets it is carried on. Frames to the client go through an
// Outbox (numbered 1, 2, …, the last ones kept within the retention window); frames from the
// client are counted. When a socket drops without a normal close, the connection waits up to
// `graceMs` for the client to come back with a new upgrade naming it and the last frame it got; the
// new socket then starts with a `RESUMED_METHOD` notification (how many client frames arrived, so
// the client sends the rest again), a `GAP_METHOD` one when frames fell out of the window, and the
// frames it missed.
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver, __transportKit } from "@acpkit/core";
import type { WebSocketTransport } from "@acpkit/transport-websocket";
import { frameObject, GAP_METHOD, idKey, RESUME_META_KEY, RESUMED_METHOD } from "../common.js";
import { Outbox, type OutboxReader, type Retention } from "./outbox.js";

const { createDeferred, encodeMessage, SEND_ACCEPTED } = __transportKit;

/** WebSocket close codes after which the client is not coming back: a normal close, going away. */
const FINAL_CLOSE_CODES = new Set([1000, 1001]);

export class ResumableSocket implements Transport {
  readonly closed: Promise<CloseInfo>;
  private readonly outbox: Outbox;
  private receiver: TransportReceiver | undefined;
  private readonly early: object[] = [];
  private socket: WebSocketTransport | undefined;
  private reader: OutboxReader | undefined;
  /** Frames the client sent that arrived, over every socket. */
  private received = 0;
  /** The id key of the client's initialize request, whose answer advertises resume. */
  private initializeKey: string | undefined;
  private grace: ReturnType<typeof setTimeout> | undefined;
  private advertisedOnce = false;
  private isClosed = false;
  private resolveClosed!: (info: CloseInfo) => void;
  /** Characters waiting for the client; above maxBufferedChars the agent's sends wait, or, with no socket, the connection ends. */
  private buffered = 0;
  private drained: { promise: Promise<void>; resolve(): void } | undefined;

  constructor(
    readonly id: string,
    private readonly retention: Retention,
    private readonly graceMs: number,
    private readonly maxBufferedChars: number,
  ) {
    this.outbox = new Outbox((delta) => this.count(delta), retention);
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  start(receiver: TransportReceiver): void {
    if (this.receiver !== undefined) throw new AcpError("InvalidArgument", "the transport was already started");
    this.receiver = receiver;
    for (const message of this.early.splice(0)) receiver.onMessage(message);
  }

  /**
   * Carry the connection on `socket` from now on. `lastEventId` (a returning client's) replays what
   * came after it; undefined starts a new connection.
   */
  attach(socket: WebSocketTransport, lastEventId: number | undefined): void {
    if (this.isClosed) {
      void socket.closeWithCode(1008, "the connection ended");
      return;
    }
    clearTimeout(this.grace);
    const previous = this.socket;
    this.detach();
    if (previous !== undefined) void previous.closeWithCode(1008, "another socket resumed this connection");
    const reader = this.outbox.acquire(lastEventId);
    if (reader === undefined) return void socket.closeWithCode(1011, "the connection cannot be resumed");
    this.socket = socket;
    this.reader = reader;
    socket.start({
      onMessage: (message) => {
        this.received++;
        this.fromClient(message);
      },
      onTransportError: (error) => this.receiver?.onTransportError(error),
    });
    void socket.closed.then((info) => this.socketClosed(socket, info));
    if (lastEventId !== undefined) {
      const notices: object[] = [{ jsonrpc: "2.0", method: RESUMED_METHOD, params: { received: this.received } }];
      if (reader.gap !== undefined) notices.push({ jsonrpc: "2.0", method: GAP_METHOD, params: { ...reader.gap } });
      for (const notice of notices) void socket.send(notice as never).catch(() => {});
    }
    void this.pump(socket, reader);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.isClosed) return Promise.reject(new AcpError("ConnectionClosed", "the connection is closed"));
    for (const one of Array.isArray(message) ? message : [message]) this.outbox.push(encodeMessage(this.advertised(one as never)));
    if (this.buffered <= this.maxBufferedChars) return SEND_ACCEPTED;
    // Bounded while the client is away, as RT15 bounds a slow reader.
    if (this.socket === undefined) {
      this.finish({ reason: `the client was away while more than ${this.maxBufferedChars} characters waited for it` });
      return SEND_ACCEPTED;
    }
    this.drained ??= createDeferred();
    return this.drained.promise;
  }

  private count(delta: number): void {
    this.buffered += delta;
    if (this.drained !== undefined && this.buffered <= this.maxBufferedChars / 2) {
      const drained = this.drained;
      this.drained = undefined;
      drained.resolve();
    }
  }

  async close(reason = "closed by the server"): Promise<void> {
    await this.closeWithCode(1000, reason);
  }

  /** End the connection: its socket (if any) gets `code`, the agent hears the close. */
  async closeWithCode(code: number, reason: string): Promise<void> {
    const socket = this.socket;
    this.finish({ reason, closeCode: code });
    if (socket !== undefined) await socket.closeWithCode(code, reason);
  }

  private fromClient(message: unknown): void {
    // Frames come as text; only the client's first initialize is looked into (its answer advertises resume).
    if (this.initializeKey === undefined && !this.advertisedOnce) {
      const value = typeof message !== "string" || message.includes('"initialize"') ? frameObject(message) : undefined;
      if (value?.method === "initialize") this.initializeKey = idKey(value.id);
    }
    if (this.receiver === undefined) this.early.push(message as object);
    else this.receiver.onMessage(message as object);
  }

  /** The answer to the client's initialize says that this connection resumes, with its id (RT40). */
  private advertised(message: Record<string, unknown>): Record<string, unknown> {
    if (this.initializeKey === undefined || "method" in message || idKey(message.id) !== this.initializeKey) return message;
    this.initializeKey = undefined;
    this.advertisedOnce = true;
    const result = message.result;
    if (typeof result !== "object" || result === null || Array.isArray(result)) return message;
    const meta = (result as { _meta?: unknown })._meta;
    const kept = typeof meta === "object" && meta !== null && !Array.isArray(meta) ? meta : {};
    return { ...message, result: { ...result, _meta: { ...kept, [RESUME_META_KEY]: { ...this.retention, connectionId: this.id } } } };
  }

  /** Hand what the outbox holds to the socket, frame by frame, until the socket or the connection goes. */
  private async pump(socket: WebSocketTransport, reader: OutboxReader): Promise<void> {
    for (;;) {
      const batch = await reader.nextBatch(64 * 1024);
      if (batch === undefined || this.socket !== socket) return;
      try {
        // One frame per message, sent as the text the outbox holds; the last send's promise carries
        // the socket's backpressure.
        let sent: Promise<void> = SEND_ACCEPTED;
        for (const text of batch.texts) sent = socket.sendText(text);
        await sent;
      } catch {
        return; // the socket went; what it did not take stays kept for the next one
      }
    }
  }

  private socketClosed(socket: WebSocketTransport, info: CloseInfo): void {
    if (this.socket !== socket || this.isClosed) return;
    this.detach();
    if (info.closeCode !== undefined && FINAL_CLOSE_CODES.has(info.closeCode)) return this.finish(info);
    // Dropped, not closed: the client may come back within the grace (RT40).
    this.grace = setTimeout(() => this.finish({ reason: `the client did not resume within ${this.graceMs} ms after: ${info.reason}` }), this.graceMs);
    this.grace.unref?.();
  }

  private detach(): void {
    this.reader?.release();
    this.reader = undefined;
    this.socket = undefined;
  }

  private finish(info: CloseInfo): void {
    if (this.isClosed) return;
    this.isClosed = true;
    clearTimeout(this.grace);
    this.detach();
    this.outbox.discard();
    this.drained?.resolve();
    this.resolveClosed(info);
  }
}
