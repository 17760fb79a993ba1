// The whole protocol surface between acpkit's agent and client: modes, config options, session
// list/resume/close/delete, logout, available commands, session info, notices, compaction,
// terminals (a real child process through the Node terminal host) and elicitation, over the
// memory pair and over stdio (the agent as a child process), with v1 and v2 where both apply.
import { fileURLToPath } from "node:url";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveAgent } from "@acpkit/agent";
import { AcpError, RpcError, type Transport } from "@acpkit/core";
import type { ClientDiagnostic as Diagnostic } from "../src/index.js";
import { createMemoryPair } from "@acpkit/transport-memory";
import { spawnAgent } from "@acpkit/transport-stdio";
import { type ConnectedAgent, type ConnectOptions, connectAgent } from "@acpkit/client";
import { createNodeTerminalHost } from "@acpkit/client/node";
import type { ProtocolVersion } from "@acpkit/schema";
import { afterEach, describe, expect, it } from "vitest";
import { surfaceAgent } from "../../agent/test/fixtures/surface-agent.mjs";
import { textOf } from "./harness.js";

type Kind = "memory" | "stdio";
const stdioFixture = fileURLToPath(new URL("../../agent/test/fixtures/serve-surface-stdio.mjs", import.meta.url));
const open: ConnectedAgent[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((agent) => agent.close()));
});

function transportTo(kind: Kind): { transport: Transport; log: string[] | undefined } {
  if (kind === "memory") {
    const [clientSide, agentSide] = createMemoryPair();
    const agent = surfaceAgent({ RpcError });
    serveAgent(agentSide, agent);
    return { transport: clientSide, log: agent.log };
  }
  return { transport: spawnAgent(process.execPath, [stdioFixture], { stderr: "ignore", shutdownGraceMs: 500 }), log: undefined };
}

async function connect(kind: Kind, version: ProtocolVersion, options: ConnectOptions = {}) {
  const { transport, log } = transportTo(kind);
  const diagnostics: Diagnostic[] = [];
  const agent = await connectAgent(transport, { protocolVersion: version, onDiagnostic: (d) => diagnostics.push(d), ...options });
  open.push(agent);
  return { agent, log, diagnostics };
}

const lastMessage = (session: { state: { messages: readonly { kind: string; content: readonly unknown[] }[] } }) =>
  textOf(session.state.messages.filter((message) => message.kind === "agent_message").at(-1));

