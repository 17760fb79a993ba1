// serveAgent beyond the turn guarantees: initialize negotiation, per-version capabilities,
// authentication, session errors, stop-reason checks, client fs, ids and session/load.
import { describe, expect, it } from "vitest";
import { Connection, ErrorCode, RpcError } from "@acpkit/core";
import type { AgentDiagnostic as Diagnostic } from "../src/index.js";
import { createMemoryPair } from "@acpkit/transport-memory";
import { DEFAULT_MAX_SESSIONS, serveAgent, type AgentDefinition } from "@acpkit/agent";
import { RecordingTransport, agentTexts, initialize, newSession, prompt, startAgent } from "./harness.js";

function rawPair(agent: AgentDefinition, diagnostics: Diagnostic[] = []) {
  const [clientSide, agentSide] = createMemoryPair();
  const server = serveAgent(agentSide, agent, { onDiagnostic: (d) => diagnostics.push(d) });
  const wire = new RecordingTransport(clientSide);
  const client = new Connection(wire, { side: "client" });
  return { client, wire, server };
}

const echoAgent: AgentDefinition = { prompt: (turn) => void turn.message("hi") };

describe("serveAgent's arguments", () => {
  // Before: "Cannot read properties of undefined (reading 'then')" from inside the Connection.
  it("throws a TypeError naming serveAgent and what the transport lacks", () => {
    const agent: AgentDefinition = { prompt: async () => "end_turn" };
    expect(() => serveAgent("ws://127.0.0.1:8765/acp" as never, agent)).toThrow(
      new TypeError("serveAgent: the transport must be an object with start(receiver), send(message), close() and a closed promise, got a string"),
    );
    expect(() => serveAgent({ start() {}, send() {} } as never, agent)).toThrow(/^serveAgent: .*; this one has no close, closed$/);
  });
});

describe("turn methods given the wrong kind of argument", () => {
  // Before: "content is not iterable" and "Cannot destructure property 'toolCallId' of 'start' as
  // it is null", as the -32603 the handler's throw becomes.
  it.each([
    ["message", (turn: any) => turn.message(123), "Agent error: content must be a string or a list of content blocks, got a number"],
    ["thought", (turn: any) => turn.thought({ type: "text", text: "x" }), "Agent error: content must be a string or a list of content blocks, got an object"],
    ["toolCall", (turn: any) => turn.toolCall(null), "Agent error: turn.toolCall: start must be an object with the tool call's title and fields, got null"],
  ])("turn.%s says what it needs", async (_name, misuse, message) => {
    const { client } = rawPair({ prompt: (turn) => void misuse(turn) });
    await client.request("initialize", { protocolVersion: 1 });
    const { sessionId } = (await client.request("session/new", { cwd: "/work", mcpServers: [] })) as { sessionId: string };
    await expect(client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] })).rejects.toMatchObject({ code: -32603, message });
  });
});

// Before: both ran the agent's loadSession for the same id, built two session objects, and the
// later replaced the earlier in the session map.
describe("a load or resume of a session id already being set up", () => {
  it("is refused with -32600 setup_in_progress while the first runs, and taken after it", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const calls: string[] = [];
    const agent: AgentDefinition = {
      prompt: async () => "end_turn",
      features: { loadSession: true },
      loadSession: async (request) => {
        calls.push(`load ${request.sessionId}`);
        await gate;
      },
      resumeSession: async (request) => void calls.push(`resume ${request.sessionId}`),
    };
    const { client } = rawPair(agent);
    await client.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const first = client.request("session/load", { sessionId: "sess_x", cwd: "/w", mcpServers: [] });
    const refusal = {
      code: ErrorCode.InvalidRequest,
      data: { reason: "setup_in_progress" },
      message: expect.stringContaining("sess_x is already being set up"),
    };
    await expect(client.request("session/load", { sessionId: "sess_x", cwd: "/w", mcpServers: [] })).rejects.toMatchObject(refusal);
    await expect(client.request("session/resume", { sessionId: "sess_x", cwd: "/w" })).rejects.toMatchObject(refusal);
    // Another id is not held up.
    await expect(client.request("session/resume", { sessionId: "sess_y", cwd: "/w" })).resolves.toBeDefined();
    open();
    await expect(first).resolves.toBeDefined();
    await expect(client.request("session/load", { sessionId: "sess_x", cwd: "/w", mcpServers: [] })).resolves.toBeDefined();
    expect(calls).toEqual(["load sess_x", "resume sess_y", "load sess_x"]);
  });
});

