// In-test transports. `ScriptedTransport` lets a test play the peer by hand: deliver raw lines and
// read back exactly what the Connection sent. `linkedTransports` joins two Connections.
import { AcpError } from "../../src/errors.js";
import { encodeMessage, SEND_ACCEPTED } from "../../src/transport-helpers.js";
import type { CloseInfo, JsonRpcMessage, Transport, TransportReceiver } from "../../src/transport.js";
import { Connection, type ConnectionOptions } from "../../src/index.js";
import type { UntypedMethodTables } from "../../src/method-types.js";
import type { ProtocolVersion } from "../../src/registry.js";
import { stubRegistry } from "./stub-registry.js";

/** A transport whose far end is the test itself. Sent messages are round-tripped through JSON. */
export class ScriptedTransport implements Transport {
  private receiver: TransportReceiver | undefined;
  /** Everything the Connection sent, in order, as parsed JSON. */
  readonly sent: any[] = [];
  private readIndex = 0;
  private waiter: (() => void) | undefined;
  private isClosed = false;
  private resolveClosed!: (info: CloseInfo) => void;
  readonly closed = new Promise<CloseInfo>((resolve) => {
    this.resolveClosed = resolve;
  });

  start(receiver: TransportReceiver): void {
    if (this.receiver !== undefined) throw new Error("start called twice");
    this.receiver = receiver;
  }

  /** While set, send() returns this promise: the channel took the message but waits for a drain. */
  pendingSend: Promise<void> | undefined;
  /** Set by `congestAfter`: the send that makes `sent` this long reports congestion, as a full pipe would. */
  private congestAt: number | undefined;

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.isClosed) return Promise.reject(new AcpError("ConnectionClosed", "scripted transport is closed"));
    let text: string;
    try {
      text = encodeMessage(message); // as every transport does: a value JSON cannot carry rejects
    } catch (error) {
      return Promise.reject(error);
    }
    if (text.includes("\n")) throw new Error("a message must serialize to one line");
    this.sent.push(JSON.parse(text));
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
    if (this.sent.length === this.congestAt) {
      this.congestAt = undefined;
      this.setCongested(true);
    }
    // What acpkit's transports return for a message they took at once (the Connection's fast path).
    return this.pendingSend ?? SEND_ACCEPTED;
  }

  /** Tell the receiver its output passed the high-water mark (true) or drained (false). */
  setCongested(congested: boolean): void {
    this.receiver?.onOutputCongestion?.(congested);
  }

  /** Report congestion from inside the send that brings the number of sent messages to `count`. */
  congestAfter(count: number): void {
    this.congestAt = count;
  }

  close(reason?: string): Promise<void> {
    this.end({ reason: reason ?? "closed locally" });
    return Promise.resolve();
  }

  /** The far end goes away with `info` (child exit, close frame, …). */
  end(info: CloseInfo): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.resolveClosed(info);
  }

  /** Deliver one incoming frame: a string as-is, anything else JSON-encoded first. */
  deliver(message: unknown): void {
    if (this.receiver === undefined) throw new Error("transport not started");
    this.receiver.onMessage(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Every pause() and resume() the Connection called, in order. */
  readonly flow: ("pause" | "resume")[] = [];

  pause(): void {
    this.flow.push("pause");
  }

  resume(): void {
    this.flow.push("resume");
  }

  reportError(error: AcpError): void {
    this.receiver?.onTransportError(error);
  }

  /** The far end stops sending but keeps reading (stdin reached end of file). */
  endInput(): void {
    if (this.receiver?.onInputEnd === undefined) throw new Error("the receiver has no onInputEnd");
    this.receiver.onInputEnd();
  }

  /** Whether close() was called or the far end went away. */
  get isEnded(): boolean {
    return this.isClosed;
  }

  /** The next message the Connection sent (waits for it). */
  async next(): Promise<any> {
    while (this.readIndex >= this.sent.length) {
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
    return this.sent[this.readIndex++];
  }

  /** Messages sent and not yet read with `next`. */
  get unread(): any[] {
    return this.sent.slice(this.readIndex);
  }
}

/** A Connection over a ScriptedTransport, with the stub registry and dev validation on. */
export function scripted(options: Partial<ConnectionOptions> & Pick<ConnectionOptions, "side">) {
  const transport = new ScriptedTransport();
  // The stub registry is not ACP's schema, so these connections are untyped (any name, any params).
  const connection = new Connection<ConnectionOptions["side"], ProtocolVersion, UntypedMethodTables>(transport, {
    registry: stubRegistry,
    validateOutgoing: true,
    ...options,
  });
  const diagnostics: any[] = [];
  connection.onDiagnostic((d) => diagnostics.push(d));
  return { transport, connection, diagnostics };
}

/**
 * Two transports joined back to back. Each message is serialized and delivered to the other side
 * in a later microtask, like a real channel.
 */
export function linkedTransports(): [Transport, Transport] {
  let closeInfo: CloseInfo | undefined;
  const closers: ((info: CloseInfo) => void)[] = [];
  const closeBoth = (info: CloseInfo) => {
    if (closeInfo !== undefined) return;
    closeInfo = info;
    for (const close of closers) close(info);
  };
  const make = (): Transport & { receiver?: TransportReceiver; peer?: { receiver?: TransportReceiver } } => {
    const end: Transport & { receiver?: TransportReceiver; peer?: { receiver?: TransportReceiver } } = {
      start(receiver) {
        end.receiver = receiver;
      },
      send(message) {
        if (closeInfo !== undefined) return Promise.reject(new AcpError("ConnectionClosed", closeInfo.reason));
        const text = JSON.stringify(message);
        queueMicrotask(() => end.peer?.receiver?.onMessage(text));
        return Promise.resolve();
      },
      close(reason) {
        closeBoth({ reason: reason ?? "closed" });
        return Promise.resolve();
      },
      closed: new Promise<CloseInfo>((resolve) => closers.push(resolve)),
    };
    return end;
  };
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

/** An agent and a client Connection joined by linked transports (stub registry, given version). */
export function connectedPair(version: 1 | 2) {
  const [agentEnd, clientEnd] = linkedTransports();
  const agent = new Connection<"agent", ProtocolVersion, UntypedMethodTables>(agentEnd, {
    side: "agent",
    version,
    registry: stubRegistry,
    validateOutgoing: true,
  });
  const client = new Connection<"client", ProtocolVersion, UntypedMethodTables>(clientEnd, {
    side: "client",
    version,
    registry: stubRegistry,
    validateOutgoing: true,
  });
  return { agent, client };
}

/** A promise plus its resolve function, for holding a handler open. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Let every queued microtask and promise continuation run. */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