describe.each(["memory", "stdio"] as const)("session methods over %s", (kind) => {
  it("v1: capabilities, modes and config options from session/new (H9), commands right after it (H8)", async () => {
    const { agent } = await connect(kind, 1);
    expect(agent.agentCapabilities.session).toEqual({ list: true, resume: true, close: true, delete: true, additionalDirectories: false });
    expect(agent.agentCapabilities.logout).toBe(true);
    const session = await agent.newSession({ cwd: "/work" });
    expect(session.state.modes).toEqual({
      currentModeId: "ask",
      availableModes: [
        { id: "ask", name: "Ask", description: "Answers questions" },
        { id: "code", name: "Code", description: "Edits files" },
      ],
    });
    expect(session.state.configOptions.map((option) => [option.id, option.currentValue])).toEqual([
      ["model", "fast"],
      ["yolo", false],
    ]);
    // The commands were sent after the session/new answer; a round trip later they are in.
    await session.prompt("hello");
    expect(session.state.availableCommands.map((command) => command.name)).toEqual(["web", "test"]);
    expect(session.state.toJSON().availableCommands).toHaveLength(2);
  });

  it("v2: markers for the same methods, config options but no modes (pinned v2 has none; H7)", async () => {
    const { agent } = await connect(kind, 2);
    expect(agent.protocolVersion).toBe(2);
    expect(agent.agentCapabilities.session).toEqual({ list: true, resume: true, close: true, delete: true, additionalDirectories: false });
    expect(agent.agentCapabilities.logout).toBe(true);
    const session = await agent.newSession({ cwd: "/work" });
    expect(session.state.modes).toBeUndefined();
    expect(session.state.toJSON()).not.toHaveProperty("modes");
    expect(session.state.configOptions.map((option) => option.id)).toEqual(["model", "yolo"]);
    await expect(session.setMode("code")).rejects.toMatchObject({ code: "Unsupported" });
  });

  it("v1: set_mode and set_config_option (select and boolean) change the state and reach the agent (H1, H2)", async () => {
    const { agent, log } = await connect(kind, 1);
    const session = await agent.newSession({ cwd: "/work" });
    await session.setMode("code");
    expect(session.state.currentModeId).toBe("code");
    await expect(session.setMode("nope")).rejects.toMatchObject({ code: "InvalidArgument" });
    // The agent checks too: a raw request with an unknown mode gets -32602 naming /modeId.
    await expect(agent.connection.request("session/set_mode", { sessionId: session.sessionId, modeId: "nope" })).rejects.toMatchObject({
      code: -32602,
      data: { path: "/modeId" },
    });
    await session.setConfigOption("model", "deep");
    await session.setConfigOption("yolo", true);
    expect(session.state.configOptions.map((option) => [option.id, option.currentValue])).toEqual([
      ["model", "deep"],
      ["yolo", true],
    ]);
    await expect(session.setConfigOption("model", "huge")).rejects.toMatchObject({ code: -32602, data: { path: "/value" } });
    await expect(session.setConfigOption("nope", "x")).rejects.toMatchObject({ code: -32602, data: { path: "/configId" } });
    if (log) expect(log).toEqual(["mode code", "config model=deep", "config yolo=true"]);
  });

  it('v2: set_config_option with value ids, a boolean option as "true" (H3)', async () => {
    const { agent } = await connect(kind, 2);
    const session = await agent.newSession({ cwd: "/work" });
    await session.setConfigOption("model", "deep");
    await session.setConfigOption("yolo", true);
    expect(session.state.configOptions.map((option) => [option.id, option.currentValue])).toEqual([
      ["model", "deep"],
      ["yolo", true],
    ]);
  });

  it.each([1, 2] as const)("v%s: list (paged), resume, close and delete", async (version) => {
    const { agent, log } = await connect(kind, version);
    const first = await agent.newSession({ cwd: "/work" });
    await agent.newSession({ cwd: "/work" });
    await agent.newSession({ cwd: "/elsewhere" });
    await first.prompt("title Fix the build");
    const page1 = await agent.listSessions({ cwd: "/work" });
    expect(page1).toEqual({ sessions: [{ sessionId: first.sessionId, cwd: "/work", title: "Fix the build" }], nextCursor: "1" });
    const page2 = await agent.listSessions({ cwd: "/work", cursor: page1.nextCursor! });
    expect(page2.sessions.map((entry) => entry.sessionId)).toEqual(["surface_2"]);
    expect(page2.nextCursor).toBeUndefined();

    await agent.closeSession(first.sessionId);
    expect(() => first.prompt("hello")).toThrow(AcpError);
    const resumed = await agent.resumeSession({ sessionId: first.sessionId, cwd: "/work" });
    // The agent's resume answer puts the session in "code" (v1 only: v2 has no modes).
    expect(resumed.state.currentModeId).toBe(version === 1 ? "code" : undefined);
    expect(lastMessage(await resumed.prompt("again").then(() => resumed))).toBe("echo again");
    await expect(agent.resumeSession({ sessionId: "missing", cwd: "/work" })).rejects.toMatchObject({ code: -32002 });

    await agent.deleteSession("surface_2");
    expect((await agent.listSessions({ cwd: "/work" })).sessions.map((entry) => entry.sessionId)).toEqual([first.sessionId]);
    await expect(agent.deleteSession("surface_2")).rejects.toMatchObject({ code: -32002 });
    if (log) expect(log).toEqual([`close ${first.sessionId}`, `resume ${first.sessionId}`, "delete surface_2"]);
  });

  it.each([1, 2] as const)("v%s: authenticate and logout", async (version) => {
    const { agent, log } = await connect(kind, version);
    expect(agent.authMethods.map((method) => method.id)).toEqual(["token"]);
    await agent.authenticate("token");
    await agent.logout();
    await expect(agent.authenticate("nope")).rejects.toMatchObject({ code: -32602 });
    if (log) expect(log).toEqual(["authenticate token", "logout"]);
  });
});

