// The raw ceiling's agent logic: the same messages as the library agents with nothing but plain
// objects and JSON.stringify (done by `send`). No validation, no dispatch table, no library.
import { chunkUpdate, parseStreamCount, sessionIds } from "../lib/fixtures.mjs";

// One agent (one connection) per process, or per worker process for the in-process channel.
const nextSessionId = sessionIds();

/**
 * Answers one parsed JSON-RPC request. `send(message)` writes one message and returns false when
 * the channel wants the writer to wait for `drained()`.
 */
export async function handleRawMessage(message, send, drained) {
  switch (message.method) {
    case "initialize":
      send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
      return;
    case "session/new":
      send({ jsonrpc: "2.0", id: message.id, result: { sessionId: nextSessionId() } });
      return;
    case "session/prompt": {
      const first = message.params.prompt[0];
      const count = parseStreamCount(first?.type === "text" ? first.text : "");
      for (let i = 0; i < count; i++) {
        const ok = send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: message.params.sessionId, update: chunkUpdate(i) } });
        if (!ok) await drained();
      }
      send({ jsonrpc: "2.0", id: message.id, result: { stopReason: "end_turn" } });
      return;
    }
    default:
      if (message.id !== undefined) send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
  }
}
