// Interop: our client drives an agent written with the official @agentclientprotocol/sdk (default
// v1 entry point), running as a real child process over stdio.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { spawnAgent } from "@acpkit/transport-stdio";
import { connectAgent, type ConnectedAgent, type ConnectOptions } from "@acpkit/client";
import { textOf } from "./harness.js";

const fixture = fileURLToPath(new URL("./fixtures/sdk-agent.mjs", import.meta.url));

let agent: ConnectedAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

function connectSdkAgent(options: ConnectOptions): Promise<ConnectedAgent> {
  return connectAgent(spawnAgent(process.execPath, [fixture], { stderr: "ignore", shutdownGraceMs: 500 }), options);
}

describe("our client drives the official SDK agent over stdio", () => {
  it("runs a full turn: plan, thought and message chunks, a tool call with permission, a file read and usage", async () => {
    const reads: string[] = [];
    agent = await connectSdkAgent({
      protocolVersion: 1,
      requestPermission: (request) => ({ outcome: "selected", optionId: request.options.find((o) => o.kind === "allow_once")!.optionId }),
      fs: {
        readTextFile: ({ path }) => {
          reads.push(path);
          return "hello from the editor";
        },
      },
    });
    expect(agent.protocolVersion).toBe(1);
    expect(agent.agentCapabilities.prompt.embeddedContext).toBe(true);
    const session = await agent.newSession({ cwd: "/work" });
    const turn = session.prompt("full");
    const kinds: string[] = [];
    for await (const update of turn) kinds.push(update.sessionUpdate as string);
    await expect(turn).resolves.toMatchObject({ stopReason: "end_turn" });

    // v1 arrives as the model: plan → plan_update "main", tool_call → tool_call_update.
    expect(kinds).toEqual([
      "plan_update",
      "agent_thought_chunk",
      "agent_thought_chunk",
      "agent_message_chunk",
      "agent_message_chunk",
      "tool_call_update",
      "tool_call_update",
      "tool_call_update",
      "agent_message_chunk",
      "usage_update",
    ]);
    const state = session.state;
    expect(reads).toEqual(["/home/user/project/notes.txt"]);
    expect(state.plans).toEqual([{ id: "main", entries: [{ content: "Read the file", priority: "high", status: "in_progress" }] }]);
    // The id-less thought chunks became one message with a synthesized id (B2).
    const thoughts = state.messages.filter((m) => m.kind === "agent_thought");
    expect(thoughts.map(textOf)).toEqual(["Let me look."]);
    expect(thoughts[0]!.messageId).toMatch(/^acpkit-synth-/);
    expect(state.messages.filter((m) => m.kind === "agent_message").map((m) => [m.messageId, textOf(m)])).toEqual([
      ["m1", "Reading the file."],
      ["m2", "The file says: hello from the editor"],
    ]);
    expect(state.toolCalls).toEqual([
      expect.objectContaining({
        toolCallId: "t1",
        title: "Read notes.txt",
        kind: "read",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "hello from the editor" } }],
      }),
    ]);
    expect(state.usage).toMatchObject({ used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } });
  });

  it("offering 2 to this v1-only agent runs v1 (without client fs)", async () => {
    agent = await connectSdkAgent({ protocolVersion: 2, requestPermission: () => ({ outcome: "selected", optionId: "allow" }) });
    expect(agent.protocolVersion).toBe(1);
    const session = await agent.newSession({ cwd: "/work" });
    await expect(session.prompt("full")).resolves.toMatchObject({ stopReason: "end_turn" });
    expect(session.state.messages.map(textOf)).toContain("The file says: (no client fs)");
  });

  it("cancels a turn: the pending permission request is answered cancelled and the tool call shows cancelled", async () => {
    agent = await connectSdkAgent({
      protocolVersion: 1,
      requestPermission: () => {
        void session.cancel();
        return new Promise(() => {}); // the user never answers
      },
    });
    const session = await agent.newSession({ cwd: "/work" });
    await expect(session.prompt("cancel-me")).resolves.toMatchObject({ stopReason: "cancelled" });
    expect(session.state.messages.map(textOf)).toContain("outcome:cancelled");
    expect(session.state.toolCalls).toEqual([expect.objectContaining({ toolCallId: "t2", status: "cancelled" })]);
  });
});