describe.each(["memory", "stdio"] as const)("turn features over %s", (kind) => {
  it("v1: mode, config, title, commands, notice and compaction updates from a turn land in SessionState", async () => {
    const { agent } = await connect(kind, 1);
    const session = await agent.newSession({ cwd: "/work" });
    for (const prompt of ["mode code", "config model deep", "title Plan the release", "commands deploy", "notice Rate limited", "compact"]) {
      expect((await session.prompt(prompt)).stopReason).toBe("end_turn");
    }
    const json = session.state.toJSON();
    expect(json.modes?.currentModeId).toBe("code");
    expect(json.configOptions.find((option) => option.id === "model")?.currentValue).toBe("deep");
    expect(json.sessionInfo).toEqual({ title: "Plan the release", updatedAt: "2026-11-23T00:00:00Z" });
    expect(json.availableCommands).toEqual([{ name: "deploy", description: "The only command" }]);
    expect(json.notices).toEqual([{ severity: "warning", title: "Rate limited", message: "details" }]);
    expect(json.compactions).toEqual([
      {
        compactionId: expect.any(String),
        status: "completed",
        summary: [
          { type: "text", text: "Summary part 1. " },
          { type: "text", text: "Part 2." },
        ],
      },
    ]);
    // Nothing fell through as an unknown update.
    expect(session.state.diagnostics).toEqual([]);
  });

  it("v2: v1-only features fail in the agent with Unsupported instead of vanishing (H7)", async () => {
    const { agent } = await connect(kind, 2);
    const session = await agent.newSession({ cwd: "/work" });
    for (const prompt of ["mode code", "notice hi", "compact", "terminal echo hi", "elicit"]) {
      await session.prompt(prompt);
      expect(lastMessage(session)).toMatch(/^error Unsupported: /);
    }
    // What v2 has still works.
    await session.prompt("title T");
    expect(session.state.sessionInfo).toEqual({ title: "T", updatedAt: "2026-11-23T00:00:00Z" });
  });

  it("v1: a client that does not advertise notices makes the agent's notice() fail (Z1)", async () => {
    const { agent } = await connect(kind, 1, { sessionFeatures: { notices: false } });
    const session = await agent.newSession({ cwd: "/work" });
    await session.prompt("notice hi");
    expect(lastMessage(session)).toMatch(/^error Unsupported: notice: the client did not advertise/);
    expect(session.state.notices).toEqual([]);
  });

  it("v1: a terminal runs a real command in the session's cwd, embedded in a tool call, and is released", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "acpkit-term-")));
    const host = createNodeTerminalHost();
    const { agent } = await connect(kind, 1, { terminal: host });
    const session = await agent.newSession({ cwd });
    expect((await session.prompt(`terminal ${process.execPath} -e process.stdout.write(process.cwd())`)).stopReason).toBe("end_turn");
    expect(lastMessage(session)).toBe(`exit 0 signal null output ${JSON.stringify(cwd)}`);
    const [terminal] = session.state.terminals;
    expect(terminal).toMatchObject({ command: process.execPath, output: cwd, truncated: false, exitStatus: { exitCode: 0, signal: null } });
    // v1 `terminal` content reaches the model as its terminal item.
    expect(session.state.toolCalls[0]?.content).toEqual([{ type: "_acpkit/terminal", terminalId: terminal!.terminalId }]);
    expect(host.size).toBe(0);
  });

  it("v1: without a terminal host the capability is off and createTerminal fails in the agent (J1)", async () => {
    const { agent } = await connect(kind, 1);
    const session = await agent.newSession({ cwd: "/work" });
    await session.prompt("terminal echo hi");
    expect(lastMessage(session)).toMatch(/^error Unsupported: terminal\/create: the client did not advertise clientCapabilities.terminal/);
  });

  it("v1: cancelling the turn kills the session's running commands (J3)", async () => {
    const host = createNodeTerminalHost({ killGraceMs: 200 });
    const { agent } = await connect(kind, 1, { terminal: host });
    const session = await agent.newSession({ cwd: realpathSync(tmpdir()) });
    const turn = session.prompt("sleep-terminal");
    await new Promise<void>((resolve) => {
      const stop = session.onUpdate((update) => {
        if (update.sessionUpdate === "tool_call_update") {
          stop();
          resolve();
        }
      });
    });
    await session.cancel();
    expect((await turn).stopReason).toBe("cancelled");
    expect(lastMessage(session)).toBe("killed: SIGTERM");
    await host.closeAll();
  });

  it("v1: a form elicitation is answered by the handler; after a cancel a pending one is answered cancel (W2)", async () => {
    const seen: unknown[] = [];
    const { agent } = await connect(kind, 1, {
      elicitation: {
        form: (request, context) => {
          seen.push(request);
          if (request.message === "Wait")
            return new Promise((resolve) => context.signal.addEventListener("abort", () => resolve({ action: "accept", content: {} })));
          return { action: "accept", content: { name: "Ada" } };
        },
      },
    });
    const session = await agent.newSession({ cwd: "/work" });
    await session.prompt("elicit");
    expect(lastMessage(session)).toBe('elicitation accept {"name":"Ada"}');
    expect(seen[0]).toMatchObject({ mode: "form", sessionId: session.sessionId, message: "Your name?", requestedSchema: { required: ["name"] } });

    const waiting = session.prompt("elicit-wait");
    while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await session.cancel();
    expect((await waiting).stopReason).toBe("cancelled");
    expect(lastMessage(session)).toBe("elicitation cancel");
  });
});

