// Interop over the whole v1 surface, the other way round: the official @agentclientprotocol/sdk
// client drives `acpkit agent` (the built binary, a real child process over stdio) through every
// agent method and every session command, serving terminals and elicitation itself. Everything
// the agent sends is also checked against the official v1 schema.
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { officialV1Problem } from "../../../agent/test/official-v1-oracle.js";
import { BIN } from "../support/cli.js";

let child: ChildProcess | undefined;
afterEach(() => {
  child?.stdin?.end();
  child?.kill();
  child = undefined;
});

function startAcpkitAgent(): acp.Stream {
  child = spawn(process.execPath, [BIN, "agent"], { stdio: ["pipe", "pipe", "ignore"] });
  return acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
}

describe("the official SDK client drives acpkit agent over every v1 method", () => {
  it("session methods, turn commands, a client terminal and an elicitation", async () => {
    const updates: acp.SessionUpdate[] = [];
    const terminalCalls: string[] = [];
    const elicitations: acp.CreateElicitationRequest[] = [];
    const app = acp
      .client({ name: "sdk-client" })
      .onNotification("session/update", ({ params }) => {
        expect(officialV1Problem("SessionNotification", params)).toBeUndefined();
        updates.push(params.update);
      })
      .onRequest("session/request_permission", () => ({ outcome: { outcome: "selected", optionId: "allow" } }))
      .onRequest("terminal/create", ({ params }) => {
        terminalCalls.push(`create ${params.command} ${(params.args ?? []).join(" ")}`);
        return { terminalId: "t-1" };
      })
      .onRequest("terminal/wait_for_exit", ({ params }) => {
        terminalCalls.push(`wait ${params.terminalId}`);
        return { exitCode: 0, signal: null };
      })
      .onRequest("terminal/output", ({ params }) => {
        terminalCalls.push(`output ${params.terminalId}`);
        return { output: "ok\n", truncated: false, exitStatus: { exitCode: 0, signal: null } };
      })
      .onRequest("terminal/release", ({ params }) => {
        terminalCalls.push(`release ${params.terminalId}`);
        return {};
      })
      .onRequest("terminal/kill", () => ({}))
      .onRequest("elicitation/create", ({ params }) => {
        elicitations.push(params);
        return { action: "accept", content: { name: "Grace", subscribe: true } };
      });

    const results = await app.connectWith(startAcpkitAgent(), async (ctx) => {
      const init = await ctx.request("initialize", {
        protocolVersion: 1,
        clientCapabilities: { terminal: true, elicitation: { form: {} }, session: { notices: {} } },
        clientInfo: { name: "sdk-client", version: "2.4.0" },
      });
      expect(officialV1Problem("InitializeResponse", init)).toBeUndefined();
      expect(init.agentCapabilities).toMatchObject({
        loadSession: true,
        sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
        auth: { logout: {} },
      });
      expect(init.authMethods).toEqual([{ id: "test-login", name: "Test login", description: "Accepts anyone; for testing clients" }]);
      await ctx.request("authenticate", { methodId: "test-login" });

      const created = await ctx.request("session/new", { cwd: "/work", mcpServers: [] });
      expect(officialV1Problem("NewSessionResponse", created)).toBeUndefined();
      expect(created.modes?.currentModeId).toBe("ask");
      expect(created.configOptions?.[0]).toMatchObject({ id: "model", currentValue: "standard" });
      const { sessionId } = created;
      await ctx.request("session/set_mode", { sessionId, modeId: "code" });
      const configured = await ctx.request("session/set_config_option", { sessionId, configId: "model", value: "thorough" });
      expect(configured.configOptions[0]).toMatchObject({ currentValue: "thorough" });
      const badMode = await ctx.request("session/set_mode", { sessionId, modeId: "nope" }).catch((error: { code: number }) => error.code);
      expect(badMode).toBe(-32602);

      const stops: string[] = [];
      for (const text of ["/title Tour", "/plan", "/notice Hello", "/mode ask", "/config model standard", "/terminal make test", "/elicit", "/commands"]) {
        const result = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
        stops.push(result.stopReason);
      }
      const listed = await ctx.request("session/list", {});
      expect(listed.sessions).toEqual([expect.objectContaining({ sessionId, cwd: "/work", title: "Tour" })]);
      await ctx.request("session/close", { sessionId });
      const loaded = await ctx.request("session/load", { sessionId, cwd: "/work", mcpServers: [] });
      expect(loaded.modes?.currentModeId).toBe("ask");
      await ctx.request("session/resume", { sessionId, cwd: "/work" });
      await ctx.request("session/delete", { sessionId });
      const gone = await ctx.request("session/resume", { sessionId, cwd: "/work" }).catch((error: { code: number }) => error.code);
      await ctx.request("logout", {});
      return { stops, gone };
    });

    expect(results.stops).toEqual(Array(8).fill("end_turn"));
    expect(results.gone).toBe(-32002);
    const tags = updates.map((update) => update.sessionUpdate);
    for (const tag of [
      "available_commands_update",
      "session_info_update",
      "plan",
      "notice",
      "current_mode_update",
      "config_option_update",
      "tool_call",
      "user_message_chunk",
    ]) {
      expect(tags).toContain(tag);
    }
    expect(updates.find((update) => update.sessionUpdate === "notice")).toMatchObject({ severity: "info", title: "Hello" });
    const toolCall = updates.find((update) => update.sessionUpdate === "tool_call") as Extract<acp.SessionUpdate, { sessionUpdate: "tool_call" }>;
    expect(toolCall.content).toEqual([{ type: "terminal", terminalId: "t-1" }]);
    expect(terminalCalls).toEqual(["create make test", "wait t-1", "output t-1", "release t-1"]);
    expect(elicitations[0]).toMatchObject({ mode: "form", sessionId: expect.any(String), requestedSchema: { required: ["name"] } });
    const answer = updates
      .filter((update) => update.sessionUpdate === "agent_message_chunk")
      .map((update) => JSON.stringify(update))
      .join("");
    expect(answer).toContain('Elicitation answered: accept {\\"name\\":\\"Grace\\",\\"subscribe\\":true}');
  });
});
