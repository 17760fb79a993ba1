// Memory stays bounded on input a peer controls: a flood of updates the model ignores keeps only
// the newest MAX_STATE_DIAGNOSTICS diagnostics and counts the rest.
import type { v2 } from "@acpkit/schema";
import { describe, expect, it } from "vitest";
import { MAX_STATE_DIAGNOSTICS, applyUpdate, createSessionState } from "../src/index.js";

describe("SessionState diagnostics are bounded", () => {
  it("keeps the newest MAX_STATE_DIAGNOSTICS ignored updates, oldest first, and counts the dropped ones", () => {
    expect(MAX_STATE_DIAGNOSTICS).toBe(100);
    let state = createSessionState("s1", 2);
    const flood = 10_000;
    for (let i = 0; i < flood; i++) state = applyUpdate(state, { sessionUpdate: "_acme/progress", n: i } as unknown as v2.SessionUpdate);
    expect(state.diagnostics).toHaveLength(MAX_STATE_DIAGNOSTICS);
    expect(state.diagnosticsDropped).toBe(flood - MAX_STATE_DIAGNOSTICS);
    expect((state.diagnostics[0]!.update as { n: number }).n).toBe(flood - MAX_STATE_DIAGNOSTICS);
    expect((state.diagnostics.at(-1)!.update as { n: number }).n).toBe(flood - 1);
    expect(state.diagnostics.every((diagnostic) => diagnostic.code === "unknown_update")).toBe(true);
  });

  it("below the cap nothing is dropped", () => {
    let state = createSessionState("s1", 2);
    for (let i = 0; i < 3; i++) state = applyUpdate(state, { sessionUpdate: "_acme/progress", n: i } as unknown as v2.SessionUpdate);
    expect(state.diagnostics.map((diagnostic) => (diagnostic.update as { n: number }).n)).toEqual([0, 1, 2]);
    expect(state.diagnosticsDropped).toBe(0);
  });
});

describe("updates for a session that does not exist yet are bounded", () => {
  it("keeps at most MAX_PARKED_UPDATES while session/new is pending and reports the rest", async () => {
    const { Connection } = await import("@acpkit/core");
    const { createMemoryPair } = await import("@acpkit/transport-memory");
    const { connectAgent, MAX_PARKED_UPDATES } = await import("../src/index.js");
    const [agentEnd, clientEnd] = createMemoryPair();
    const agent = new Connection(agentEnd, { side: "agent", version: 2 });
    agent.onRequest("initialize", () => ({ protocolVersion: 2, capabilities: { session: {} } }));
    const sent = MAX_PARKED_UPDATES + 500;
    agent.onRequest("session/new", async () => {
      for (let i = 0; i < sent; i++) {
        await agent.notify("session/update", {
          sessionId: "s1",
          update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "x" } },
        });
      }
      return { sessionId: "s1" };
    });
    const codes: string[] = [];
    const client = await connectAgent(clientEnd, { protocolVersion: 2, onDiagnostic: (diagnostic) => codes.push(diagnostic.code) });
    const session = await client.newSession({ cwd: "/p" });
    const message = session.state.toJSON().messages.find((m) => m.messageId === "m");
    expect(message?.content).toHaveLength(MAX_PARKED_UPDATES);
    expect(codes.filter((code) => code === "unknown_session")).toHaveLength(sent - MAX_PARKED_UPDATES);
    await client.close();
  });
});
