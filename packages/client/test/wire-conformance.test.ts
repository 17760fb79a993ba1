// Black-box conformance of the acpkit client on the wire. Our client (connectAgent over
// spawnAgent) talks to a scripted RAW agent child (fixtures/scripted-agent.mjs: hand-written JSON
// lines, mostly docs/protocol.md's own traces, no acpkit code). The agent logs every line it received;
// the tests assert the client's requests and answers on the wire, validate every v1 line against
// the OFFICIAL v1 JSON Schema, and compare the final SessionState JSON with what docs/protocol.md §5 and
// §7.2 give for those traces. Rule numbers refer to docs/protocol.md.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { Diagnostic } from "@acpkit/core";
import { spawnAgent } from "@acpkit/transport-stdio";
import { connectAgent, sessionStateToJSON, type ConnectedAgent, type ConnectOptions, type PermissionRequest } from "@acpkit/client";
import { officialV1ParamsDefinition, officialV1Problem, officialV1ResultDefinition } from "../../agent/test/official-v1-oracle.js";

type Json = any;

const fixture = fileURLToPath(new URL("./fixtures/scripted-agent.mjs", import.meta.url));

interface Run {
  /** Connect our client to the scripted agent running `scenario`. */
  connect(options?: ConnectOptions): Promise<ConnectedAgent>;
  /** Every line the agent received, parsed, in order (call after the client closed). */
  wire(): Json[];
  diagnostics: Diagnostic[];
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scripted(scenario: string): Run {
  const dir = mkdtempSync(join(tmpdir(), "acpkit-client-wire-"));
  const log = join(dir, "received.jsonl");
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const diagnostics: Diagnostic[] = [];
  return {
    diagnostics,
    async connect(options = {}) {
      const transport = spawnAgent(process.execPath, [fixture, scenario], { env: { ...process.env, WIRE_LOG: log }, stderr: "inherit", shutdownGraceMs: 1000 });
      cleanups.push(() => transport.close("test done"));
      const agent = await connectAgent(transport, { onDiagnostic: (d) => diagnostics.push(d), ...options });
      cleanups.push(() => agent.close("test done"));
      return agent;
    },
    wire() {
      // The scripted agent logs every line it received; an audit of a missing or empty log would
      // check nothing, so both fail here (every scenario at least initializes).
      expect(existsSync(log), `the scripted agent wrote no wire log (${log})`).toBe(true);
      const text = readFileSync(log, "utf8");
      const lines = text.split("\n").filter((line) => line !== "");
      expect(lines.length, "the wire log is empty").toBeGreaterThan(0);
      const scriptErrors = lines.filter((line) => line.startsWith("SCRIPT ERROR"));
      expect(scriptErrors, "the scripted agent saw something it did not expect").toEqual([]);
      return lines.map((line) => {
        // S3: one compact JSON message per line, no stray \r.
        expect(line.endsWith("\r")).toBe(false);
        const message = JSON.parse(line);
        expect(line).toBe(JSON.stringify(message));
        return message;
      });
    },
  };
}

/**
 * Check everything the client wrote: the JSON-RPC envelope, and on v1 every params/result/error
 * against the official v1 schema (the agent's requests are looked up by id to find the method).
 */
function auditClientWire(wire: Json[], version: 1 | 2, agentRequests: Record<number, string>): void {
  expect(wire.length, "an audit needs the client's messages").toBeGreaterThan(0);
  const problems: string[] = [];
  const clientIds = new Set<unknown>();
  for (const message of wire) {
    if (Array.isArray(message)) {
      problems.push("§8.2 [acpkit]: the client sent a batch");
      continue;
    }
    if (message.jsonrpc !== "2.0") problems.push(`§3.1: jsonrpc is not "2.0" in ${JSON.stringify(message)}`);
    if (typeof message.method === "string") {
      if ("id" in message) {
        if (message.id === null) problems.push(`§3.1 [acpkit]: a request with id null: ${JSON.stringify(message)}`);
        if (clientIds.has(message.id)) problems.push(`the client reused request id ${message.id}`);
        clientIds.add(message.id);
      }
      if (version === 2 && (message.method.startsWith("fs/") || message.method === "$/cancel_request")) problems.push(`§2: ${message.method} sent on v2`);
      if (version === 1 || message.method === "initialize") {
        const definition = officialV1ParamsDefinition(message.method);
        // initialize is checked against v1 only when it offers 1 (an offer of 2 is v2-shaped).
        if (message.method === "initialize" && message.params?.protocolVersion !== 1) continue;
        if (definition === undefined) problems.push(`official v1 schema: no method ${message.method}`);
        else {
          const problem = officialV1Problem(definition, message.params);
          if (problem) problems.push(`official v1 schema: ${problem}`);
        }
      }
    } else {
      const method = agentRequests[message.id];
      if (method === undefined) {
        problems.push(`a response to an id the agent never used: ${JSON.stringify(message)}`);
        continue;
      }
      if ("result" in message === "error" in message) problems.push(`§3.1: response needs exactly one of result/error: ${JSON.stringify(message)}`);
      if (version === 1) {
        const problem = "error" in message ? officialV1Problem("Error", message.error) : officialV1Problem(officialV1ResultDefinition(method)!, message.result);
        if (problem) problems.push(`official v1 schema: ${problem}`);
      }
    }
  }
  expect(problems).toEqual([]);
}

const requestsOf = (wire: Json[], method: string) => wire.filter((m) => m.method === method);
const responseTo = (wire: Json[], id: number) => wire.find((m) => m.method === undefined && m.id === id);

/** A deferred the tests resolve from inside a callback. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const promptText = (text: string) => ({ messageId: expect.stringMatching(/^acpkit-prompt-\d+$/), kind: "user_message", content: [{ type: "text", text }] });
const text = (t: string) => ({ type: "text", text: t });

// ---------------------------------------------------------------------------------------------
describe("docs/protocol.md §6.2 traces, driven by our client", () => {
  it("v1 trace: requests on the wire (initialize with v1 fields, fs answers, permission) and the final SessionState", async () => {
    const run = scripted("v1-trace");
    const reads: Json[] = [];
    const writes: Json[] = [];
    const permissions: PermissionRequest[] = [];
    const agent = await run.connect({
      protocolVersion: 1,
      clientInfo: { name: "acpkit-client", version: "0.1.0" },
      fs: {
        readTextFile: (request) => {
          reads.push(request);
          return "# Teh project\n";
        },
        writeTextFile: (request) => {
          writes.push(request);
        },
      },
      requestPermission: (request) => {
        permissions.push(request);
        return { outcome: "selected", optionId: "ok" };
      },
    });
    expect(agent.protocolVersion).toBe(1);
    const session = await agent.newSession({ cwd: "/home/u/p" });
    const turn = session.prompt("Fix the typo in README.md");
    const seen: string[] = [];
    for await (const update of turn) seen.push(String(update.sessionUpdate));
    expect(await turn).toEqual({ stopReason: "end_turn" });
    // Every update of the turn was applied before the result (docs/architecture.md, order).
    expect(seen).toEqual([
      "plan_update",
      "agent_message_chunk",
      "tool_call_update",
      "tool_call_update",
      "tool_call_update",
      "tool_call_update",
      "usage_update",
    ]);
    const state = sessionStateToJSON(session.state);
    await agent.close();

    const wire = run.wire();
    auditClientWire(wire, 1, { 0: "fs/read_text_file", 1: "session/request_permission", 2: "fs/write_text_file" });
    expect(wire[0]).toEqual({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: 1,
        clientCapabilities: {
          fs: { readTextFile: true, writeTextFile: true },
          terminal: false,
          // SessionState keeps notices, compactions and boolean options, so the client advertises them.
          session: { notices: {}, compaction: {}, configOptions: { boolean: {} } },
        },
        clientInfo: { name: "acpkit-client", version: "0.1.0" },
      },
    });
    expect(requestsOf(wire, "session/new")).toEqual([{ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/home/u/p", mcpServers: [] } }]);
    expect(requestsOf(wire, "session/prompt")).toEqual([
      { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [text("Fix the typo in README.md")] } },
    ]);
    expect(responseTo(wire, 0)).toEqual({ jsonrpc: "2.0", id: 0, result: { content: "# Teh project\n" } });
    expect(responseTo(wire, 1)).toEqual({ jsonrpc: "2.0", id: 1, result: { outcome: { outcome: "selected", optionId: "ok" } } });
    expect(responseTo(wire, 2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(reads).toEqual([{ sessionId: "s1", path: "/home/u/p/README.md" }]);
    expect(writes).toEqual([{ sessionId: "s1", path: "/home/u/p/README.md", content: "# The project\n" }]);
    // The permission request's toolCall reaches the application in the model shape.
    expect(permissions[0]!.toolCall.toolCallId).toBe("t2");

    // §5.4 / §7.2: v1 → model. tool_call creates, the plan becomes plan "main" (B6).
    expect(state).toEqual({
      sessionId: "s1",
      protocolVersion: 1,
      messages: [promptText("Fix the typo in README.md"), { messageId: "m1", kind: "agent_message", content: [text("Reading the file.")] }],
      toolCalls: [
        { toolCallId: "t1", title: "Read README.md", kind: "read", status: "completed", content: [], locations: [{ path: "/home/u/p/README.md" }] },
        {
          toolCallId: "t2",
          title: "Edit README.md",
          kind: "edit",
          status: "completed",
          content: [{ type: "diff", path: "/home/u/p/README.md", oldText: "# Teh project\n", newText: "# The project\n" }],
        },
      ],
      plans: [{ id: "main", entries: [{ content: "Fix typo", priority: "high", status: "in_progress" }] }],
      usage: { used: 1200, size: 200000 },
      permissions: [
        {
          toolCallId: "t2",
          options: [
            { optionId: "ok", name: "Allow", kind: "allow_once" },
            { optionId: "no", name: "Reject", kind: "reject_once" },
          ],
          outcome: { outcome: "selected", optionId: "ok" },
        },
      ],
      turns: [{ stopReason: "end_turn" }],
      configOptions: [],
      availableCommands: [],
      terminals: [],
      notices: [],
      compactions: [],
    });
  });

  it("v2 trace: initialize with only v2 `capabilities` (fs handlers given but never advertised), and the final SessionState", async () => {
    const run = scripted("v2-trace");
    const agent = await run.connect({
      protocolVersion: 2,
      clientInfo: { name: "acpkit-client", version: "0.1.0" },
      fs: { readTextFile: () => "never", writeTextFile: () => {} },
      requestPermission: () => ({ outcome: "selected", optionId: "ok" }),
    });
    expect(agent.protocolVersion).toBe(2);
    expect(agent.authMethods).toEqual([{ type: "agent", id: "login", name: "Log in" }]);
    expect(agent.agentCapabilities).toMatchObject({
      loadSession: false,
      prompt: { image: false, audio: false, embeddedContext: true },
      mcp: { stdio: true, http: true },
    });
    const session = await agent.newSession({ cwd: "/home/u/p" });
    expect(await session.prompt("Fix the typo in README.md")).toEqual({ stopReason: "end_turn" });
    const state = sessionStateToJSON(session.state);
    await agent.close();

    const wire = run.wire();
    auditClientWire(wire, 2, { 1: "session/request_permission" });
    expect(wire[0]).toEqual({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: 2, capabilities: {}, clientInfo: { name: "acpkit-client", version: "0.1.0" } },
    });
    expect(requestsOf(wire, "session/new")[0].params).toEqual({ cwd: "/home/u/p", mcpServers: [] });
    expect(requestsOf(wire, "session/prompt")[0].params).toEqual({ sessionId: "s1", prompt: [text("Fix the typo in README.md")] });
    expect(responseTo(wire, 1)).toEqual({ jsonrpc: "2.0", id: 1, result: { outcome: { outcome: "selected", optionId: "ok" } } });

    expect(state).toEqual({
      sessionId: "s1",
      protocolVersion: 2,
      messages: [
        promptText("Fix the typo in README.md"),
        { messageId: "m1", kind: "agent_message", content: [text("Editing the file.")] },
        { messageId: "m2", kind: "agent_message", content: [text("Fixed the typo.")] },
      ],
      toolCalls: [
        {
          toolCallId: "t2",
          title: "Edit README.md",
          kind: "edit",
          status: "completed",
          content: [{ type: "diff", path: "/home/u/p/README.md", oldText: "# Teh project\n", newText: "# The project\n" }],
        },
      ],
      plans: [{ id: "p1", entries: [{ content: "Fix typo", priority: "high", status: "in_progress" }] }],
      usage: null,
      permissions: [
        {
          toolCallId: "t2",
          options: [
            { optionId: "ok", name: "Allow", kind: "allow_once" },
            { optionId: "no", name: "Reject", kind: "reject_once" },
          ],
          outcome: { outcome: "selected", optionId: "ok" },
        },
      ],
      turns: [{ stopReason: "end_turn" }],
      configOptions: [],
      availableCommands: [],
      terminals: [],
      notices: [],
      compactions: [],
    });
  });
});

// ---------------------------------------------------------------------------------------------
describe("§6.3 cancellation, client duties (C1–C4, C11)", () => {
  it.each([1, 2] as const)(
    "v%i: session/cancel, `cancelled` answers to the permission request pending at cancel AND to one arriving after it; updates after the cancel still apply",
    async (version) => {
      const run = scripted("cancel");
      let asked = 0;
      const askedOnce = deferred<AbortSignal>();
      const agent = await run.connect({
        protocolVersion: version,
        // The user never answers; the cancel must answer for them.
        requestPermission: (_request, { signal }) => {
          asked++;
          askedOnce.resolve(signal);
          return new Promise(() => {});
        },
      });
      const session = await agent.newSession({ cwd: "/work" });
      const turn = session.prompt("Delete build/");
      const signal = await askedOnce.promise;
      // C2: unfinished tool calls of the turn show cancelled at once; finished ones keep their status.
      await session.cancel();
      expect(signal.aborted).toBe(true);
      const marked = sessionStateToJSON(session.state).toolCalls.map((t) => [t.toolCallId, t.status]);
      expect(marked).toEqual([
        ["t9", "cancelled"],
        ["t8", "cancelled"],
        ["t7", "completed"],
      ]);
      expect(await turn).toEqual({ stopReason: "cancelled" });
      const state = sessionStateToJSON(session.state);
      await agent.close();

      const wire = run.wire();
      auditClientWire(wire, version, { 4: "session/request_permission", 5: "session/request_permission" });
      // The application was asked once; the request after the cancel was answered without asking.
      expect(asked).toBe(1);
      const cancelAt = wire.findIndex((m) => m.method === "session/cancel");
      expect(wire[cancelAt]).toEqual({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s1" } });
      expect(responseTo(wire, 4)).toEqual({ jsonrpc: "2.0", id: 4, result: { outcome: { outcome: "cancelled" } } });
      expect(responseTo(wire, 5)).toEqual({ jsonrpc: "2.0", id: 5, result: { outcome: { outcome: "cancelled" } } });
      expect(wire.indexOf(responseTo(wire, 4))).toBeGreaterThan(cancelAt);
      expect(requestsOf(wire, "session/cancel")).toHaveLength(1);

      // C4: the later wire status replaced the local mark; the message after the cancel is kept.
      expect(state.toolCalls.map((t) => [t.toolCallId, t.status])).toEqual([
        ["t9", "cancelled"],
        ["t8", "failed"],
        ["t7", "completed"],
      ]);
      expect(state.messages.at(-1)).toEqual({ messageId: "m9", kind: "agent_message", content: [text("Stopped.")] });
      expect(state.permissions).toEqual([
        { toolCallId: "t9", options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }], outcome: { outcome: "cancelled" } },
        { toolCallId: "t8", options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }], outcome: { outcome: "cancelled" } },
      ]);
      expect(state.turns).toEqual([{ stopReason: "cancelled" }]);
    },
  );

  it("C11: an error response after the cancel shows as a cancelled turn, with a diagnostic", async () => {
    const run = scripted("error-after-cancel");
    const agent = await run.connect({ protocolVersion: 2 });
    const session = await agent.newSession({ cwd: "/work" });
    const turn = session.prompt("go");
    for await (const update of turn) {
      if (update.sessionUpdate === "agent_message_chunk") await turn.cancel();
    }
    expect(await turn).toEqual({ stopReason: "cancelled" });
    expect(sessionStateToJSON(session.state).turns).toEqual([{ stopReason: "cancelled" }]);
    expect(run.diagnostics.map((d) => d.code)).toContain("error_after_cancel");
    await agent.close();
    auditClientWire(run.wire(), 2, {});
  });
});

// ---------------------------------------------------------------------------------------------
describe("§1.2 negotiation from the client side", () => {
  it("downgrade: offered 2, answered 1 → a v1 connection without fs; B2 synthesized ids, plan main, v1 null ≡ omitted", async () => {
    const run = scripted("downgrade");
    const agent = await run.connect({ protocolVersion: 2, fs: { readTextFile: () => "secret" } });
    expect(agent.protocolVersion).toBe(1);
    expect(agent.agentCapabilities.loadSession).toBe(true);
    const session = await agent.newSession({ cwd: "/work" });
    expect(await session.prompt("first")).toEqual({ stopReason: "end_turn" });
    expect(await session.prompt("second")).toEqual({ stopReason: "end_turn" });
    const state = sessionStateToJSON(session.state);
    await agent.close();

    const wire = run.wire();
    auditClientWire(wire, 1, { 0: "fs/read_text_file" });
    // The offer was v2-shaped only (never both versions' fields, §1.2).
    expect(wire[0].params).toEqual({
      protocolVersion: 2,
      capabilities: {},
      clientInfo: expect.objectContaining({ name: expect.any(String), version: expect.any(String) }),
    });
    // The agent saw no fs capability, so the client must not serve fs: -32601, and the app's handler is never reached.
    expect(responseTo(wire, 0)).toMatchObject({ jsonrpc: "2.0", id: 0, error: { code: -32601 } });

    expect(state.messages).toEqual([
      promptText("first"),
      { messageId: "acpkit-synth-1", kind: "agent_message", content: [text("Hel"), text("lo"), text("!")] },
      { messageId: "acpkit-synth-2", kind: "agent_message", content: [text("after tool")] },
      { messageId: "acpkit-synth-3", kind: "agent_thought", content: [text("hmm")] },
      { messageId: "acpkit-synth-4", kind: "agent_message", content: [text("more")] },
      { messageId: "m-real", kind: "agent_message", content: [text("x")] },
      { messageId: "acpkit-synth-5", kind: "agent_message", content: [text("y")] },
      promptText("second"),
      { messageId: "acpkit-synth-6", kind: "agent_message", content: [text("next")] },
    ]);
    // V3: v1 `null` means omitted, so title and kind survive the update that carried nulls.
    expect(state.toolCalls).toEqual([{ toolCallId: "t1", title: "Look", kind: "read", status: "completed", content: [] }]);
    // V5/B6: the one v1 plan is plan "main"; `entries: []` empties it.
    expect(state.plans).toEqual([{ id: "main", entries: [] }]);
    expect(state.usage).toEqual({ used: 10, size: 100 });
    expect(state.turns).toEqual([{ stopReason: "end_turn" }, { stopReason: "end_turn" }]);
  });

  it("N6/§1.3: a v2 agent without capabilities.session gets no session/new (Unsupported, nothing sent)", async () => {
    const run = scripted("no-session");
    const agent = await run.connect({ protocolVersion: 2 });
    expect(agent.agentCapabilities.sessions).toBe(false);
    await expect(agent.newSession({ cwd: "/work" })).rejects.toMatchObject({ code: "Unsupported", message: expect.stringContaining("capabilities.session") });
    await agent.close();
    expect(run.wire().map((m) => m.method)).toEqual(["initialize"]);
  });

  it("an answer of 3 closes the connection and rejects with VersionUnsupported; nothing else is sent", async () => {
    const run = scripted("answer-3");
    const failure = await run.connect({ protocolVersion: 2 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: expect.any(String), code: "VersionUnsupported" });
    const wire = run.wire();
    expect(wire.map((m) => m.method)).toEqual(["initialize"]);
  });

  it("offering 1 without fs handlers advertises fs false and terminal false (v1 fields only)", async () => {
    const run = scripted("v2-trace");
    // The scripted agent answers 2 whatever is offered; a client that speaks 2 goes on (N3 table).
    const agent = await run.connect({ protocolVersion: 1 });
    expect(agent.protocolVersion).toBe(2);
    await agent.close();
    const [init] = run.wire();
    expect(init.params).toEqual({
      protocolVersion: 1,
      clientCapabilities: {
        fs: { readTextFile: false, writeTextFile: false },
        terminal: false,
        session: { notices: {}, compaction: {}, configOptions: { boolean: {} } },
      },
      clientInfo: expect.objectContaining({ name: expect.any(String) }),
    });
    expect(officialV1Problem("InitializeRequest", init.params)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
describe("v2 update semantics through the client (§5, O5)", () => {
  it("updates right behind session/new, outside turns and for unknown sessions; v2 fs is -32601 (D2); upserts, patches, custom plans", async () => {
    const run = scripted("outside-turns");
    const lastPermission = deferred<PermissionRequest>();
    const agent = await run.connect({
      protocolVersion: 2,
      fs: { readTextFile: () => "never" },
      // The script's only permission request comes after the turn, behind its last update.
      requestPermission: (request) => {
        lastPermission.resolve(request);
        return { outcome: "selected", optionId: "no" };
      },
    });
    const session = await agent.newSession({ cwd: "/work" });
    // The update written right behind the session/new answer already belongs to the session.
    expect(sessionStateToJSON(session.state).usage).toEqual({ used: 1, size: 10 });
    expect(await session.prompt("go")).toEqual({ stopReason: "_acpkit/budget_exhausted" });
    await lastPermission.promise;
    const state = sessionStateToJSON(session.state);
    await agent.close();

    const wire = run.wire();
    auditClientWire(wire, 2, { 0: "fs/read_text_file", 9: "session/request_permission" });
    expect(responseTo(wire, 0)).toMatchObject({ error: { code: -32601 } });
    expect(run.diagnostics.some((d) => d.sessionId === "nope")).toBe(true);

    expect(state.messages).toEqual([
      promptText("go"),
      // M6 then M3 then M5/M8: replace, append, patch _meta alone.
      { messageId: "a", kind: "agent_message", content: [text("A"), text("B")], _meta: { k: 1 } },
    ]);
    // T4 [acpkit]: a chunk for an unseen id creates; T2: null clears title; T3: content null empties.
    expect(state.toolCalls).toEqual([{ toolCallId: "t-new", content: [], rawOutput: { ok: true } }]);
    // P3: a plan of unknown type is stored raw under its id.
    expect(state.plans).toEqual([{ id: "p2", type: "_custom", raw: { type: "_custom", id: "p2", body: "raw" } }]);
    // O5: the usage update after the response (and the early one behind session/new) were applied.
    expect(state.usage).toEqual({ used: 7, size: 10, cost: { amount: 0.5, currency: "USD" } });
    expect(state.turns).toEqual([{ stopReason: "_acpkit/budget_exhausted" }]);
  });
});

// ---------------------------------------------------------------------------------------------
describe("the client as a JSON-RPC peer (§2, §3, §4.9, §8)", () => {
  it("v1: -32700 id null for an unparsable line, -32601 for terminal/*, -32002 for an unknown session, drops invalid updates, still answers a request withdrawn by $/cancel_request (Y1)", async () => {
    const run = scripted("v1-robustness");
    const asked = deferred<AbortSignal>();
    const agent = await run.connect({
      protocolVersion: 1,
      fs: { readTextFile: () => "never" },
      requestPermission: (_request, { signal }) => {
        asked.resolve(signal);
        return new Promise(() => {});
      },
    });
    const session = await agent.newSession({ cwd: "/work" });
    expect(await session.prompt("go")).toEqual({ stopReason: "end_turn" });
    expect((await asked.promise).aborted).toBe(true);
    const state = sessionStateToJSON(session.state);
    await agent.close();

    const wire = run.wire();
    auditClientWire(
      wire.filter((m) => m.id !== null),
      1,
      { 0: "terminal/create", 1: "fs/read_text_file", 2: "session/request_permission" },
    );
    expect(wire.find((m) => m.id === null)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(responseTo(wire, 0)).toMatchObject({ error: { code: -32601 } });
    expect(responseTo(wire, 1)).toMatchObject({ error: { code: -32002 } });
    // §4.9: a request the agent withdrew is still answered — with a cancelled outcome or -32800.
    const withdrawn = responseTo(wire, 2);
    expect(withdrawn.result ?? withdrawn.error.code).toEqual(withdrawn.result ? { outcome: { outcome: "cancelled" } } : -32800);
    // V4: the update for an unannounced id created it with defaults; the invalid chunk was dropped.
    expect(state.toolCalls).toEqual([{ toolCallId: "ghost", status: "in_progress", content: [] }]);
    expect(state.messages.slice(1)).toEqual([{ messageId: "acpkit-synth-1", kind: "agent_message", content: [text("still here")] }]);
    expect(run.diagnostics.some((d) => d.method === "session/update" && d.code === "invalid_params")).toBe(true);
  });

  it("v2: a batch from the agent is answered as one array; $/cancel_request is ignored on v2", async () => {
    const run = scripted("v2-batch");
    const signals: AbortSignal[] = [];
    const both = deferred();
    const release = deferred();
    const agent = await run.connect({
      protocolVersion: 2,
      requestPermission: async (request, { signal }) => {
        signals.push(signal);
        if (signals.length === 2) both.resolve();
        await release.promise;
        return { outcome: "selected", optionId: request.toolCall.toolCallId === "a" ? "ok" : "no" };
      },
    });
    const session = await agent.newSession({ cwd: "/work" });
    const turn = session.prompt("go");
    await both.promise;
    release.resolve();
    expect(await turn).toEqual({ stopReason: "end_turn" });
    // $/cancel_request does not exist on v2: it did not withdraw request 10.
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
    const state = sessionStateToJSON(session.state);
    await agent.close();

    const wire = run.wire();
    const batchReply: Json[] = wire.find((m) => Array.isArray(m)) ?? [];
    expect(batchReply, "the client answered a v2 batch with separate lines").not.toEqual([]);
    expect([...batchReply].sort((x: Json, y: Json) => x.id - y.id)).toEqual([
      { jsonrpc: "2.0", id: 10, result: { outcome: { outcome: "selected", optionId: "ok" } } },
      { jsonrpc: "2.0", id: 11, result: { outcome: { outcome: "selected", optionId: "no" } } },
    ]);
    expect(state.usage).toEqual({ used: 3, size: 9 });
  });
});

// ---------------------------------------------------------------------------------------------
describe("§9 legacy shapes from a v2 agent", () => {
  it('v1 updates, later-draft shapes and id-less chunks are dropped with a diagnostic; stop reason "error" and a `{}` response fail the turn clearly', async () => {
    const run = scripted("v2-legacy");
    const agent = await run.connect({ protocolVersion: 2 });
    const session = await agent.newSession({ cwd: "/work" });
    const first = await session.prompt("go").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(first).toMatchObject({ code: "InvalidMessage", message: expect.stringContaining("error") });
    const second = await session.prompt("again").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(second).toMatchObject({ code: "InvalidMessage", message: expect.stringContaining("stopReason") });
    const state = sessionStateToJSON(session.state);
    await agent.close();

    const legacy = run.diagnostics.filter((d) => d.code === "legacy_shape").map((d) => (d.detail as Array<{ legacyShape?: string }>)[0]?.legacyShape);
    expect(legacy).toEqual(["tool_call", "plan", "state_update", "planId"]);
    expect(run.diagnostics.filter((d) => d.code === "invalid_params" && d.path === "/update/messageId")).toHaveLength(1);
    expect(state.toolCalls).toEqual([]);
    expect(state.plans).toEqual([]);
    expect(state.messages.filter((m) => m.kind === "agent_message")).toEqual([{ messageId: "ok", kind: "agent_message", content: [text("fine")] }]);
    auditClientWire(run.wire(), 2, {});
  });
});

// A turn that ends in an error response records no turn; the prompt after it must still get its own
// prompt message id (the ids count prompts, not turns).
it("a prompt sent after a turn that failed is still recorded as its own user message", async () => {
  const run = scripted("v2-legacy");
  const agent = await run.connect({ protocolVersion: 2 });
  const session = await agent.newSession({ cwd: "/work" });
  await session.prompt("go").then(undefined, () => undefined);
  await session.prompt("again").then(undefined, () => undefined);
  const users = sessionStateToJSON(session.state).messages.filter((m) => m.kind === "user_message");
  await agent.close();
  expect(users.map((m) => m.content)).toEqual([[text("go")], [text("again")]]);
});