describe.each(["memory", "stdio"] as const)("closing and capabilities over %s", (kind) => {
  it("v1: session/close cancels the running turn, which ends cancelled, and the session is gone (H4)", async () => {
    const { agent } = await connect(kind, 1, { elicitation: { form: () => new Promise(() => {}) } });
    const session = await agent.newSession({ cwd: "/work" });
    const turn = session.prompt("elicit-wait");
    // Wait until the agent is parked on its question.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = agent.connection.request("session/close", { sessionId: session.sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    await closing;
    await expect(agent.connection.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "hi" }] })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it("v1: without elicitation handlers nothing is advertised and the agent's elicit() fails (W1)", async () => {
    const { agent } = await connect(kind, 1);
    const session = await agent.newSession({ cwd: "/work" });
    await session.prompt("elicit");
    expect(lastMessage(session)).toMatch(/^error Unsupported: elicitation\/create: the client did not advertise clientCapabilities.elicitation.form/);
  });
});

/**
 * A hand-written v1 agent on `agentSide`: it answers initialize and session/new (with `sessionId`),
 * and on session/prompt sends `updates` to that session, then ends the turn with end_turn.
 */
function scriptedV1Turn(agentSide: Transport, sessionId: string, updates: readonly object[]): void {
  agentSide.start({
    onMessage(text) {
      const message = JSON.parse(text as string);
      const reply = (result: unknown) => void agentSide.send({ jsonrpc: "2.0", id: message.id, result } as never);
      if (message.method === "initialize") reply({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] });
      else if (message.method === "session/new") reply({ sessionId });
      else if (message.method === "session/prompt") {
        for (const update of updates) void agentSide.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update } } as never);
        reply({ stopReason: "end_turn" });
      }
    },
    onTransportError() {},
  });
}

describe("a client receiving an update kind it did not advertise (Z2)", () => {
  it("drops the notice with an unadvertised_update diagnostic and the session goes on", async () => {
    const [clientSide, agentSide] = createMemoryPair();
    scriptedV1Turn(agentSide, "z", [
      { sessionUpdate: "notice", severity: "info", title: "unasked" },
      { sessionUpdate: "compaction_update", compactionId: "c", status: "in_progress" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "still here" } },
    ]);
    const diagnostics: Diagnostic[] = [];
    const agent = await connectAgent(clientSide, { sessionFeatures: { notices: false, compaction: false }, onDiagnostic: (d) => diagnostics.push(d) });
    open.push(agent);
    const session = await agent.newSession({ cwd: "/work" });
    expect((await session.prompt("hi")).stopReason).toBe("end_turn");
    expect(session.state.notices).toEqual([]);
    expect(session.state.compactions).toEqual([]);
    expect(lastMessage(session)).toBe("still here");
    expect(diagnostics.filter((d) => d.code === "unadvertised_update").map((d) => d.message)).toEqual([
      "Dropped a notice update for session z: this client did not advertise it",
      "Dropped a compaction_update update for session z: this client did not advertise it",
    ]);
  });
});

