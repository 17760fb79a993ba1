// The stdio ⇄ WebSocket relay behind `acpkit bridge` (a relay, not the v1 ⇄ v2 bridge of
// @acpkit/core/bridge): one relayed connection has a WebSocket client on one side and a freshly started stdio agent on the
// other. Each message is parsed once (both transports take message values) and passed on in the
// order it arrived; the relay neither validates nor changes it, so the two peers negotiate the
// protocol version between themselves. Whichever side goes away first takes the other one along.
import type { CloseInfo, JsonRpcMessage, Transport } from "@acpkit/core";
import { spawnAgent } from "@acpkit/transport-stdio";
import type { WebSocketTransport } from "@acpkit/transport-websocket";

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
 */
export async function relayConnection(socket: WebSocketTransport, command: string, args: readonly string[], log: (message: string) => void): Promise<void> {
  const agent = spawnAgent(command, args, { stderr: "inherit" });
  forward(socket, agent, "client", log);
  forward(agent, socket, "agent", log);
  const first = await Promise.race([
    socket.closed.then((info) => ({ side: "client" as const, info })),
    agent.closed.then((info) => ({ side: "agent" as const, info })),
  ]);
  log(`${first.side === "client" ? "client disconnected" : "agent ended"}: ${first.info.reason}`);
  if (first.side === "client") await agent.close("the WebSocket client disconnected");
  else await socket.closeWithCode(agentEndCode(first.info), `agent ended: ${first.info.reason}`);
}

/** Pass every message `from` receives on to `to`, in arrival order. */
function forward(from: Transport, to: Transport, fromName: "client" | "agent", log: (message: string) => void): void {
  from.start({
    onMessage(message) {
      let value: unknown;
      if (typeof message === "string") {
        try {
          value = JSON.parse(message);
        } catch {
          log(`the ${fromName} sent a message that is not JSON; answered -32700`);
          from.send(PARSE_ERROR as unknown as JsonRpcMessage).catch(ignore);
          return;
        }
      } else value = message;
      // A rejected send means `to` is closing; its `closed` ends the relay.
      to.send(value as JsonRpcMessage).catch(ignore);
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
