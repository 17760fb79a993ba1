// The relay behind `acpkit bridge` and `acpkit inspect` (a relay, not the v1 ⇄ v2 bridge of
// @acpkit/core/bridge): one relayed connection has a client transport (a WebSocket) on one side
// and a freshly started stdio agent on the other. Each message is parsed once (both transports take message values) and passed on in the
// order it arrived; the relay neither validates nor changes it, so the two peers negotiate the
// protocol version between themselves. Whichever side goes away first takes the other one along.
import type { CloseInfo, JsonRpcMessage, Transport } from "@acpkit/core";
import { spawnAgent } from "./spawn-agent.js";

/** The client side of a relay: any transport; one that can close with a code (a WebSocket) says why. */
export interface RelayPeer extends Transport {
  /** Close with a WebSocket close code and reason (1000 when the agent exited cleanly, 1011 when not). */
  closeWithCode?(code: number, reason: string): Promise<void>;
}

/** The JSON-RPC answer to a line that is not JSON (docs/protocol.md §8.1 S8). */
const PARSE_ERROR = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32700, message: "Parse error: the bridge received a message that is not valid JSON" },
} as const;

const ignore = (): void => {};

/**
 * Relay between `socket` and a new child `command args`; resolves once both are closed.
 * `log` receives one line per noteworthy event (start failure, framing problems, who closed).
 * When the agent ends first, a WebSocket peer is closed with 1000 (clean exit) or 1011.
 */
export async function relayConnection(socket: RelayPeer, command: string, args: readonly string[], log: (message: string) => void): Promise<void> {
  return relayBetween(socket, spawnAgent(command, args, { stderr: "inherit" }), log);
}

/**
 * Relay between `socket` and an agent already reached over `agent` (a child, or a remote endpoint
 * `acpkit inspect --url` connected to); resolves once both are closed. Whichever side goes away
 * first takes the other one along, as relayConnection does.
 */
export async function relayBetween(socket: RelayPeer, agent: Transport, log: (message: string) => void): Promise<void> {
  forward(socket, agent, "client", log);
  forward(agent, socket, "agent", log);
  const first = await Promise.race([
    socket.closed.then((info) => ({ side: "client" as const, info })),
    agent.closed.then((info) => ({ side: "agent" as const, info })),
  ]);
  log(`${first.side === "client" ? "client disconnected" : "agent ended"}: ${first.info.reason}`);
  if (first.side === "client") await agent.close("the client disconnected");
  else if (socket.closeWithCode !== undefined) await socket.closeWithCode(agentEndCode(first.info), `agent ended: ${first.info.reason}`);
  else await socket.close(`agent ended: ${first.info.reason}`);
}

/**
 * How many messages may wait to be written to one side before the relay stops reading from the
 * other (and how few before it reads again). Without this a WebSocket client that stops reading
 * would make the relay hold everything the agent writes.
 */
export const RELAY_HIGH_WATER = 1024;
/** How few pending sends let the relay read from the other side again (see RELAY_HIGH_WATER). */
export const RELAY_LOW_WATER = 256;
/**
 * How many characters of message text may wait to be written to one side before the relay stops
 * reading from the other: 16 Mi. The message count alone let a few large messages pile up (1,023
 * messages of 60 MiB stay under RELAY_HIGH_WATER). Counted from the text as received.
 */
export const RELAY_HIGH_WATER_CHARS = 16 * 1024 * 1024;
/** How few pending characters let the relay read again (see RELAY_HIGH_WATER_CHARS): 8 Mi. */
export const RELAY_LOW_WATER_CHARS = 8 * 1024 * 1024;

/**
 * Pass every message `from` receives on to `to`, in arrival order. While more than
 * RELAY_HIGH_WATER sends, or RELAY_HIGH_WATER_CHARS characters of them, are pending to `to`,
 * `from` is paused, so a slow reader on one side slows the writer on the other side instead of
 * filling this process's memory.
 */
export function forward(from: Transport, to: Transport, fromName: "client" | "agent", log: (message: string) => void): void {
  let pending = 0;
  let pendingChars = 0;
  let paused = false;
  const sent = (chars: number): void => {
    pending--;
    pendingChars -= chars;
    if (paused && pending <= RELAY_LOW_WATER && pendingChars <= RELAY_LOW_WATER_CHARS) {
      paused = false;
      from.resume?.();
    }
  };
  const send = (value: JsonRpcMessage, chars: number): void => {
    pending++;
    pendingChars += chars;
    const settle = (): void => sent(chars);
    // A rejected send means `to` is closing; its `closed` ends the relay.
    to.send(value).then(settle, settle);
    if (!paused && (pending >= RELAY_HIGH_WATER || pendingChars >= RELAY_HIGH_WATER_CHARS) && from.pause !== undefined) {
      paused = true;
      from.pause();
    }
  };
  from.start({
    onMessage(message) {
      if (typeof message !== "string") return send(message as JsonRpcMessage, 0);
      let value: unknown;
      try {
        value = JSON.parse(message);
      } catch {
        log(`the ${fromName} sent a message that is not JSON; answered -32700`);
        from.send(PARSE_ERROR as unknown as JsonRpcMessage).catch(ignore);
        return;
      }
      send(value as JsonRpcMessage, message.length);
    },
    onTransportError(error) {
      log(`${fromName} side: ${error.message}`);
    },
  });
}

/** 1000 when the agent exited cleanly, 1011 (internal error) when it failed or could not start. */
function agentEndCode(info: CloseInfo): number {
  return info.exitCode === 0 ? 1000 : 1011;
}
