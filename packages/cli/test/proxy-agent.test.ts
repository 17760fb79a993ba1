// proxyAgent as a library, in one process: a later-v2 client in front of acpkit's built-in agent
// served v1 only, each side over a memory pair (docs/protocol.md A15).
import { serveAgent } from "@acpkit/agent";
import { connectAgent } from "@acpkit/client";
import { createBuiltinAgent } from "@acpkit/conformance/test-agent";
import { createMemoryPair } from "@acpkit/transport-memory";
import { describe, expect, it } from "vitest";
import { type ProxyDiagnostic, proxyAgent } from "../src/index.js";

describe("proxyAgent", () => {
  it("A15: serves a v1-only agent to a later-v2 client; the turn, its updates and its stop reason pass", async () => {
    const [agentEnd, agentSide] = createMemoryPair();
    serveAgent(agentSide, createBuiltinAgent({ maxProtocol: 1 }));
    const [editorEnd, editorSide] = createMemoryPair();
    const diagnostics: ProxyDiagnostic[] = [];
    const proxy = await proxyAgent(editorSide, agentEnd, { onDiagnostic: (d) => diagnostics.push(d) });
    expect(proxy.agent.dialect).toBe("v1");

    const editor = await connectAgent(editorEnd, {
      protocolVersion: 2,
      v2Dialect: "later",
      requestPermission: (r) => ({ outcome: "selected", optionId: r.options[0]!.optionId }),
    });
    expect(editor.dialect).toBe("v2-later");
    expect(editor.agentInfo?.name).toBe(proxy.agent.agentInfo?.name);
    const session = await editor.newSession({ cwd: "/work" });
    await expect(session.prompt("hello proxy")).resolves.toMatchObject({ stopReason: "end_turn" });
    expect(session.state.messages.some((m) => m.kind === "agent_message")).toBe(true);
    await editor.close();
    await proxy.close();
    await expect(proxy.agent.closed).resolves.toBeDefined();
  });

  it("rejects with the agent's refusal when the agent cannot be reached in any version", async () => {
    const [agentEnd, agentSide] = createMemoryPair();
    agentSide.start({
      onMessage(text) {
        const message = JSON.parse(String(text)) as { id?: number };
        if (message.id !== undefined) void agentSide.send({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: "not today" } });
      },
      onTransportError() {},
    });
    const [, editorSide] = createMemoryPair();
    await expect(proxyAgent(editorSide, agentEnd, { agentProtocol: 1 })).rejects.toThrow("not today");
  });
});
