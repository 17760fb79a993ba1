// Diagnostics the v1 bridge raises reach the client's onDiagnostic (docs/compatibility.md promises
// `v1_tool_call_missing`, V4): a raw v1 agent that updates a tool call it never introduced.
import { Connection } from "@acpkit/core";
import type { ClientDiagnostic as Diagnostic } from "../src/index.js";
import { createMemoryPair } from "@acpkit/transport-memory";
import { describe, expect, it } from "vitest";
import { connectAgent } from "../src/index.js";

describe("v1 bridge diagnostics on the client", () => {
  it("a tool_call_update before its tool_call is applied with defaults and reported as v1_tool_call_missing (V4)", async () => {
    const [agentEnd, clientEnd] = createMemoryPair();
    const agent = new Connection(agentEnd, { side: "agent", version: 1 });
    agent.onRequest("initialize", () => ({ protocolVersion: 1 }));
    agent.onRequest("session/new", () => ({ sessionId: "s1" }));
    agent.onRequest("session/prompt", async (params) => {
      await agent.notify("session/update", {
        sessionId: params.sessionId,
        update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" },
      });
      return { stopReason: "end_turn" };
    });
    const diagnostics: Diagnostic[] = [];
    const client = await connectAgent(clientEnd, { protocolVersion: 1, onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) });
    const session = await client.newSession({ cwd: "/p" });
    expect((await session.prompt("go")).stopReason).toBe("end_turn");
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toContain("v1_tool_call_missing");
    expect(diagnostics.find((diagnostic) => diagnostic.code === "v1_tool_call_missing")).toMatchObject({ sessionId: "s1" });
    expect(session.state.toJSON().toolCalls).toEqual([expect.objectContaining({ toolCallId: "t1", status: "completed" })]);
    await client.close();
  });
});