describe("maxSessions", () => {
  // A session costs the runtime about 1.3 KB, and session/new is a short line: without a bound a
  // client could grow the agent without end.
  it("refuses the session over the bound with -32603 before the agent's code runs, counting requests that arrive together", async () => {
    const diagnostics: Diagnostic[] = [];
    let created = 0;
    let loaded = 0;
    const agent: AgentDefinition = {
      prompt: async () => "end_turn",
      newSession: async () => void created++,
      features: { loadSession: true },
      loadSession: async () => void loaded++,
    };
    const [clientSide, agentSide] = createMemoryPair();
    serveAgent(agentSide, agent, { maxSessions: 3, onDiagnostic: (d) => diagnostics.push(d) });
    const client = new Connection(clientSide, { side: "client" });
    await client.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => client.request("session/new", { cwd: "/work", mcpServers: [] })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused).toHaveLength(2);
    for (const r of refused) {
      expect(r.reason).toMatchObject({ code: -32603, data: { reason: "too_many_sessions", limit: 3 } });
      expect((r.reason as RpcError).message).toBe(
        "Too many sessions: this connection already has 3 sessions open (maxSessions); close one with session/close, or open another connection",
      );
    }
    expect(created).toBe(3);
    expect(diagnostics.filter((d) => d.code === "too_many_sessions").map((d) => d.method)).toEqual(["session/new", "session/new"]);
    // Loading one of the open sessions again needs no new place; loading a fourth does.
    const open = (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ sessionId: string }>).value.sessionId;
    await expect(client.request("session/load", { sessionId: open, cwd: "/work", mcpServers: [] })).resolves.toBeDefined();
    await expect(client.request("session/load", { sessionId: "sess_other", cwd: "/work", mcpServers: [] })).rejects.toMatchObject({ code: -32603 });
    expect(loaded).toBe(1);
    await client.close();
  });

  it("takes null for no bound and refuses a bound that is not a positive integer", () => {
    const agent: AgentDefinition = { prompt: async () => "end_turn" };
    expect(() => serveAgent(createMemoryPair()[1], agent, { maxSessions: null })).not.toThrow();
    expect(() => serveAgent(createMemoryPair()[1], agent, { maxSessions: 0 })).toThrow(
      new TypeError("serveAgent: options.maxSessions must be a positive integer or null, got 0"),
    );
    expect(DEFAULT_MAX_SESSIONS).toBe(1024);
  });
});

describe("initialize", () => {
  it.each([
    [1, 1],
    [2, 2],
    [0, 2],
    [3, 2],
    [65535, 2],
  ])("a dual agent answers an offer of %i with %i", async (offered, answered) => {
    const { client } = rawPair(echoAgent);
    const result: any = await client.request("initialize", { protocolVersion: offered });
    expect(result.protocolVersion).toBe(answered);
  });

  it("rejects a malformed protocolVersion with -32602 (not a version answer)", async () => {
    const { client } = rawPair(echoAgent);
    // @ts-expect-error a string version on purpose: the agent must refuse it with -32602
    await expect(client.request("initialize", { protocolVersion: "1.0.0" })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    // A failed initialize leaves the connection uninitialized, so a correct one still works.
    await expect(client.request("initialize", { protocolVersion: 1 })).resolves.toMatchObject({ protocolVersion: 1 });
  });

  it("a v1-only agent answers 1 to an offer of 2; other-version fields are ignored, not rejected", async () => {
    const { client } = rawPair({ ...echoAgent, versions: [1] });
    const result: any = await client.request("initialize", { protocolVersion: 2, capabilities: {}, clientInfo: { name: "c", version: "1" } });
    expect(result).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: false } });
  });

  it("writes capabilities in each version's layout", async () => {
    const agent: AgentDefinition = {
      ...echoAgent,
      info: { name: "a", version: "1" },
      features: { loadSession: true, prompt: { image: true, embeddedContext: true }, mcp: { http: true } },
      loadSession: () => {},
      authMethods: [{ id: "login", name: "Log in" }],
      authenticate: () => {},
    };
    const v1: any = await rawPair(agent).client.request("initialize", { protocolVersion: 1 });
    expect(v1).toEqual({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        // session/close is always served; list/resume/delete/logout only with their handlers.
        sessionCapabilities: { close: {} },
      },
      authMethods: [{ id: "login", name: "Log in" }],
      agentInfo: { name: "a", version: "1" },
    });
    const v2: any = await rawPair(agent).client.request("initialize", { protocolVersion: 2 });
    expect(v2).toEqual({
      protocolVersion: 2,
      capabilities: { session: { load: {}, prompt: { image: {}, embeddedContext: {} }, mcp: { stdio: {}, http: {} }, close: {} }, auth: {} },
      authMethods: [{ type: "agent", id: "login", name: "Log in" }],
      agentInfo: { name: "a", version: "1" },
    });
  });

  it("refuses an agent definition that cannot work, at serveAgent time", () => {
    const [, agentSide] = createMemoryPair();
    expect(() => serveAgent(agentSide, {} as AgentDefinition)).toThrow(/prompt\(turn\)/);
    expect(() => serveAgent(agentSide, { ...echoAgent, authMethods: [{ id: "x", name: "X" }] })).toThrow(/authenticate/);
  });
});

