// Interop with the later v2 draft: our client drives an agent built with the official SDK 2.4.0's
// protocol router (v1 + the later v2), a real child process over stdio. Every line both ways is
// checked against the SDK's own v2 schema; the SDK agent validates what it receives too.
import { fileURLToPath } from "node:url";
import { connectAgent, type ConnectedAgent, type ConnectOptions } from "@acpkit/client";
import { LaterV2Oracle } from "@acpkit/test-support/later-v2-oracle";
import { RecordingTransport } from "@acpkit/test-support/recording-transport";
import { spawnAgent } from "@acpkit/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { textOf } from "./harness.js";

const fixture = fileURLToPath(new URL("../../../test-support/fixtures/sdk-later-v2-agent.mjs", import.meta.url));

let agent: ConnectedAgent | undefined;
let wire: RecordingTransport | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
  wire = undefined;
});

function connectSdkAgent(options: ConnectOptions, args: string[] = []): Promise<ConnectedAgent> {
  wire = new RecordingTransport(spawnAgent(process.execPath, [fixture, ...args], { stderr: "ignore", shutdownGraceMs: 500 }));
  return connectAgent(wire, options);
}

/** Every line of the recorded connection, checked in wire order against the SDK's v2 schema (after the handshake, which may be v1). */
function oracleProblems(): string[] {
  const oracle = new LaterV2Oracle();
  // The first offer is the pinned draft's shape on purpose (v2Dialect "auto"); the agent refuses it
  // and the later offer follows. Everything else is the later draft's.
  const pinnedOffer = wire!.sent.findIndex((m) => m.method === "initialize" && !("info" in (m.params ?? {})));
  if (pinnedOffer >= 0) wire!.sent.splice(pinnedOffer, 1);
  // Interleave by recording order is not kept across the two lists; each list is in wire order,
  // and a response is only checked once its request was seen, so check requests first.
  for (const message of wire!.sent) oracle.check(JSON.parse(JSON.stringify(message)), "client_to_agent");
  for (const message of wire!.received) oracle.check(message, "agent_to_client");
  for (const message of wire!.sent) if (!("method" in message)) oracle.check(JSON.parse(JSON.stringify(message)), "client_to_agent");
  return oracle.problems;
}

