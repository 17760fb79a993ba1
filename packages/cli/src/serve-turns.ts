// What `acpkit serve` knows about the turns running behind it, so that a shutdown can end them the
// way the protocol ends a turn instead of cutting them off: each client connection's transport is
// wrapped to see the prompts the client sent and the answers the agent gave. On shutdown every
// running turn is cancelled with `session/cancel` (as if its client had sent it; the method has the
// same name in every protocol version), and the server waits, bounded, until each has its answer.
import type { JsonRpcMessage, Transport } from "@acpkit/core";
import { __transportKit } from "@acpkit/core";

const { wrapTransport, forwardingReceiver } = __transportKit;

/** The JSON-RPC id as a map key that tells 1 from "1". */
const keyOf = (id: unknown): string | undefined => (typeof id === "string" ? `s${id}` : typeof id === "number" ? `n${id}` : undefined);

interface Tracked {
  /** Running prompts: id key → session id. */
  readonly prompts: Map<string, string>;
  /** Hand a message to the agent as if the client had sent it. */
  inject?: (message: object) => void;
}

export class TurnTracker {
  private readonly connections = new Set<Tracked>();
  private settled: (() => void) | undefined;

  /** The transport to relay instead of `transport`: the same, watched. */
  watch(transport: Transport): Transport {
    const tracked: Tracked = { prompts: new Map() };
    this.connections.add(tracked);
    void transport.closed.then(() => {
      this.connections.delete(tracked);
      this.check();
    });
    return wrapTransport(transport, {
      receiver: (outer) => {
        tracked.inject = (message) => outer.onMessage(message);
        return forwardingReceiver(outer, {
          onMessage: (message) => {
            // Text is parsed only when it may be a prompt: the relay passes every message through here.
            const value = typeof message !== "string" ? message : message.includes('"session/prompt"') ? safeParse(message) : undefined;
            if (isRecord(value) && value.method === "session/prompt") {
              const key = keyOf(value.id);
              const sessionId = isRecord(value.params) ? value.params.sessionId : undefined;
              if (key !== undefined && typeof sessionId === "string") tracked.prompts.set(key, sessionId);
            }
            outer.onMessage(message);
          },
        });
      },
      send: (message: JsonRpcMessage | JsonRpcMessage[], inner) => {
        // Every message the agent writes passes here: look only while a prompt waits for its answer.
        if (tracked.prompts.size === 0) return inner.send(message);
        for (const one of Array.isArray(message) ? message : [message]) {
          const value = one as unknown as Record<string, unknown>;
          if (!("method" in value)) {
            const key = keyOf(value.id);
            if (key !== undefined && tracked.prompts.delete(key)) this.check();
          }
        }
        return inner.send(message);
      },
    });
  }

  /** Turns still running, over all connections. */
  get running(): number {
    let count = 0;
    for (const tracked of this.connections) count += tracked.prompts.size;
    return count;
  }

  /** Cancel every running turn; resolves once each has been answered (or its connection closed), or after `graceMs`. */
  async cancelAll(graceMs: number): Promise<void> {
    for (const tracked of this.connections) {
      for (const sessionId of new Set(tracked.prompts.values())) tracked.inject?.({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId } });
    }
    if (this.running === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([new Promise<void>((resolve) => (this.settled = resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }

  private check(): void {
    if (this.settled !== undefined && this.running === 0) {
      const settled = this.settled;
      this.settled = undefined;
      settled();
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
