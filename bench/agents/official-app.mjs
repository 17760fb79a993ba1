// The benchmark agent written against the official SDK (@agentclientprotocol/sdk 2.4.0, default
// v1 entry point), as its README shows: an `agent()` app with one handler per method. Used
// in-process (stream-memory) and by official-agent.mjs (stdio, WebSocket).
import * as acp from "@agentclientprotocol/sdk";
import { chunkUpdate, parseStreamCount, sessionIds } from "../lib/fixtures.mjs";

export function buildOfficialAgent() {
  const nextSessionId = sessionIds();
  return acp
    .agent({ name: "bench-official-agent" })
    .onRequest("initialize", () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }))
    .onRequest("session/new", () => ({ sessionId: nextSessionId() }))
    .onRequest("session/prompt", async ({ params, client }) => {
      const first = params.prompt[0];
      const count = parseStreamCount(first && first.type === "text" ? first.text : "");
      for (let i = 0; i < count; i++) {
        await client.notify("session/update", { sessionId: params.sessionId, update: chunkUpdate(i) });
      }
      return { stopReason: "end_turn" };
    });
}