describe.each([1, 2] as const)("sessions on v%i", (version) => {
  it("authenticate: -32000 before it when required, unknown method -32602, then sessions work", async () => {
    const methods: string[] = [];
    const { client } = rawPair({
      ...echoAgent,
      authMethods: [{ id: "login", name: "Log in" }],
      requireAuthentication: true,
      authenticate: (methodId) => void methods.push(methodId),
    });
    await client.request("initialize", { protocolVersion: version });
    client.setVersion(version);
    await expect(client.request("session/new", { cwd: "/w", mcpServers: [] })).rejects.toMatchObject({ code: ErrorCode.AuthRequired });
    await expect(client.request("authenticate", { methodId: "nope" })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(client.request("authenticate", { methodId: "login" })).resolves.toEqual({});
    expect(methods).toEqual(["login"]);
    await expect(client.request("session/new", { cwd: "/w", mcpServers: [] })).resolves.toMatchObject({ sessionId: expect.stringMatching(/^sess_/) });
  });

  it('v2: a custom block whose type is an Object.prototype name ({type: "constructor"}) is accepted like any unknown block', async () => {
    const seen: string[] = [];
    const [clientSide, agentSide] = createMemoryPair();
    serveAgent(agentSide, { prompt: (turn) => void seen.push(...turn.prompt.map((block) => String(block.type))) });
    // A raw client that may send a reserved (non-`_`) unknown type, as a later protocol version could.
    const client = new Connection(clientSide, { side: "client", validateOutgoing: false });
    await client.request("initialize", { protocolVersion: 2 });
    client.setVersion(2);
    const { sessionId } = await client.request("session/new", { cwd: "/w", mcpServers: [] });
    // `constructor` is all lower case: schema-valid as an unknown v2 block (camelCase names are legacy shapes, §9).
    const prompt = [{ type: "text", text: "hi" }, { type: "constructor" }] as never;
    await expect(client.request("session/prompt", { sessionId, prompt })).resolves.toEqual({ stopReason: "end_turn" });
    expect(seen).toEqual(["text", "constructor"]);
  });

  it("answers -32002 for an unknown session and -32602 for a block the agent did not advertise", async () => {
    const started = startAgent("memory");
    await initialize(started, version);
    await expect(prompt(started, "sess_nope", "hi")).rejects.toMatchObject({ code: ErrorCode.ResourceNotFound });
    const sessionId = await newSession(started);
    const failure: any = await started.client
      .request("session/prompt", {
        sessionId,
        prompt: [
          { type: "text", text: "look" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure.code).toBe(ErrorCode.InvalidParams);
    expect(failure.data.path).toBe("/prompt/1/type");
    await started.close();
  });

  it("checks the handler's stop reason: custom values need a leading _, 'error' is refused", async () => {
    const started = startAgent("memory");
    await initialize(started, version);
    const sessionId = await newSession(started);
    const custom = await prompt(started, sessionId, "custom-stop");
    if (version === 2) expect(custom).toEqual({ stopReason: "_acpkit/budget_exhausted" });
    else expect(custom).toEqual({ stopReason: "end_turn", _meta: { "acpkit/v2StopReason": "_acpkit/budget_exhausted" } });
    await expect(prompt(started, sessionId, "bad-stop")).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: expect.stringMatching(/must start with "_"/),
    });
    await started.close();
  });

  it("client fs: works on v1 with the capability, and fails clearly without it or on v2", async () => {
    const diagnostics: Diagnostic[] = [];
    const { client, wire } = rawPair(
      {
        prompt: async (turn) => {
          try {
            turn.message(`read:${await turn.readTextFile({ path: "/w/a.txt", line: 2 })}`);
          } catch (error) {
            turn.message(`fs-error:${(error as { code: string }).code}:${(error as Error).message}`);
          }
        },
      },
      diagnostics,
    );
    await client.request("initialize", version === 1 ? { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true } } } : { protocolVersion: 2 });
    client.setVersion(version);
    if (version === 1) client.onRequest("fs/read_text_file", (params) => ({ content: `${params.path}@${params.line}` }));
    const { sessionId }: any = await client.request("session/new", { cwd: "/w", mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
    const [text] = agentTexts(wire, sessionId);
    if (version === 1) expect(text).toBe("read:/w/a.txt@2");
    else expect(text).toMatch(/^fs-error:Unsupported:fs\/read_text_file does not exist in protocol v2/);
  });

  it("v1 without the fs capability: readTextFile fails with Unsupported naming the capability (F1)", async () => {
    const started = startAgent("memory");
    await initialize(started, version, false);
    const sessionId = await newSession(started);
    await prompt(started, sessionId, "fs-read");
    const [text] = agentTexts(started.wire, sessionId);
    expect(text).toBe("fs-error:Unsupported");
    await started.close();
  });

  it("gives messages stable, unique ids and never reuses a tool call id (T8)", async () => {
    const started = startAgent("memory");
    await initialize(started, version);
    const sessionId = await newSession(started);
    await prompt(started, sessionId, "burst 3");
    await prompt(started, sessionId, "burst 3");
    const ids = started.wire.updates(sessionId).map((u) => u.messageId);
    expect(ids.slice(0, 3).every((id) => id === ids[0])).toBe(true);
    expect(ids.slice(3).every((id) => id === ids[3])).toBe(true);
    expect(ids[0]).not.toBe(ids[3]);

    const { client } = rawPair({
      prompt: (turn) => {
        const first = turn.toolCall({ title: "a" });
        turn.toolCall({ title: "b" });
        turn.toolCall({ title: "c", toolCallId: first.toolCallId });
      },
    });
    await client.request("initialize", { protocolVersion: version });
    client.setVersion(version);
    const { sessionId: s2 }: any = await client.request("session/new", { cwd: "/w", mcpServers: [] });
    await expect(client.request("session/prompt", { sessionId: s2, prompt: [] })).rejects.toMatchObject({
      message: expect.stringMatching(/already used in this session/),
    });
  });

  it("session/load replays history (user messages included) before its response", async () => {
    const started = startAgent("memory");
    await initialize(started, version);
    await expect(started.client.request("session/load", { sessionId: "sess_old", cwd: "/w", mcpServers: [] })).resolves.toEqual({});
    const loadResponseAt = started.wire.received.findIndex((m) => m.id === started.wire.lastRequestId("session/load"));
    const updates = started.wire.received
      .slice(0, loadResponseAt)
      .filter((m) => m.method === "session/update")
      .map((m) => m.params.update);
    expect(updates.map((u) => u.sessionUpdate)).toEqual(version === 1 ? ["user_message_chunk", "agent_message_chunk"] : ["user_message", "agent_message"]);
    // The loaded session takes prompts.
    await expect(prompt(started, "sess_old", "hello")).resolves.toEqual({ stopReason: "end_turn" });
    await started.close();
  });

  it("whole-message replacement: passes on v2; on v1 only extensions are sent and the rest is reported", async () => {
    const diagnostics: Diagnostic[] = [];
    const { client, wire } = rawPair({ prompt: (turn) => void turn.message("Hel").replace("Hello") }, diagnostics);
    const { client: client2, wire: wire2 } = rawPair({ prompt: (turn) => void turn.message("Hello").replace("Bye") }, diagnostics);
    for (const c of [client, client2]) {
      await c.request("initialize", { protocolVersion: version });
      c.setVersion(version);
    }
    const { sessionId }: any = await client.request("session/new", { cwd: "/w", mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [] });
    const { sessionId: s2 }: any = await client2.request("session/new", { cwd: "/w", mcpServers: [] });
    await client2.request("session/prompt", { sessionId: s2, prompt: [] });
    if (version === 2) {
      expect(agentTexts(wire, sessionId)).toEqual(["Hel", "Hello"]);
      expect(agentTexts(wire2, s2)).toEqual(["Hello", "Bye"]);
      expect(diagnostics).toEqual([]);
    } else {
      expect(agentTexts(wire, sessionId)).toEqual(["Hel", "lo"]);
      expect(agentTexts(wire2, s2)).toEqual(["Hello"]);
      expect(diagnostics.map((d) => d.code)).toEqual(["lossy_message_replace"]);
    }
  });
});

describe("$/cancel_request", () => {
  it("v1: cancelling the session/prompt request itself ends the turn cancelled", async () => {
    const started = startAgent("memory");
    await initialize(started, 1);
    const sessionId = await newSession(started);
    const pending = prompt(started, sessionId, "wait");
    await started.wire.waitFor((m) => m.method === "session/update");
    await started.client.notify("$/cancel_request", { requestId: started.wire.lastRequestId("session/prompt") });
    await expect(pending).resolves.toEqual({ stopReason: "cancelled" });
    await started.close();
  });
});

/**
 * Runs an agent's calls one after another and logs each: `success` when it went through, else what
 * `failure` makes of the error it threw (an AcpError: code, data, message).
 */
function outcomeLog(success: string, failure: (error: { code: string; data?: unknown; message: string }) => string) {
  const outcomes: string[] = [];
  const attempt = async (call: () => unknown) => {
    try {
      await call();
      outcomes.push(success);
    } catch (error) {
      outcomes.push(failure(error as { code: string; data?: unknown; message: string }));
    }
  };
  return { outcomes, attempt };
}

describe("a session's cwd is absolute (H10)", () => {
  /** An agent serving every method that takes a cwd, counting the calls that reach its code. */
  function cwdAgent() {
    const calls: string[] = [];
    const agent: AgentDefinition = {
      ...echoAgent,
      features: { loadSession: true },
      newSession: () => void calls.push("new"),
      loadSession: () => void calls.push("load"),
      resumeSession: () => void calls.push("resume"),
      listSessions: () => {
        calls.push("list");
        return { sessions: [] };
      },
    };
    return { agent, calls };
  }

  async function initialized(version: 1 | 2) {
    const { agent, calls } = cwdAgent();
    const { client } = rawPair(agent);
    await client.request("initialize", { protocolVersion: version } as never);
    return { client, calls };
  }

  it.each([1, 2] as const)("v%i: session/new, load, resume and list with a relative cwd get -32602 at /cwd; the agent's code never runs", async (version) => {
    const { client, calls } = await initialized(version);
    const requests: [string, object][] = [
      ["session/new", { cwd: "src", mcpServers: [] }],
      ["session/load", { sessionId: "s1", cwd: "./p", mcpServers: [] }],
      ["session/resume", { sessionId: "s1", cwd: "", mcpServers: [] }],
      ["session/list", { cwd: "C:relative-to-drive" }],
    ];
    for (const [method, params] of requests) {
      const failure = await client.request(method as never, params as never).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure, method).toBeInstanceOf(RpcError);
      expect(failure, method).toMatchObject({ code: ErrorCode.InvalidParams, data: { path: "/cwd", message: expect.stringContaining("absolute") } });
      expect((failure as RpcError).message, method).toContain(`Invalid params for ${method}: /cwd must be an absolute path`);
    }
    expect(calls).toEqual([]);
  });

  it.each([1, 2] as const)("v%i: POSIX, Windows drive and UNC paths are accepted; session/list without a cwd still works", async (version) => {
    const { client, calls } = await initialized(version);
    for (const cwd of ["/home/u/p", "C:\\Users\\u\\p", "d:/work", "\\\\server\\share\\p"]) {
      await expect(client.request("session/new", { cwd, mcpServers: [] } as never), cwd).resolves.toMatchObject({ sessionId: expect.any(String) });
    }
    await expect(client.request("session/list", {} as never)).resolves.toEqual({ sessions: [] });
    expect(calls).toEqual(["new", "new", "new", "new", "list"]);
  });

  it("v1: readTextFile, writeTextFile and createTerminal refuse a relative path, line 0 and a relative cwd before anything is sent (E4)", async () => {
    const { outcomes, attempt } = outcomeLog("sent", (error) => `${error.code} ${JSON.stringify(error.data)}: ${error.message}`);
    const { client } = rawPair({
      prompt: async (turn) => {
        await attempt(() => turn.readTextFile({ path: "notes/a.txt" }));
        await attempt(() => turn.readTextFile({ path: "/w/a.txt", line: 0 }));
        await attempt(() => turn.writeTextFile({ path: "", content: "x" }));
        await attempt(() => turn.createTerminal({ command: "ls", cwd: "sub" }));
        await attempt(() => turn.readTextFile({ path: "C:\\w\\a.txt", line: 1 }));
      },
    });
    await client.request("initialize", {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    } as never);
    client.setVersion(1);
    const served: string[] = [];
    client.onRequest("fs/read_text_file", (params) => {
      served.push(`read ${params.path}`);
      return { content: "" };
    });
    client.onRequest("fs/write_text_file", (params) => {
      served.push(`write ${params.path}`);
      return {};
    });
    client.onRequest("terminal/create", (params) => {
      served.push(`terminal ${params.cwd}`);
      return { terminalId: "t1" };
    });
    const { sessionId }: any = await client.request("session/new", { cwd: "/w", mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
    expect(outcomes).toEqual([
      'InvalidArgument {"path":"/path"}: readTextFile: path must be an absolute path (got "notes/a.txt")',
      'InvalidArgument {"path":"/line"}: readTextFile: line must be 1 or more (lines are 1-based)',
      'InvalidArgument {"path":"/path"}: writeTextFile: path must be an absolute path (got "")',
      'InvalidArgument {"path":"/cwd"}: createTerminal: cwd must be an absolute path (got "sub")',
      "sent",
    ]);
    expect(served).toEqual(["read C:\\w\\a.txt"]);
  });

  it("v2: a tool call's locations and diffs must name absolute paths; a refused update is not sent (E4)", async () => {
    const { outcomes, attempt } = outcomeLog("ok", (error) => `${error.code}: ${error.message}`);
    const { client, wire } = rawPair({
      prompt: async (turn) => {
        await attempt(() => turn.toolCall({ title: "edit", content: [{ type: "diff", path: "src/a.ts", newText: "x" }] }));
        const tool = turn.toolCall({ title: "read", locations: [{ path: "/w/a.ts", line: 1 }] });
        await attempt(() => tool.update({ locations: [{ path: "/w/a.ts" }, { path: "b.ts" }] }));
        await attempt(() => tool.appendContent({ type: "diff", path: "./c.ts", newText: "y" }));
        await attempt(() => tool.requestPermission([{ optionId: "ok", name: "OK", kind: "allow_once" }], { locations: [{ path: "d.ts" }] }));
        await attempt(() => tool.complete({ content: [{ type: "diff", path: "D:\\w\\c.ts", newText: "y" }] }));
      },
    });
    await client.request("initialize", { protocolVersion: 2 } as never);
    client.setVersion(2);
    client.onRequest("session/request_permission", () => ({ outcome: { outcome: "selected", optionId: "ok" } }) as never);
    const { sessionId }: any = await client.request("session/new", { cwd: "/w", mcpServers: [] } as never);
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] } as never);
    expect(outcomes).toEqual([
      expect.stringMatching(/^InvalidArgument: Tool call \S+: content\/0\/path must be an absolute path \(got "src\/a\.ts"\)$/),
      expect.stringMatching(/^InvalidArgument: Tool call \S+: locations\/1\/path must be an absolute path \(got "b\.ts"\)$/),
      expect.stringMatching(/^InvalidArgument: Tool call \S+: content\/path must be an absolute path \(got "\.\/c\.ts"\)$/),
      expect.stringMatching(/^InvalidArgument: Tool call \S+: locations\/0\/path must be an absolute path \(got "d\.ts"\)$/),
      "ok",
    ]);
    // On the wire: the "read" call's creation and its completion; nothing of the refused calls.
    const toolUpdates = wire.updates(sessionId).filter((update: any) => update.sessionUpdate.startsWith("tool_call"));
    expect(toolUpdates.map((update: any) => [update.sessionUpdate, update.title ?? update.status])).toEqual([
      ["tool_call_update", "read"],
      ["tool_call_update", "completed"],
    ]);
    expect(wire.received.some((message) => message.method === "session/request_permission")).toBe(false);
  });

  it("quotes at most 120 characters of a long relative cwd in the error", async () => {
    const { client } = await initialized(1);
    const failure: any = await client.request("session/new", { cwd: "x".repeat(100_000), mcpServers: [] } as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure.message).toContain("(100000 characters)");
    expect(failure.message.length).toBeLessThan(300);
  });
});
