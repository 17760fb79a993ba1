// What the later v2 draft added, end to end between our client and our agent: cancellable tool
// calls (cancelToolCall), agent-owned terminals (state.agentTerminals, cancelTerminal), the turn
// state, permission subjects and the stop reason error. On the later draft (both codecs), and on
// the pinned v2 where acpkit peers carry the same through the model's extension fields; v1 cannot.
import { AcpError } from "@acpkit/core";
import { afterEach, describe, expect, it } from "vitest";
import type { ConnectedAgent, PermissionRequest } from "@acpkit/client";
import { connectScenarioAgent, textOf, type TransportKind } from "./harness.js";

let agent: ConnectedAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

describe.each([
  ["later", "memory"],
  ["later", "stdio"],
  ["pinned", "memory"],
] as const)("acpkit client ↔ acpkit agent on the %s v2 draft (%s)", (dialect, kind: TransportKind) => {
  it("A10: cancelToolCall cancels one cancellable tool call; the turn goes on and ends end_turn", async () => {
    agent = await connectScenarioAgent(kind, { protocolVersion: 2, v2Dialect: dialect, requestPermission: () => ({ outcome: "cancelled" }) });
    expect(agent.dialect).toBe(dialect === "later" ? "v2-later" : "v2-pinned");
    const session = await agent.newSession({ cwd: "/work" });
    const turn = session.prompt("cancellable");
    for await (const update of turn) if (update.sessionUpdate === "tool_call_update") break;
    expect(session.state.toolCall("call_1")).toMatchObject({ status: "in_progress", capabilities: { cancel: {} } });
    await session.cancelToolCall("call_1");
    await expect(turn).resolves.toMatchObject({ stopReason: "end_turn" });
    // The later draft confirms with status cancelled; the pinned v2 has no wire cancelled (C2): failed.
    expect(session.state.toolCall("call_1")).toMatchObject({ status: dialect === "later" ? "cancelled" : "failed" });
    expect(textOf(session.state.messages.at(-1))).toBe("tool cancelled");
    // Finished: the capability is gone, so the client refuses before sending anything.
    await expect(session.cancelToolCall("call_1")).rejects.toBeInstanceOf(AcpError);
    await expect(session.cancelToolCall("no-such-call")).rejects.toMatchObject({ code: "InvalidArgument" });
  });

  it("agent terminals: output decoded as UTF-8, exit status, and cancelTerminal", async () => {
    agent = await connectScenarioAgent(kind, { protocolVersion: 2, v2Dialect: dialect, requestPermission: () => ({ outcome: "cancelled" }) });
    const session = await agent.newSession({ cwd: "/work" });
    await session.prompt("agent-terminal");
    expect(session.state.agentTerminals).toEqual([
      {
        terminalId: "term_1",
        command: "make test",
        cwd: "/work",
        output: "line one\nünïcode ✓\n",
        outputDropped: 0,
        exitStatus: { exitCode: 0, signal: null },
      },
    ]);
    const waiting = session.prompt("agent-terminal wait");
    for await (const update of waiting) if (update.sessionUpdate === "_acpkit/terminal_output_chunk") break;
    expect(session.state.agentTerminal("term_2")?.capabilities).toEqual({ cancel: {} });
    await session.cancelTerminal("term_2");
    await waiting;
    expect(session.state.agentTerminal("term_2")).toMatchObject({ exitStatus: { exitCode: null, signal: "SIGTERM" } });
    expect(session.state.toJSON().activity?.agentTerminals).toHaveLength(2);
  });

  it("a permission about a command reaches the handler with its subject (later draft only); stopReason error rejects the turn", async () => {
    const asked: PermissionRequest[] = [];
    agent = await connectScenarioAgent(kind, {
      protocolVersion: 2,
      v2Dialect: dialect,
      requestPermission: (request) => {
        asked.push(request);
        return { outcome: "selected", optionId: "run" };
      },
    });
    const session = await agent.newSession({ cwd: "/work" });
    await session.prompt("command-permission");
    expect(asked[0]?.toolCall.toolCallId).toBe("call_1");
    if (dialect === "later") expect(asked[0]?.subject).toEqual({ type: "command", command: "npm test", cwd: "/work", toolCallId: "call_1" });
    else expect(asked[0]?.subject).toBeUndefined();
    await expect(session.prompt("error-stop")).rejects.toMatchObject({ code: -32001, message: "quota exhausted" });
    if (dialect === "later") {
      // The turn state the agent reported: idle with stopReason error.
      expect(session.state.turnState).toBe("idle");
      expect(session.state.background).toBeNull();
    } else expect(session.state.turnState).toBeUndefined();
  });
});

describe("on v1", () => {
  it("acpkit peers still cancel one tool call (the extension method and the capability pass the v1 bridge); agent terminals are not sent (lossy)", async () => {
    agent = await connectScenarioAgent("memory", { protocolVersion: 1, requestPermission: () => ({ outcome: "cancelled" }) });
    const session = await agent.newSession({ cwd: "/work" });
    const turn = session.prompt("cancellable");
    for await (const update of turn) if (update.sessionUpdate === "tool_call_update") break;
    await session.cancelToolCall("call_1");
    await expect(turn).resolves.toMatchObject({ stopReason: "end_turn" });
    // v1 has no wire cancelled: the call ends failed.
    expect(session.state.toolCall("call_1")).toMatchObject({ status: "failed" });
    await session.prompt("agent-terminal");
    expect(session.state.agentTerminals).toEqual([]);
  });
});