describe("our client drives the SDK's later-v2 agent over stdio", () => {
  it("A5, A8, A9, A11, A12: offering 2 reaches the later dialect; turns resolve to the stop reason of the idle that ends them", async () => {
    const diagnostics: string[] = [];
    const asked: unknown[] = [];
    agent = await connectSdkAgent({
      protocolVersion: 2,
      onDiagnostic: (d) => diagnostics.push(d.code),
      requestPermission: (request) => {
        asked.push(request.toolCall);
        return { outcome: "selected", optionId: request.options[0]!.optionId };
      },
    });
    expect(agent.protocolVersion).toBe(2);
    expect(agent.dialect).toBe("v2-later");
    expect(diagnostics).toContain("dialect_retry");
    expect(agent.agentInfo).toEqual({ name: "sdk-later-v2-agent", version: "2.4.0" });
    // Baseline in the later draft once `session` is present.
    expect(agent.agentCapabilities.session).toMatchObject({ list: true, resume: true, close: true });

    const session = await agent.newSession({ cwd: "/work" });
    expect(session.state.configOptions).toEqual([expect.objectContaining({ id: "model", currentValue: "fast" })]);
    const hello = session.prompt("hello");
    const kinds: string[] = [];
    for await (const update of hello) kinds.push(update.sessionUpdate as string);
    await expect(hello).resolves.toMatchObject({ stopReason: "end_turn" });
    expect(kinds).toEqual(["user_message", "_acpkit/state_update", "agent_message_chunk", "_acpkit/state_update"]);
    expect(session.state.messages.map((m) => [m.kind, textOf(m)])).toEqual([
      ["user_message", "hello"],
      ["agent_message", "hello over later v2"],
    ]);

    // A permission about a command reaches the handler as a tool call of kind execute (reported lossy).
    await expect(session.prompt("permission")).resolves.toMatchObject({ stopReason: "end_turn" });
    expect(asked).toEqual([
      expect.objectContaining({ title: "Run the tests?", kind: "execute", rawInput: { type: "command", command: "npm test", cwd: "/work" } }),
    ]);
    expect(diagnostics).toContain("lossy_permission_subject");
    expect(session.state.messages.at(-1)).toSatisfy((m: Parameters<typeof textOf>[0]) => textOf(m) === "outcome:selected:yes");

    // Diffs: an added file's patch becomes text; a move is kept as it came.
    await session.prompt("diff");
    const edit = session.state.toolCalls.find((call) => call.toolCallId === "edit-1")!;
    expect(edit.content).toEqual([
      { type: "diff", path: "/work/new.txt", oldText: null, newText: "first\nsecond\n" },
      { type: "_acpkit/diff_changes", changes: [{ operation: "move", oldPath: "/work/a.txt", path: "/work/b.txt" }] },
    ]);

    // planId, tagged commands, configId and boolean options arrive in the model's shape.
    await session.prompt("plan");
    expect(session.state.plans).toEqual([{ id: "p1", entries: [{ content: "Step one", priority: "high", status: "cancelled" }] }]);
    expect(session.state.availableCommands).toEqual([{ name: "test", description: "Run tests", input: { hint: "filter" } }]);
    expect(session.state.configOptions).toEqual([{ type: "boolean", id: "fast", name: "Fast mode", currentValue: true }]);

    // stopReason error: the turn rejects with the error the idle carried.
    await expect(session.prompt("error")).rejects.toMatchObject({ code: -32603, message: "model unavailable" });

    // session/cancel: confirmed by idle cancelled; the tool call's later status `cancelled` is kept.
    const waiting = session.prompt("wait");
    for await (const update of waiting) {
      if (update.sessionUpdate === "tool_call_update") break;
    }
    await session.cancel();
    await expect(waiting).resolves.toMatchObject({ stopReason: "cancelled" });
    expect(session.state.toolCalls.find((call) => call.toolCallId === "long-1")).toMatchObject({ status: "cancelled" });

    expect(oracleProblems()).toEqual([]);
  });

  it("auth/login and session/load (as session/resume with replay) work through the model's authenticate and loadSession", async () => {
    agent = await connectSdkAgent({ protocolVersion: 2, requestPermission: () => ({ outcome: "cancelled" }) }, ["--auth"]);
    expect(agent.authMethods).toEqual([{ type: "agent", id: "token", name: "Token" }]);
    await expect(agent.newSession({ cwd: "/work" })).rejects.toMatchObject({ code: -32000 });
    await agent.authenticate("token");
    const first = await agent.newSession({ cwd: "/work" });
    await first.prompt("remember me");
    await first.close();
    const loaded = await agent.loadSession({ sessionId: first.sessionId, cwd: "/work" });
    expect(loaded.state.messages.map((m) => [m.kind, textOf(m)])).toEqual([
      ["user_message", "remember me"],
      ["agent_message", "echo: remember me"],
    ]);
    expect(wire!.sent.map((m) => m.method).filter(Boolean)).toEqual(expect.arrayContaining(["auth/login", "session/resume"]));
    expect(oracleProblems()).toEqual([]);
  });

  it("A2, A11: a v2-only agent answers a v1 offer -32022; the client retries on the same connection with 2", async () => {
    const diagnostics: string[] = [];
    agent = await connectSdkAgent({ protocolVersion: 1, onDiagnostic: (d) => diagnostics.push(d.code), requestPermission: () => ({ outcome: "cancelled" }) }, [
      "--v2-only",
    ]);
    expect(diagnostics).toContain("version_retry");
    expect(agent.dialect).toBe("v2-later");
    const session = await agent.newSession({ cwd: "/work" });
    await expect(session.prompt("hello")).resolves.toMatchObject({ stopReason: "end_turn" });
  });

  it("A14: elicitation in the later draft: the offer advertises the handlers' modes, form and URL reach them, complete arrives", async () => {
    const completed: string[] = [];
    const forms: unknown[] = [];
    agent = await connectSdkAgent({
      protocolVersion: 2,
      v2Dialect: "later",
      elicitation: {
        form: (request) => {
          forms.push(request);
          return { action: "accept", content: { branch: "main" } };
        },
        url: (request) => ({ action: request.url === "https://login.example/" ? "accept" : "decline" }),
        complete: (id) => completed.push(id),
      },
    });
    const offer = wire!.sent.find((m) => m.method === "initialize");
    expect((offer!.params as { capabilities?: unknown }).capabilities).toEqual({ elicitation: { form: {}, url: {} } });
    const session = await agent.newSession({ cwd: "/work" });
    await expect(session.prompt("elicit")).resolves.toMatchObject({ stopReason: "end_turn" });
    expect(forms).toEqual([expect.objectContaining({ mode: "form", sessionId: session.sessionId, message: "Which branch?" })]);
    expect(session.state.messages.at(-1)).toSatisfy((m: Parameters<typeof textOf>[0]) => textOf(m) === 'form:accept:{"branch":"main"} url:accept');
    await expect.poll(() => completed).toEqual(["e-1"]);
    expect(oracleProblems()).toEqual([]);
  });

  it("A14: without elicitation handlers the later offer advertises none", async () => {
    agent = await connectSdkAgent({ protocolVersion: 2, v2Dialect: "later" });
    const offer = wire!.sent.find((m) => m.method === "initialize");
    expect((offer!.params as { capabilities?: unknown }).capabilities).toEqual({});
  });

  it("offering 1 to the router still runs v1", async () => {
    agent = await connectSdkAgent({ protocolVersion: 1, requestPermission: () => ({ outcome: "cancelled" }) });
    expect(agent.dialect).toBe("v1");
    const session = await agent.newSession({ cwd: "/work" });
    await expect(session.prompt("hello")).resolves.toMatchObject({ stopReason: "end_turn" });
  });
});
