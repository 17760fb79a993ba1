// An agent's tool calls started `background` (@acpkit/agent) as acpkit's client sees them in each
// dialect. They outlive their turn: the turn ends while they run, their handles
// keep writing, and the later v2 draft gets the snapshot of what runs (`background` on the turn's
// `idle`, then a state update when a call ends), every line valid against the official SDK's v2
// schema. The pinned v2 gets the snapshot as acpkit's state update; v1 gets the calls' updates
// after the turn and one lossy_session_update per session. A session/cancel does not stop them;
// their own cancel does.
import { serveAgent, type AgentDefinition, type ToolCallHandle } from "@acpkit/agent";
import { isAcpError, type Transport } from "@acpkit/core";
import { forwardingReceiver, wrapTransport } from "@acpkit/core/transport-kit";
import { createMemoryPair } from "@acpkit/transport-memory";
import { LaterV2Oracle } from "@acpkit/test-support/later-v2-oracle";
import { describe, expect, it } from "vitest";
import { connectAgent } from "../src/index.js";

/** An agent whose prompt "bg N" starts N background tool calls and ends the turn at once. */
function backgroundAgent() {
  const started: ToolCallHandle[] = [];
  const diagnostics: string[] = [];
  const definition: AgentDefinition = {
    async prompt(turn) {
      const text = turn.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
      const count = Number(text.split(" ")[1] ?? 1);
      for (let i = 0; i < count; i++)
        started.push(turn.toolCall({ title: `Index ${i}`, kind: "execute", status: "in_progress", background: true, cancellable: true }));
      turn.message("started");
      return "end_turn";
    },
  };
  return { definition, started, diagnostics };
}

/** The client's end of a memory pair to the agent, every message both ways checked by `oracle` when given. */
function connectTo(definition: AgentDefinition, diagnostics: string[], oracle?: LaterV2Oracle): { transport: Transport; updates: Record<string, unknown>[] } {
  const [clientSide, agentSide] = createMemoryPair();
  serveAgent(agentSide, definition, { onDiagnostic: (diagnostic) => diagnostics.push(diagnostic.code) });
  const updates: Record<string, unknown>[] = [];
  const transport = wrapTransport(clientSide, {
    send(message, inner) {
      oracle?.check(JSON.parse(JSON.stringify(message)), "client_to_agent");
      return inner.send(message);
    },
    receiver: (outer) =>
      forwardingReceiver(outer, {
        onMessage(message) {
          const value = typeof message === "string" ? JSON.parse(message) : message;
          oracle?.check(value, "agent_to_client");
          if (value.method === "session/update") updates.push(value.params.update);
          outer.onMessage(message);
        },
      }),
  });
  return { transport, updates };
}

const states = (updates: Record<string, unknown>[]) => updates.filter((update) => update.sessionUpdate === "state_update");

describe("A13: background tool calls", () => {
  it("later v2: the turn's idle lists what runs on; each end is a state update; one running and one idle per prompt; all valid for the SDK", async () => {
    const oracle = new LaterV2Oracle();
    const { definition, started, diagnostics } = backgroundAgent();
    const { transport, updates } = connectTo(definition, diagnostics, oracle);
    const agent = await connectAgent(transport, { protocolVersion: 2, v2Dialect: "later" });
    expect(agent.dialect).toBe("v2-later");
    const session = await agent.newSession({ cwd: "/work" });
    expect((await session.prompt("bg 2")).stopReason).toBe("end_turn");
    const ids = started.map((tool) => tool.toolCallId);
    expect(states(updates)).toEqual([
      { sessionUpdate: "state_update", state: "running" },
      { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn", background: ids.map((toolCallId) => ({ type: "tool_call", toolCallId })) },
    ]);
    expect(session.state.background).toEqual(ids.map((toolCallId) => ({ type: "tool_call", toolCallId })));
    expect(session.state.toolCalls.map((call) => call.status)).toEqual(["in_progress", "in_progress"]);

    // After the turn: the first call writes and completes; the snapshot shrinks, then empties.
    started[0]!.appendContent("indexed 10 files");
    started[0]!.complete();
    await expect.poll(() => session.state.background).toEqual([{ type: "tool_call", toolCallId: ids[1] }]);
    started[1]!.fail();
    await expect.poll(() => session.state.background).toEqual([]);
    expect(session.state.toolCalls.map((call) => call.status)).toEqual(["completed", "failed"]);
    expect(states(updates).slice(2)).toEqual([
      { sessionUpdate: "state_update", state: "idle", background: [{ type: "tool_call", toolCallId: ids[1] }] },
      { sessionUpdate: "state_update", state: "idle", background: [] },
    ]);
    expect(diagnostics.filter((code) => code === "turn_closed")).toEqual([]);
    expect(oracle.problems).toEqual([]);
    expect([...oracle.seen]).toEqual(expect.arrayContaining(["agent_to_client session/update params", "agent_to_client session/prompt result"]));
    await agent.close();
  });

  it("a session/cancel leaves them running; their own cancel (tool_call/cancel) aborts them", async () => {
    const { definition, started, diagnostics } = backgroundAgent();
    const { transport } = connectTo(definition, diagnostics);
    const agent = await connectAgent(transport, { protocolVersion: 2, v2Dialect: "later" });
    const session = await agent.newSession({ cwd: "/work" });
    await session.prompt("bg 1");
    await session.cancel();
    const tool = started[0]!;
    expect(tool.signal.aborted).toBe(false);
    tool.signal.addEventListener("abort", () => tool.cancelled());
    await session.cancelToolCall(tool.toolCallId);
    await expect.poll(() => session.state.toolCalls[0]?.status).toBe("cancelled");
    await expect.poll(() => session.state.background).toEqual([]);
    await agent.close();
  });

  it("cannot ask for permission once handed over", async () => {
    const { definition, started, diagnostics } = backgroundAgent();
    const { transport } = connectTo(definition, diagnostics);
    const agent = await connectAgent(transport, { protocolVersion: 2, v2Dialect: "later" });
    const session = await agent.newSession({ cwd: "/work" });
    await session.prompt("bg 1");
    const refused = await started[0]!.requestPermission([{ optionId: "ok", name: "OK", kind: "allow_once" }]).catch((error: unknown) => error);
    expect(isAcpError(refused, "Unsupported")).toBe(true);
    expect((refused as Error).message).toMatch(/cannot ask for permission: ask from the turn/);
    await agent.close();
  });

  it.each([
    ["pinned v2", 2, "pinned"],
    ["v1", 1, undefined],
  ] as const)(
    "%s: the updates reach the client after the turn (pinned v2 with the snapshot, v1 without it, reported once)",
    async (_name, protocolVersion, v2Dialect) => {
      const { definition, started, diagnostics } = backgroundAgent();
      const { transport } = connectTo(definition, diagnostics);
      const agent = await connectAgent(transport, { protocolVersion, ...(v2Dialect === undefined ? {} : { v2Dialect }) });
      const session = await agent.newSession({ cwd: "/work" });
      await session.prompt("bg 2");
      for (const tool of started) tool.complete();
      await expect.poll(() => session.state.toolCalls.map((call) => call.status)).toEqual(["completed", "completed"]);
      if (protocolVersion === 1) {
        expect(session.state.background).toBeNull();
        expect(diagnostics.filter((code) => code === "lossy_session_update")).toEqual(["lossy_session_update"]);
      } else {
        await expect.poll(() => session.state.background).toEqual([]);
        expect(diagnostics.filter((code) => code.startsWith("lossy_"))).toEqual([]);
      }
      await agent.close();
    },
  );
});