describe("connectAgent falls back to v1 when the agent refuses the v2 initialize", () => {
  it("retries once with v1 params and reports v2_fallback", async () => {
    const [clientSide, agentSide] = createMemoryPair();
    const seen: { protocolVersion: unknown; hasV1Fields: boolean; later: boolean }[] = [];
    agentSide.start({
      onMessage(text) {
        const message = JSON.parse(text as string);
        seen.push({ protocolVersion: message.params.protocolVersion, hasV1Fields: "clientCapabilities" in message.params, later: "info" in message.params });
        const reply =
          message.params.protocolVersion === 2
            ? { jsonrpc: "2.0", id: message.id, error: { code: -32602, message: "Invalid params: info is required" } }
            : { jsonrpc: "2.0", id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } };
        void agentSide.send(reply as never);
      },
      onTransportError() {},
    });
    const diagnostics: Diagnostic[] = [];
    const agent = await connectAgent(clientSide, { protocolVersion: 2, onDiagnostic: (d) => diagnostics.push(d) });
    open.push(agent);
    expect(agent.protocolVersion).toBe(1);
    // The pinned v2 shape, then the later draft's (v2Dialect "auto"), then v1.
    expect(seen).toEqual([
      { protocolVersion: 2, hasV1Fields: false, later: false },
      { protocolVersion: 2, hasV1Fields: false, later: true },
      { protocolVersion: 1, hasV1Fields: true, later: false },
    ]);
    expect(diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(["dialect_retry", "v2_fallback"]));
  });

  it("does not retry when told not to", async () => {
    const [clientSide, agentSide] = createMemoryPair();
    agentSide.start({
      onMessage(text) {
        const message = JSON.parse(text as string);
        void agentSide.send({ jsonrpc: "2.0", id: message.id, error: { code: -32602, message: "no" } } as never);
      },
      onTransportError() {},
    });
    await expect(connectAgent(clientSide, { protocolVersion: 2, fallbackToV1: false })).rejects.toBeInstanceOf(RpcError);
  });
});

