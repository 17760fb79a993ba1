// A transport wrapper for tests: records every message that arrives (and every message sent), in
// wire order, so tests can assert ordering on the wire itself. Shared by the agent and CLI tests.
import type { CloseInfo, JsonRpcMessage, Transport, TransportReceiver } from "@acpkit/core";

/** A recorded JSON-RPC message, loosely typed for assertions. */
export type WireMessage = { id?: number | string | null; method?: string; params?: any; result?: any; error?: any };

/** Wraps a transport and records what arrives; `waitFor` resolves when a matching message arrived. */
export class RecordingTransport implements Transport {
  readonly received: WireMessage[] = [];
  readonly sent: WireMessage[] = [];
  private watchers: Array<{ match: (m: WireMessage) => boolean; resolve: (m: WireMessage) => void }> = [];
  constructor(private readonly inner: Transport) {}
  get closed(): Promise<CloseInfo> {
    return this.inner.closed;
  }
  start(receiver: TransportReceiver): void {
    this.inner.start({
      onMessage: (message) => {
        // A snapshot: a receiver may not mutate what was recorded.
        const value = (typeof message === "string" ? JSON.parse(message) : structuredClone(message)) as WireMessage;
        this.received.push(value);
        this.watchers = this.watchers.filter((w) => {
          if (!w.match(value)) return true;
          w.resolve(value);
          return false;
        });
        receiver.onMessage(message);
      },
      onTransportError: (error) => receiver.onTransportError(error),
    });
  }
  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    this.sent.push(message as WireMessage);
    return this.inner.send(message);
  }
  close(reason?: string): Promise<void> {
    return this.inner.close(reason);
  }
  /** The first message (already received or future) matching `match`. */
  waitFor(match: (m: WireMessage) => boolean): Promise<WireMessage> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.watchers.push({ match, resolve }));
  }
  /** The id of the latest request we sent for `method`. */
  lastRequestId(method: string): number {
    for (let i = this.sent.length - 1; i >= 0; i--) if (this.sent[i]!.method === method && this.sent[i]!.id != null) return this.sent[i]!.id as number;
    throw new Error(`no ${method} request was sent`);
  }
  /** The `update` of every session/update notification (of `sessionId`, when given), in wire order. */
  updates(sessionId?: string): any[] {
    return this.received
      .filter((m) => m.method === "session/update" && (sessionId === undefined || m.params.sessionId === sessionId))
      .map((m) => m.params.update);
  }
}
