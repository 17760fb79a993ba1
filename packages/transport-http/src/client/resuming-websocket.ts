// The WebSocket profile's client side of resume (docs/remote.md RT40): a Transport over a chain of
// sockets to one connection. When the endpoint's initialize answer advertises resume (with the
// connection's id), frames are counted both ways and the client's last frames are kept (within
// the advertised window); a socket that drops without a normal close is replaced by a new upgrade
// naming the connection and the last frame received. The endpoint's first frame on it says how
// many client frames arrived, and the rest are sent again, in order. Without the advertisement this
// is a plain pass-through.
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver } from "@acpkit/core";
import { frameObject, GAP_METHOD, idKey, RESUME_META_KEY, RESUME_QUERY, RESUMED_METHOD } from "../protocol.js";

/** How many times in a row a dropped socket is replaced before the transport gives up, and the first wait (doubling). */
const ATTEMPTS = 5;
const FIRST_WAIT_MS = 100;
/** What the endpoint's notices (RESUMED_METHOD, GAP_METHOD) share, and a bound on their length. */
const NOTICE_PREFIX = '"_acpkit.dev/';
const NOTICE_MAX_CHARS = 256;
/** Close codes after which the connection is over: a normal close, the server going away. */
const FINAL_CLOSE_CODES = new Set([1000, 1001]);

interface Advertised {
  connectionId: string;
  maxEvents: number;
  maxChars: number;
}

export class ResumingWebSocket implements Transport {
  readonly closed: Promise<CloseInfo>;
  private resolveClosed!: (info: CloseInfo) => void;
  private receiver: TransportReceiver | undefined;
  private inner: Transport | undefined;
  private advertised: Advertised | undefined;
  private paused = false;
  /** Whether the initialize answer came (before it, frames are kept in case it advertises resume). */
  private initialized = false;
  private initializeKey: string | undefined;
  /** Agent frames received over every socket. */
  private received = 0;
  private sentCount = 0;
  /** The client's last frames, numbered, oldest first, within the advertised window. */
  private readonly kept: Array<{ n: number; message: JsonRpcMessage | JsonRpcMessage[]; chars: number }> = [];
  private keptChars = 0;
  private replacing = false;
  private isClosed = false;

  constructor(
    private readonly url: string,
    private readonly open: (url: string) => Promise<Transport>,
    first: Transport,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.inner = first;
  }

