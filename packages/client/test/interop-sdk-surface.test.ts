// Interop over the whole v1 surface: connectAgent against an agent built with the official SDK
// (fixtures/sdk-surface-agent.mjs, a real child process) that requires authentication and uses
// modes, config options, every session method, notices, compaction, a terminal and elicitation.
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { connectAgent, type ConnectedAgent } from "@acpkit/client";
import { createNodeTerminalHost } from "@acpkit/client/node";
import { spawnAgent } from "@acpkit/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { textOf } from "./harness.js";

const fixture = fileURLToPath(new URL("./fixtures/sdk-surface-agent.mjs", import.meta.url));
let agent: ConnectedAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

function start(options: Parameters<typeof connectAgent>[1] = {}) {
  return connectAgent(spawnAgent(process.execPath, [fixture], { stderr: "ignore", shutdownGraceMs: 300 }), options);
}

describe("connectAgent with an official-SDK agent using every v1 feature", () => {
  it("authentication gates sessions; the -32000 names the methods' way out", async () => {
    agent = await start();
    expect(agent.authMethods).toEqual([{ type: "agent", id: "key", name: "API key", description: "Reads SDK_AGENT_KEY" }]);
    await expect(agent.newSession({ cwd: "/work" })).rejects.toMatchObject({ code: -32000, data: { hint: expect.stringContaining("authenticate") } });
    await agent.authenticate("key");
    await expect(agent.newSession({ cwd: "/work" })).resolves.toBeDefined();
    await agent.logout();
    await expect(agent.newSession({ cwd: "/work" })).rejects.toMatchObject({ code: -32000 });
  });

  it("modes and options from session/new, set_mode, set_config_option, list, load, resume, close, delete", async () => {
    agent = await start();
    expect(agent.agentCapabilities.session).toMatchObject({ list: true, resume: true, close: true, delete: true });
    await agent.authenticate("key");
    const session = await agent.newSession({ cwd: "/work" });
    expect(session.state.modes?.currentModeId).toBe("plan");
    expect(session.state.configOptions.map((option) => option.id)).toEqual(["model", "fast"]);
    await session.setMode("build");
    expect(session.state.currentModeId).toBe("build");
    await session.setConfigOption("model", "large");
    await session.setConfigOption("fast", true);
    expect(session.state.configOptions.map((option) => option.currentValue)).toEqual(["large", true]);
    await session.prompt("hello");
    expect(session.state.availableCommands.map((command) => command.name)).toEqual(["features"]);

    expect((await agent.listSessions()).sessions).toEqual([{ sessionId: session.sessionId, cwd: "/work" }]);
    await session.close();
    const loaded = await agent.loadSession({ sessionId: session.sessionId, cwd: "/work" });
    expect(loaded.state.messages.map((message) => textOf(message))).toEqual(["hello"]);
    await loaded.close();
    const resumed = await agent.resumeSession({ sessionId: session.sessionId, cwd: "/work" });
    expect(resumed.state.currentModeId).toBe("build");
    await agent.deleteSession(session.sessionId);
    expect((await agent.listSessions()).sessions).toEqual([]);
    await expect(agent.resumeSession({ sessionId: session.sessionId, cwd: "/work" })).rejects.toMatchObject({ code: -32002 });
  });

  it("a turn's mode, config, info, usage, notice, compaction, terminal and elicitation land in SessionState", async () => {
    agent = await start({ terminal: createNodeTerminalHost(), elicitation: { form: () => ({ action: "accept", content: { color: "red" } }) } });
    await agent.authenticate("key");
    const session = await agent.newSession({ cwd: realpathSync(tmpdir()) });
    expect((await session.prompt("features")).stopReason).toBe("end_turn");
    const json = session.state.toJSON();
    expect(json.modes?.currentModeId).toBe("build");
    expect(json.configOptions.find((option) => option.id === "model")?.currentValue).toBe("large");
    expect(json.sessionInfo).toEqual({ title: "Feature tour", updatedAt: "2026-11-23T12:00:00Z" });
    expect(json.usage).toEqual({ used: 500, size: 10000, cost: { amount: 0.02, currency: "USD" } });
    expect(json.notices).toEqual([{ severity: "warning", title: "Quota at 80%" }]);
    expect(json.compactions).toEqual([{ compactionId: "c1", status: "completed", summary: [{ type: "text", text: "We toured the features." }] }]);
    expect(json.terminals).toEqual([
      {
        terminalId: expect.any(String),
        command: process.execPath,
        args: ["-e", "console.log('from the terminal')"],
        output: "from the terminal\n",
        truncated: false,
        exitStatus: { exitCode: 0, signal: null },
      },
    ]);
    expect(json.toolCalls[0]).toMatchObject({
      toolCallId: "run-1",
      status: "completed",
      content: [{ type: "_acpkit/terminal", terminalId: json.terminals[0]!.terminalId }],
    });
    expect(textOf(json.messages.at(-1))).toBe('terminal said "from the terminal". elicitation accept {"color":"red"}');
    expect(session.state.diagnostics).toEqual([]);
  });
});