describe("a session's cwd is absolute (H10)", () => {
  it("newSession, loadSession, resumeSession and listSessions refuse a relative cwd before anything is sent", async () => {
    const [clientSide, agentSide] = createMemoryPair();
    const received: string[] = [];
    agentSide.start({
      onMessage(text) {
        const message = JSON.parse(text as string);
        received.push(message.method);
        const result =
          message.method === "initialize"
            ? { protocolVersion: 1, agentCapabilities: { loadSession: true, sessionCapabilities: { list: {}, resume: {} } }, authMethods: [] }
            : message.method === "session/new"
              ? { sessionId: "s1" }
              : { sessions: [] };
        void agentSide.send({ jsonrpc: "2.0", id: message.id, result } as never);
      },
      onTransportError() {},
    });
    const agent = await connectAgent(clientSide, { protocolVersion: 1 });
    open.push(agent);
    const refusals = [
      agent.newSession({ cwd: "src" }),
      // No cwd at all, or no options: said as such, not a TypeError from inside.
      agent.newSession({} as never),
      agent.newSession(null as never),
      agent.loadSession({ sessionId: "s0", cwd: "./p" }),
      agent.resumeSession({ sessionId: "s0", cwd: "" }),
      agent.listSessions({ cwd: "C:relative-to-drive" }),
    ];
    const badDirectory = agent.resumeSession({ sessionId: "s0", cwd: "/home/u/p", additionalDirectories: ["/home/u/lib", "lib"] });
    await expect(badDirectory).rejects.toMatchObject({
      code: "InvalidArgument",
      data: { path: "/additionalDirectories/1" },
      message: 'resumeSession: additionalDirectories/1 must be an absolute path (got "lib")',
    });
    for (const refusal of refusals) {
      const error = await refusal.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(AcpError);
      expect(error).toMatchObject({
        code: "InvalidArgument",
        data: { path: "/cwd" },
        message: expect.stringMatching(/^\w+Session\w*: cwd must be an absolute path \(got /),
      });
    }
    await expect(agent.newSession({} as never)).rejects.toThrow("newSession: cwd must be an absolute path (got nothing)");
    // Absolute paths of either system pass, whatever system the client runs on.
    await expect(agent.newSession({ cwd: "C:\\Users\\u\\p" })).resolves.toMatchObject({ sessionId: "s1" });
    await expect(agent.listSessions({ cwd: "/home/u/p" })).resolves.toEqual({ sessions: [] });
    expect(received).toEqual(["initialize", "session/new", "session/list"]);
  });

  it("an agent's fs or terminal request with a relative path or line 0 gets -32602 before the application's handler runs (E4)", async () => {
    const [clientSide, agentSide] = createMemoryPair();
    const answers = new Map<string, { error?: { code: number; message: string; data?: unknown }; result?: unknown }>();
    let answered: () => void = () => {};
    agentSide.start({
      onMessage(text) {
        const message = JSON.parse(text as string);
        if (message.method === "initialize") {
          void agentSide.send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } } as never);
        } else if (message.method === "session/new") {
          void agentSide.send({ jsonrpc: "2.0", id: message.id, result: { sessionId: "s1" } } as never);
        } else if (message.method === undefined) {
          answers.set(message.id, message);
          if (answers.size === 6) answered();
        }
      },
      onTransportError() {},
    });
    const handled: string[] = [];
    const agent = await connectAgent(clientSide, {
      protocolVersion: 1,
      fs: {
        readTextFile: ({ path }) => {
          handled.push(`read ${path}`);
          return "text";
        },
        writeTextFile: ({ path }) => void handled.push(`write ${path}`),
      },
      // A host of the application's own: the check must not depend on the Node host's.
      terminal: {
        create: (request) => {
          handled.push(`terminal ${request.cwd}`);
          return { terminalId: "t1" };
        },
        output: () => ({ output: "", truncated: false, exitStatus: null }),
        waitForExit: async () => ({ exitCode: 0, signal: null }),
        kill: () => {},
        release: () => {},
      },
    });
    open.push(agent);
    await agent.newSession({ cwd: "/home/u/p" });
    const done = new Promise<void>((resolve) => (answered = resolve));
    const ask = (id: string, method: string, params: object) =>
      void agentSide.send({ jsonrpc: "2.0", id, method, params: { sessionId: "s1", ...params } } as never);
    ask("relative", "fs/read_text_file", { path: "../secrets.txt" });
    ask("line-0", "fs/read_text_file", { path: "/home/u/p/a.txt", line: 0 });
    ask("empty", "fs/write_text_file", { path: "", content: "x" });
    ask("ok", "fs/read_text_file", { path: "/home/u/p/a.txt", line: 1 });
    ask("terminal-relative", "terminal/create", { command: "ls", cwd: "sub" });
    ask("terminal-ok", "terminal/create", { command: "ls", cwd: "D:\\work" });
    await done;
    expect(answers.get("relative")?.error).toEqual({
      code: -32602,
      message: 'Invalid params for fs/read_text_file: /path must be an absolute path (got "../secrets.txt")',
      data: { path: "/path", message: 'must be an absolute path (got "../secrets.txt")' },
    });
    expect(answers.get("line-0")?.error).toMatchObject({ code: -32602, data: { path: "/line" } });
    expect(answers.get("empty")?.error).toMatchObject({ code: -32602, data: { path: "/path" } });
    expect(answers.get("ok")?.result).toEqual({ content: "text" });
    expect(answers.get("terminal-relative")?.error).toMatchObject({ code: -32602, data: { path: "/cwd" } });
    expect(answers.get("terminal-ok")?.result).toEqual({ terminalId: "t1" });
    // Only the valid two reach the application; reads wait their turn, so their order against a terminal is not fixed.
    expect(handled.sort()).toEqual(["read /home/u/p/a.txt", "terminal D:\\work"]);
  });

  it("a tool call naming a relative path is applied as sent and reported as relative_path (E4)", async () => {
    const [clientSide, agentSide] = createMemoryPair();
    scriptedV1Turn(agentSide, "s1", [
      { sessionUpdate: "tool_call", toolCallId: "t1", title: "edit", locations: [{ path: "/w/ok.ts" }, { path: "src/a.ts" }] },
      { sessionUpdate: "tool_call_update", toolCallId: "t1", content: [{ type: "diff", path: "b.ts", newText: "x" }] },
      { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", locations: [{ path: "C:\\w\\a.ts" }] },
    ]);
    const diagnostics: Diagnostic[] = [];
    const agent = await connectAgent(clientSide, { protocolVersion: 1, onDiagnostic: (d) => diagnostics.push(d) });
    open.push(agent);
    const session = await agent.newSession({ cwd: "/w" });
    await session.prompt("edit");
    expect(diagnostics.filter((d) => d.code === "relative_path").map((d) => d.message)).toEqual([
      'Tool call t1 of session s1: locations/1/path must be an absolute path (got "src/a.ts"); applied as sent (docs/protocol.md E4)',
      'Tool call t1 of session s1: content/0/path must be an absolute path (got "b.ts"); applied as sent (docs/protocol.md E4)',
    ]);
    const [tool] = session.state.toolCalls;
    expect(tool).toMatchObject({ toolCallId: "t1", status: "completed", locations: [{ path: "C:\\w\\a.ts" }] });
    expect(tool?.content).toEqual([{ type: "diff", path: "b.ts", newText: "x" }]);
  });
});