  start(receiver: TransportReceiver): void {
    if (this.receiver !== undefined) throw new AcpError("InvalidArgument", "the transport was already started");
    this.receiver = receiver;
    this.attach(this.inner as Transport);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.isClosed) return Promise.reject(new AcpError("ConnectionClosed", "the WebSocket transport is closed"));
    this.keep(message);
    const value = message as unknown as Record<string, unknown>;
    if (!Array.isArray(message) && value.method === "initialize" && this.initializeKey === undefined) this.initializeKey = idKey(value.id);
    // While a socket is being replaced, the frame waits in `kept`: the new socket's resend carries it.
    if (this.replacing || this.inner === undefined) return Promise.resolve();
    return this.inner.send(message);
  }

  async close(reason = "closed by the client"): Promise<void> {
    if (this.isClosed) return;
    const inner = this.inner;
    this.finish({ reason });
    await inner?.close(reason);
  }

  /** Stop reading (flow control); carried over to every later socket. */
  pause(): void {
    this.paused = true;
    this.inner?.pause?.();
  }

  resume(): void {
    this.paused = false;
    this.inner?.resume?.();
  }

  private attach(inner: Transport): void {
    this.inner = inner;
    const receiver = this.receiver as TransportReceiver;
    inner.start({
      onMessage: (message) => this.onFrame(message),
      onTransportError: (error) => receiver.onTransportError(error),
      ...(receiver.onOutputCongestion === undefined ? {} : { onOutputCongestion: (congested: boolean) => receiver.onOutputCongestion?.(congested) }),
    });
    if (this.paused) inner.pause?.();
    void inner.closed.then((info) => this.innerClosed(inner, info));
  }

  private onFrame(message: unknown): void {
    // Frames come as text, and this runs for every one: only the initialize answer and, once resume
    // is on, the endpoint's notices (short frames that name an acpkit.dev method) are parsed.
    const value = this.mayMatter(message) ? frameObject(message) : undefined;
    if (value?.method === RESUMED_METHOD && this.advertised !== undefined) return this.resendAfter(Number((value.params as { received?: unknown })?.received));
    if (value?.method === GAP_METHOD && this.advertised !== undefined) {
      const gap = value.params as { from?: unknown; to?: unknown };
      this.receiver?.onTransportError(
        new AcpError(
          "UpdatesDropped",
          `the endpoint no longer holds frames ${String(gap?.from)}–${String(gap?.to)}: they were sent while this client was away and are lost`,
          {
            data: gap,
          },
        ),
      );
      return;
    }
    this.received++;
    if (value !== undefined && !this.initialized && !("method" in value) && idKey(value.id) === this.initializeKey) this.learn(value);
    this.receiver?.onMessage(message as object);
  }

  /** Whether a frame may be the initialize answer or one of the endpoint's notices. */
  private mayMatter(frame: unknown): boolean {
    if (typeof frame !== "string") return true;
    if (!this.initialized) return this.initializeKey !== undefined;
    return this.advertised !== undefined && frame.length <= NOTICE_MAX_CHARS && frame.includes(NOTICE_PREFIX);
  }

  /** The initialize answer: resume is on when it names this connection in its `_meta`. */
  private learn(answer: Record<string, unknown>): void {
    this.initialized = true;
    const advertised = (answer.result as { _meta?: Record<string, unknown> } | undefined)?._meta?.[RESUME_META_KEY] as Partial<Advertised> | undefined;
    if (typeof advertised?.connectionId === "string" && typeof advertised.maxEvents === "number" && typeof advertised.maxChars === "number")
      this.advertised = { connectionId: advertised.connectionId, maxEvents: advertised.maxEvents, maxChars: advertised.maxChars };
    else {
      this.kept.length = 0;
      this.keptChars = 0;
    }
  }

  private keep(message: JsonRpcMessage | JsonRpcMessage[]): void {
    this.sentCount++;
    if (this.initialized && this.advertised === undefined) return;
    const chars = JSON.stringify(message).length;
    this.kept.push({ n: this.sentCount, message, chars });
    this.keptChars += chars;
    const window = this.advertised ?? { maxEvents: Number.POSITIVE_INFINITY, maxChars: Number.POSITIVE_INFINITY };
    while (this.kept.length > 1 && (this.kept.length > window.maxEvents || this.keptChars > window.maxChars)) this.keptChars -= this.kept.shift()!.chars;
  }

  /** The endpoint got `received` of the client's frames: send the rest again, in order. */
  private resendAfter(received: number): void {
    const oldest = this.kept[0]?.n ?? this.sentCount + 1;
    if (!Number.isInteger(received) || received + 1 < oldest) {
      void this.close(`the endpoint got ${received} of this client's frames, and frames ${received + 1}–${oldest - 1} are no longer kept`);
      return;
    }
    for (const frame of this.kept) if (frame.n > received) void this.inner?.send(frame.message).catch(() => {});
  }

  private innerClosed(inner: Transport, info: CloseInfo): void {
    if (inner !== this.inner || this.isClosed) return;
    if (this.advertised === undefined || (info.closeCode !== undefined && FINAL_CLOSE_CODES.has(info.closeCode))) return this.finish(info);
    void this.replace(info);
  }

  /** A new socket to the same connection, from the last frame received (RT40). */
  private async replace(lost: CloseInfo): Promise<void> {
    this.replacing = true;
    this.inner = undefined;
    const resume = this.advertised as Advertised;
    let problem = lost.reason;
    for (let attempt = 0; attempt < ATTEMPTS && !this.isClosed; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, FIRST_WAIT_MS * 2 ** (attempt - 1)));
      const url = new URL(this.url);
      url.searchParams.set(RESUME_QUERY.connection, resume.connectionId);
      url.searchParams.set(RESUME_QUERY.lastEventId, String(this.received));
      try {
        const next = await this.open(url.toString());
        if (this.isClosed) return void next.close("the transport closed meanwhile");
        this.replacing = false;
        this.attach(next);
        return;
      } catch (error) {
        problem = (error as Error).message;
        // The endpoint no longer has the connection: nothing to come back to.
        if (/\b404\b/.test(problem)) break;
      }
    }
    this.finish({ reason: `the WebSocket to the endpoint dropped (${lost.reason}) and could not be resumed: ${problem}` });
  }

  private finish(info: CloseInfo): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.replacing = false;
    this.resolveClosed(info);
  }
}
