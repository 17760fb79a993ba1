// An agent that answers session/new with an id already open on the connection. Before, the client
// took it: the open session's map entry was replaced, so its updates went to the new session
// object and its own turn never saw them.
import { createMemoryPair } from "@acpkit/transport-memory";
import { connectAgent } from "@acpkit/client";
import { describe, expect, it } from "vitest";
import { textOf } from "./harness.js";

describe("session/new answered with a session id already open", () => {
  it("rejects the second newSession with ProtocolViolation and keeps the first session whole", async () => {
    const [clientSide, agentSide] = createMemoryPair();
    const send = (message: object) => void agentSide.send(message as never);
    agentSide.start({
      onMessage(text) {
        const message = JSON.parse(text as string);
        if (message.method === "initialize") send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
        else if (message.method === "session/new") send({ jsonrpc: "2.0", id: message.id, result: { sessionId: "same" } });
        else if (message.method === "session/prompt") {
          const update = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "for the first" } };
          send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "same", update } });
          send({ jsonrpc: "2.0", id: message.id, result: { stopReason: "end_turn" } });
        }
      },
      onTransportError() {},
    });
    const agent = await connectAgent(clientSide, { protocolVersion: 1 });
    try {
      const first = await agent.newSession({ cwd: "/p" });
      await expect(agent.newSession({ cwd: "/q" })).rejects.toMatchObject({
        code: "ProtocolViolation",
        message: 'The agent answered session/new with session id "same", which is already open on this connection',
      });
      expect(await first.prompt("hi")).toEqual({ stopReason: "end_turn" });
      const reply = first.state.messages.find((message) => message.kind === "agent_message");
      expect(textOf(reply)).toBe("for the first");
    } finally {
      await agent.close();
    }
  });
});
