// Black-box conformance of an acpkit agent on the wire. The agent (the scenario agent of
// fixtures/scenarios.mjs, served by the BUILT packages) runs as a real child process; this side
// writes JSON lines by hand and reads stdout line by line (raw-wire.ts), with no acpkit client or
// core in between. Every line the agent writes is audited: v1 lines against the OFFICIAL v1 JSON
// Schema, v2 lines against docs/protocol.md's rules (acpkit's v2 schema only as a secondary check).
// Rule numbers refer to docs/protocol.md.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { RawAgent, type Json } from "./raw-wire.js";

const fixture = fileURLToPath(new URL("./fixtures/serve-stdio.mjs", import.meta.url));

let agent: RawAgent | undefined;

/** Start the scenario agent serving `versions` ("1,2", "1" or "2"). */
function start(versions = "1,2", env: Record<string, string> = {}): RawAgent {
  agent = new RawAgent(fixture, [versions], env);
  return agent;
}

afterEach(async () => {
  const finished = agent;
  agent = undefined;
  if (finished === undefined) return;
  const exit = await finished.close();
  // S7: closing stdin ends the agent; it exits on its own and cleanly.
  expect(exit).toEqual({ code: 0, signal: null });
  expect(finished.violations, finished.stderr).toEqual([]);
});

const errorOf = (message: Json) => message.error as { code: number; message: string; data?: Json };

/** Initialize with `version` and open one session. */
async function ready(version: 1 | 2, versions = "1,2", initParams: Json = {}): Promise<{ a: RawAgent; sessionId: string }> {
  const a = start(versions);
  const init = await a.initialize(version, initParams);
  expect(init.result.protocolVersion).toBe(version);
  return { a, sessionId: await a.newSession() };
}

/** Index of the last element matching (Array#findLastIndex is ES2023, beyond the build target). */
function lastIndex(items: Json[], match: (item: Json) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (match(items[i])) return i;
  return -1;
}

function texts(updates: Json[]): string[] {
  const out: string[] = [];
  for (const update of updates) {
    if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") out.push(update.content.text);
    if (update.sessionUpdate === "agent_message") for (const block of update.content ?? []) if (block.type === "text") out.push(block.text);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
describe("§1 version negotiation and initialize (N1–N8)", () => {
  it.each([
    [1, 1],
    [2, 2],
    [0, 2],
    [3, 2],
    [65535, 2],
  ])("N3: an offer of %i is answered with %i (requested if supported, else the latest)", async (offered, answered) => {
    const a = start();
    const answer = await a.request("initialize", { protocolVersion: offered, clientInfo: { name: "raw", version: "0" } });
    expect(answer.result.protocolVersion).toBe(answered);
  });

  it("a v1-only agent answers 1 to an offer of 2, with a v1-shaped result (§1.2 downgrade)", async () => {
    const a = start("1");
    const answer = await a.request("initialize", { protocolVersion: 2, capabilities: {}, clientInfo: { name: "raw", version: "0" } });
    expect(answer.result.protocolVersion).toBe(1);
    expect(answer.result.agentCapabilities).toBeTypeOf("object");
    expect(answer.result).not.toHaveProperty("capabilities");
  });

  it("a v2-only agent answers 2 to an offer of 1 (never an error, N4)", async () => {
    const a = start("2");
    const answer = await a.request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
    expect(answer.result.protocolVersion).toBe(2);
    expect(answer.result.capabilities.session).toBeTypeOf("object");
  });

  it.each([
    ['the string "1.0.0"', { protocolVersion: "1.0.0" }],
    ["a missing protocolVersion", { clientInfo: { name: "raw", version: "0" } }],
    ["65536", { protocolVersion: 65536 }],
    ["-1", { protocolVersion: -1 }],
    ["1.5", { protocolVersion: 1.5 }],
    ["null", { protocolVersion: null }],
  ])("N1/§1.2: %s is -32602 (not a version answer), and a valid initialize still works after it", async (_label, params) => {
    const a = start();
    const id = "init-bad";
    const answer = await a.request("initialize", params, id);
    expect(answer.id).toBe(id);
    expect(errorOf(answer).code).toBe(-32602);
    expect(answer).not.toHaveProperty("result");
    // The failed initialize did not count: the gate is still closed, and initialize is allowed.
    const early = await a.request("session/new", { cwd: "/work", mcpServers: [] });
    expect(errorOf(early).code).toBe(-32600);
    const init = await a.initialize(2);
    expect(init.result.protocolVersion).toBe(2);
  });

  it("initialize with params missing entirely (or null) is -32602", async () => {
    const a = start();
    expect(errorOf(await a.request("initialize")).code).toBe(-32602);
    expect(errorOf(await a.request("initialize", null)).code).toBe(-32602);
  });

  it("v1 result: agentCapabilities as booleans, authMethods a list, no v2 fields (§1.3)", async () => {
    const a = start();
    const { result } = await a.initialize(1);
    expect(result).toEqual({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
        sessionCapabilities: { close: {} },
      },
      authMethods: [],
      agentInfo: { name: "scenario-agent", version: "1.0.0" },
    });
  });

  it("v2 result: capabilities as presence markers under `session` (§1.3)", async () => {
    const a = start();
    const { result } = await a.initialize(2);
    expect(result).toEqual({
      protocolVersion: 2,
      capabilities: { session: { prompt: { embeddedContext: {} }, mcp: { stdio: {} }, close: {}, load: {} }, auth: {} },
      authMethods: [],
      agentInfo: { name: "scenario-agent", version: "1.0.0" },
    });
  });

  it('§1.2 step 4: v2-shaped params on v1 are not rejected and mean "no client fs"', async () => {
    const { a, sessionId } = await ready(1, "1,2", { clientCapabilities: undefined, capabilities: { _meta: { x: 1 } } });
    const turn = a.prompt(sessionId, "fs-read");
    expect((await turn.response).result).toEqual({ stopReason: "end_turn" });
    expect(texts(a.updates(sessionId))).toEqual(["fs-error:Unsupported"]);
    expect(a.messages.some((m) => m?.method === "fs/read_text_file")).toBe(false);
  });

  it("§1.2 step 4: v1 clientCapabilities on v2 are ignored (not rejected); fs/* is never sent on v2", async () => {
    const { a, sessionId } = await ready(2, "1,2", { clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false } });
    const turn = a.prompt(sessionId, "fs-read");
    expect((await turn.response).result).toEqual({ stopReason: "end_turn" });
    expect(texts(a.updates(sessionId))).toEqual(["fs-error:Unsupported"]);
    expect(a.messages.some((m) => m?.method?.startsWith("fs/"))).toBe(false);
  });

  it("N8: a request before initialize gets -32600 with its own id; the agent then initializes normally", async () => {
    const a = start();
    const answer = await a.request("session/new", { cwd: "/work", mcpServers: [] }, "early");
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: "early", error: { code: -32600 } });
    const unknown = await a.request("_wiretest/anything", {});
    expect(errorOf(unknown).code).toBe(-32600);
    expect((await a.initialize(1)).result.protocolVersion).toBe(1);
  });

  it("N8: a notification before initialize is dropped without a reply", async () => {
    const a = start();
    a.notify("session/cancel", { sessionId: "nope" });
    a.notify("_wiretest/hello", {});
    const id = a.id();
    const answer = await a.request("session/new", { cwd: "/" }, id);
    expect(errorOf(answer).code).toBe(-32600);
    // Only the answer to our request came back.
    expect(a.messages).toEqual([answer]);
  });

  it("N8: a batch before initialize gets ONE -32600 object with id null (not an array)", async () => {
    const a = start();
    a.send([
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 2 } },
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } },
    ]);
    const reply = await a.waitFor(() => true);
    expect(reply).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    // The batched initialize did not initialize the connection.
    expect((await a.initialize(2)).result.protocolVersion).toBe(2);
    expect(a.messages).toHaveLength(2);
  });

  it("N8/N5: a second initialize gets -32600 and does not change the version", async () => {
    const a = start();
    await a.initialize(1);
    const again = await a.request("initialize", { protocolVersion: 2, capabilities: {} });
    expect(errorOf(again).code).toBe(-32600);
    // Still v1: a batch is refused as on v1 (§8.2), which a v2 connection would accept.
    a.send([{ jsonrpc: "2.0", id: "b1", method: "_wiretest/x" }]);
    const reply = await a.waitFor((m) => !Array.isArray(m) && m?.id === null);
    expect(errorOf(reply).code).toBe(-32600);
  });

  it("N7: session/prompt before session/new is an unknown session (-32002)", async () => {
    const a = start();
    await a.initialize(2);
    const answer = await a.request("session/prompt", { sessionId: "sess_none", prompt: [] });
    expect(errorOf(answer).code).toBe(-32002);
  });
});

// ---------------------------------------------------------------------------------------------
describe("§2 method inventory", () => {
  it.each([1, 2] as const)("v%i: unknown `_` request → -32601; unknown `_` notification → no reply", async (version) => {
    const a = start();
    await a.initialize(version);
    const before = a.messages.length;
    a.notify("_vendor/ping", { hello: 1 });
    const answer = await a.request("_vendor/do", {}, "x1");
    expect(answer).toMatchObject({ id: "x1", error: { code: -32601 } });
    expect(a.messages.slice(before)).toEqual([answer]);
  });

  it.each([
    [2, "fs/read_text_file", { sessionId: "s", path: "/a" }],
    [2, "fs/write_text_file", { sessionId: "s", path: "/a", content: "" }],
    [2, "terminal/create", { sessionId: "s", command: "ls" }],
    [1, "fs/read_text_file", { sessionId: "s", path: "/a" }],
    [1, "session/list", {}],
    [2, "session/set_mode", { sessionId: "s", modeId: "m" }],
    [1, "state_update", {}],
  ] as const)("v%i: %s is not an agent method → -32601", async (version, method, params) => {
    const a = start();
    await a.initialize(version);
    expect(errorOf(await a.request(method, params)).code).toBe(-32601);
  });

  it("v2: $/cancel_request is ignored (no reply, the prompt is not cancelled)", async () => {
    const { a, sessionId } = await ready(2);
    const turn = a.prompt(sessionId, "permission");
    const ask = await a.agentRequest("session/request_permission");
    a.notify("$/cancel_request", { requestId: turn.id });
    await a.barrier();
    a.respond(ask.id, { outcome: { outcome: "selected", optionId: "ok" } });
    expect((await turn.response).result).toEqual({ stopReason: "end_turn" });
    expect(texts(a.updates(sessionId))).toEqual(["outcome:selected"]);
  });

  it("v1: $/cancel_request for the prompt is accepted and ends the turn cancelled (§4.9)", async () => {
    const { a, sessionId } = await ready(1);
    const turn = a.prompt(sessionId, "wait");
    await a.waitFor((m) => m?.method === "session/update");
    a.notify("$/cancel_request", { requestId: turn.id });
    const answer = await turn.response;
    // Either answer is allowed by §4.9; acpkit ends the turn with the stop reason.
    expect(answer.result ?? errorOf(answer).code).toEqual(answer.result ? { stopReason: "cancelled" } : -32800);
  });
});

// ---------------------------------------------------------------------------------------------
describe("§3 / §8.1 stdio framing (S3, S8)", () => {
  it("an unparsable line gets -32700 with id null and the connection keeps working", async () => {
    const a = start();
    a.writeRaw('{"jsonrpc":"2.0","id":1,"method":"initialize",\n');
    const reply = await a.waitFor(() => true);
    expect(reply).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect((await a.initialize(2)).result.protocolVersion).toBe(2);
    a.writeRaw("not json at all\n");
    await a.waitFor((m) => m?.error?.code === -32700, 2);
    await a.newSession();
  });

  it("a v2 batch line that is not valid JSON gets one -32700 with id null", async () => {
    const a = start();
    await a.initialize(2);
    a.writeRaw('[{"jsonrpc":"2.0","id":1,"method":"_x"},\n');
    const reply = await a.waitFor((m) => m?.id === null);
    expect(errorOf(reply).code).toBe(-32700);
    expect(Array.isArray(reply)).toBe(false);
  });

  it("empty lines are skipped, CRLF lines accepted, one trailing \\r stripped", async () => {
    const a = start();
    a.writeRaw("\n\n\r\n");
    const init = { jsonrpc: "2.0", id: "crlf", method: "initialize", params: { protocolVersion: 1 } };
    a.track(init);
    a.writeRaw(`${JSON.stringify(init)}\r\n`);
    const answer = await a.response("crlf");
    expect(answer.result.protocolVersion).toBe(1);
    expect(a.messages).toEqual([answer]);
  });

  it("several messages in one write, and one message split across writes (even inside a UTF-8 character)", async () => {
    const a = start();
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 2, clientInfo: { name: "ünïcødé ✓", version: "0" } },
    });
    const newSession = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/wörk", mcpServers: [] } });
    const bytes = Buffer.from(`${init}\n${newSession}\n`, "utf8");
    const cut = bytes.indexOf(Buffer.from("✓", "utf8")) + 1; // inside the 3-byte sequence
    a.track(JSON.parse(init));
    a.track(JSON.parse(newSession));
    a.writeRaw(bytes.subarray(0, cut));
    a.writeRaw(bytes.subarray(cut));
    expect((await a.response(1)).result.protocolVersion).toBe(2);
    expect((await a.response(2)).result.sessionId).toBeTypeOf("string");
  });

  it("an oversized line is discarded, the request in it is answered -32600 exactly once, and the connection survives", async () => {
    const a = start("1,2", { ACPKIT_TEST_MAX_MESSAGE_SIZE: "4096" });
    await a.initialize(2);
    const big = { jsonrpc: "2.0", id: "big", method: "_wiretest/big", params: { pad: "x".repeat(10_000) } };
    a.track(big);
    a.writeRaw(`${JSON.stringify(big)}\n`);
    await a.newSession();
    // The line was never handled (it is too big to read), but its request did get one answer.
    const answers = a.messages.filter((m) => m?.id === "big");
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ error: { code: -32600 } });
  });

  it.each([
    ["a number", "42"],
    ["a string", '"hello"'],
    ["null", "null"],
    ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":5,"method":"initialize","params":{"protocolVersion":1}}'],
    ["a non-string method", '{"jsonrpc":"2.0","id":5,"method":7}'],
    ["an object id", '{"jsonrpc":"2.0","id":{},"method":"initialize","params":{"protocolVersion":1}}'],
  ])("a line holding %s is -32600 with id null", async (_label, line) => {
    const a = start();
    a.writeRaw(`${line}\n`);
    const reply = await a.waitFor(() => true);
    expect(reply).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect((await a.initialize(1)).result.protocolVersion).toBe(1);
  });

  it.each(["wait", "permission"])("S7: closing stdin during a turn (%s) ends the agent process cleanly", async (scenario) => {
    const { a, sessionId } = await ready(2);
    a.prompt(sessionId, scenario);
    await a.waitFor((m) => m?.method === "session/update");
    // afterEach closes stdin and expects exit code 0 without a signal (no SIGKILL needed).
  });

  it("writes one compact JSON message per line (S3), escaping newlines inside strings", async () => {
    const { a, sessionId } = await ready(2);
    const turn = a.prompt(sessionId, "line1\nline2");
    await turn.response;
    expect(texts(a.updates(sessionId))).toEqual(["echo:line1\nline2"]);
    for (const line of a.lines) {
      expect(line).toBe(JSON.stringify(JSON.parse(line)));
    }
  });

  it("unknown properties are ignored, not rejected (§3.1, E5), also on `_meta` objects (X1)", async () => {
    const a = start();
    await a.initialize(2, { futureField: { x: 1 }, _meta: { "vendor/k": true } });
    const created = await a.request("session/new", { cwd: "/work", mcpServers: [], futureField: 1, _meta: null });
    const sessionId = created.result.sessionId;
    const answer = await a.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi", futureField: 2 }], _meta: { trace: "t" } });
    expect(answer.result).toEqual({ stopReason: "end_turn" });
  });

  it.each([1, 2] as const)("v%i: a notification with invalid params is dropped without a reply (§3.4, L2)", async (version) => {
    const { a, sessionId } = await ready(version);
    const turn = a.prompt(sessionId, "wait");
    await a.waitFor((m) => m?.method === "session/update");
    const before = a.messages.length;
    a.notify("session/cancel", { session_id: sessionId });
    a.notify("session/cancel", {});
    expect(await a.barrier()).toBe(before);
    a.notify("session/cancel", { sessionId });
    expect((await turn.response).result).toEqual({ stopReason: "cancelled" });
  });

  it("our request ids and the agent's are independent spaces (§3.1, E2)", async () => {
    const { a, sessionId } = await ready(2);
    // Our prompt uses id 0, the id an agent counting from 0 gives its own first request.
    const turn = a.prompt(sessionId, "permission", 0);
    const ask = await a.agentRequest("session/request_permission");
    expect(ask.id).not.toBeNull();
    a.respond(ask.id, { outcome: { outcome: "selected", optionId: "ok" } });
    expect((await turn.response).result).toEqual({ stopReason: "end_turn" });
    expect(texts(a.updates(sessionId))).toEqual(["outcome:selected"]);
  });

  it("string request ids are echoed unchanged, numeric ids stay numbers", async () => {
    const a = start();
    expect((await a.request("initialize", { protocolVersion: 2 }, "init-α")).id).toBe("init-α");
    expect((await a.request("session/new", { cwd: "/", mcpServers: [] }, 0)).id).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
describe("§8.2 batches", () => {
  it("v2: a mixed batch is answered with one array holding a response per request", async () => {
    const a = start();
    await a.initialize(2);
    a.send([
      { jsonrpc: "2.0", id: "n1", method: "session/new", params: { cwd: "/work", mcpServers: [] } },
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "whatever" } },
      { jsonrpc: "2.0", id: "u1", method: "_vendor/unknown", params: {} },
      { jsonrpc: "2.0", method: "_vendor/note", params: {} },
    ]);
    const reply = await a.waitFor((m) => Array.isArray(m));
    expect(reply).toHaveLength(2);
    const byId = new Map(reply.map((r: Json) => [r.id, r]));
    expect(typeof (byId.get("n1") as Json).result.sessionId).toBe("string");
    expect(errorOf(byId.get("u1")).code).toBe(-32601);
  });

  it("v2: `[]` gets a single -32600 object with id null", async () => {
    const a = start();
    await a.initialize(2);
    a.writeRaw("[]\n");
    const reply = await a.waitFor((m) => m?.id === null);
    expect(Array.isArray(reply)).toBe(false);
    expect(errorOf(reply).code).toBe(-32600);
  });

  it("v2: a batch of notifications only gets nothing back (never `[]`)", async () => {
    const a = start();
    await a.initialize(2);
    const before = a.messages.length;
    a.send([
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "x" } },
      { jsonrpc: "2.0", method: "_vendor/note" },
    ]);
    const at = await a.barrier();
    expect(at).toBe(before);
  });

  it("v2: an invalid entry gets its own -32600 with id null inside the array; the rest still runs", async () => {
    const a = start();
    await a.initialize(2);
    a.send([
      { jsonrpc: "2.0", id: "ok", method: "session/new", params: { cwd: "/", mcpServers: [] } },
      17,
      { jsonrpc: "2.0", id: "p", method: "session/prompt", params: { prompt: [] } },
    ]);
    const reply = await a.waitFor((m) => Array.isArray(m));
    expect(reply).toHaveLength(3);
    expect(reply.filter((r: Json) => r.id === null).map((r: Json) => r.error.code)).toEqual([-32600]);
    expect(reply.find((r: Json) => r.id === "ok").result.sessionId).toBeTypeOf("string");
    expect(errorOf(reply.find((r: Json) => r.id === "p")).code).toBe(-32602);
  });

  it("v2: a batched request that runs a whole turn is answered inside the array", async () => {
    const { a, sessionId } = await ready(2);
    a.send([{ jsonrpc: "2.0", id: "bp", method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "hello" }] } }]);
    const reply = await a.waitFor((m) => Array.isArray(m));
    expect(reply).toEqual([{ jsonrpc: "2.0", id: "bp", result: { stopReason: "end_turn" } }]);
    expect(texts(a.updates(sessionId))).toEqual(["echo:hello"]);
    // O1 also inside a batch: the update came before the array.
    expect(a.messages.findIndex((m) => m?.method === "session/update")).toBeLessThan(a.indexOf(reply));
  });

  it("v1: an array line gets one -32600 with id null and none of its entries run", async () => {
    const a = start();
    await a.initialize(1);
    a.send([{ jsonrpc: "2.0", id: "v1b", method: "session/new", params: { cwd: "/", mcpServers: [] } }]);
    const reply = await a.waitFor((m) => m?.id === null);
    expect(Array.isArray(reply)).toBe(false);
    expect(errorOf(reply).code).toBe(-32600);
    await a.barrier();
    expect(a.messages.some((m) => m?.id === "v1b")).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
describe("§4.11 errors and §9 legacy shapes", () => {
  it.each([1, 2] as const)("v%i: unknown sessionId → -32002", async (version) => {
    const { a } = await ready(version);
    const answer = await a.request("session/prompt", { sessionId: "sess_missing", prompt: [{ type: "text", text: "hi" }] });
    expect(errorOf(answer).code).toBe(-32002);
  });

  it.each([1, 2] as const)("v%i: a concurrent prompt → -32600 with data.reason turn_in_progress; the first turn is unaffected (O4)", async (version) => {
    const { a, sessionId } = await ready(version);
    const first = a.prompt(sessionId, "wait");
    await a.waitFor((m) => m?.method === "session/update");
    const second = await a.prompt(sessionId, "hello").response;
    expect(errorOf(second).code).toBe(-32600);
    expect(errorOf(second).data).toMatchObject({ reason: "turn_in_progress" });
    a.notify("session/cancel", { sessionId });
    expect((await first.response).result).toEqual({ stopReason: "cancelled" });
  });

  it.each([
    [1, { type: "image", data: "aGk=", mimeType: "image/png" }],
    [2, { type: "image", data: "aGk=", mimeType: "image/png" }],
    [1, { type: "audio", data: "aGk=", mimeType: "audio/wav" }],
    [2, { type: "audio", data: "aGk=", mimeType: "audio/wav" }],
  ] as const)("v%i: a prompt block the agent did not advertise → -32602 (K1)", async (version, block) => {
    const { a, sessionId } = await ready(version);
    const answer = await a.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "look" }, block] });
    expect(errorOf(answer).code).toBe(-32602);
    expect(a.updates(sessionId)).toEqual([]);
  });

  it.each([1, 2] as const)("v%i: advertised blocks (resource with embeddedContext, resource_link baseline) are accepted (K1)", async (version) => {
    const { a, sessionId } = await ready(version);
    const answer = await a.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "hello" },
        { type: "resource", resource: { uri: "file:///a.py", mimeType: "text/x-python", text: "print(1)\n" } },
        { type: "resource_link", uri: "file:///b.pdf", name: "b.pdf" },
      ],
    });
    expect(answer.result).toEqual({ stopReason: "end_turn" });
  });

  it.each([1, 2] as const)("v%i: §9 `messages` instead of `prompt` → -32602 with data {legacyShape, expected} (L2, L4)", async (version) => {
    const { a, sessionId } = await ready(version);
    const answer = await a.request("session/prompt", { sessionId, messages: [{ role: "user", content: "hi" }] });
    const error = errorOf(answer);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/prompt/);
    expect(error.data).toMatchObject({ legacyShape: expect.stringContaining("messages"), expected: expect.stringContaining("prompt") });
  });

  it.each([1, 2] as const)("v%i: §9 `embedded_resource` block → -32602 naming the modern `resource` shape", async (version) => {
    const { a, sessionId } = await ready(version);
    const answer = await a.request("session/prompt", { sessionId, prompt: [{ type: "embedded_resource", resource: { uri: "file:///a", content: "x" } }] });
    expect(errorOf(answer).code).toBe(-32602);
    expect(errorOf(answer).data).toMatchObject({ legacyShape: expect.stringContaining("embedded_resource"), expected: expect.stringContaining("resource") });
  });

  it.each([1, 2] as const)("v%i: §9 `session_id` instead of `sessionId` → -32602 with legacy data", async (version) => {
    const { a, sessionId } = await ready(version);
    const answer = await a.request("session/prompt", { session_id: sessionId, prompt: [] });
    expect(errorOf(answer).code).toBe(-32602);
    expect(errorOf(answer).data).toMatchObject({ legacyShape: expect.stringContaining("session_id"), expected: expect.stringContaining("sessionId") });
  });

  it("§1.2: `info` is not a legacy shape on v1 (only pinned v2 knows the later draft): accepted there", async () => {
    const a = start();
    const answer = await a.request("initialize", { protocolVersion: 1, info: { name: "x", version: "1" } });
    expect(answer.result.protocolVersion).toBe(1);
  });

  it("§9: a legacy method name `acp/prompt` is -32601 naming the modern method", async () => {
    const { a, sessionId } = await ready(2);
    const answer = await a.request("acp/prompt", { sessionId, prompt: [] });
    expect(errorOf(answer).code).toBe(-32601);
    expect(errorOf(answer).message).toContain("session/prompt");
  });

  it.each([1, 2] as const)("v%i: params failing the schema → -32602 naming the JSON path", async (version) => {
    const { a, sessionId } = await ready(version);
    const answer = await a.request("session/prompt", { sessionId, prompt: [{ type: "text" }] });
    expect(errorOf(answer).code).toBe(-32602);
    expect(JSON.stringify(errorOf(answer))).toContain("/prompt/0");
  });

  it.each([1, 2] as const)('v%i: a handler failure is -32603 after the turn\'s updates; stop reason "error" is never sent', async (version) => {
    const { a, sessionId } = await ready(version);
    const failed = await a.prompt(sessionId, "fail").response;
    expect(errorOf(failed).code).toBe(-32603);
    expect(texts(a.updates(sessionId))).toEqual(["about to fail"]);
    const bad = await a.prompt(sessionId, "bad-stop").response;
    expect(errorOf(bad).code).toBe(-32603);
    expect(bad).not.toHaveProperty("result");
  });
});

// ---------------------------------------------------------------------------------------------
describe("§6 prompt turn on the baseline methods (D1): update shapes and ordering (O1, O3)", () => {
  async function fullTurn(version: 1 | 2, fs: boolean) {
    const initParams = version === 1 ? { clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal: false } } : {};
    const { a, sessionId } = await ready(version, "1,2", initParams);
    const turn = a.prompt(sessionId, "full");
    const ask = await a.agentRequest("session/request_permission");
    a.respond(ask.id, { outcome: { outcome: "selected", optionId: "allow" } });
    if (fs) {
      const read = await a.agentRequest("fs/read_text_file");
      expect(read.params).toEqual({ sessionId, path: "/home/user/project/notes.txt" });
      a.respond(read.id, { content: "hello notes" });
    }
    const response = await turn.response;
    return { a, sessionId, response, ask };
  }

  it("v1: plan, chunks, tool_call before its updates and the permission request, fs read, usage — then the response", async () => {
    const { a, sessionId, response, ask } = await fullTurn(1, true);
    expect(response.result).toEqual({ stopReason: "end_turn" });
    const updates = a.updates(sessionId);
    const tags = updates.map((u) => u.sessionUpdate);
    expect(tags[0]).toBe("plan");
    expect(updates[0].entries).toHaveLength(2);
    expect(tags).not.toContain("plan_update");
    expect(tags).not.toContain("agent_message");
    expect(tags).not.toContain("tool_call_content_chunk");
    // Thought and message text arrive as chunks.
    expect(
      updates
        .filter((u) => u.sessionUpdate === "agent_thought_chunk")
        .map((u) => u.content.text)
        .join(""),
    ).toBe("Let me look.");
    expect(texts(updates)).toEqual(["Reading ", "the file.", "The file says: hello notes"]);
    // The tool call: created by tool_call, which precedes the permission request (O3).
    const created = updates.find((u) => u.sessionUpdate === "tool_call");
    expect(created).toMatchObject({ title: "Read notes.txt", kind: "read", status: "pending", locations: [{ path: "/home/user/project/notes.txt" }] });
    const createdAt = a.messages.findIndex((m) => m?.params?.update?.sessionUpdate === "tool_call");
    expect(createdAt).toBeLessThan(a.indexOf(ask));
    expect(ask.params.toolCall.toolCallId).toBe(created.toolCallId);
    const toolUpdates = updates.filter((u) => u.sessionUpdate === "tool_call_update");
    // Appended content is sent as the full array (v1 has no content chunks).
    expect(toolUpdates.find((u) => u.content)?.content).toEqual([{ type: "content", content: { type: "text", text: "hello notes" } }]);
    expect(toolUpdates.at(-1).status).toBe("completed");
    expect(updates.at(-1)).toEqual({ sessionUpdate: "usage_update", used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } });
    // O1: every update before the response.
    const responseAt = a.indexOf(response);
    expect(lastIndex(a.messages, (m) => m?.method === "session/update")).toBeLessThan(responseAt);
  });

  it("v2: plan_update {type:items,id}, chunks with messageId, tool_call_update creates, content chunks — then the response", async () => {
    const { a, sessionId, response, ask } = await fullTurn(2, false);
    expect(response.result).toEqual({ stopReason: "end_turn" });
    const updates = a.updates(sessionId);
    const tags = updates.map((u) => u.sessionUpdate);
    expect(tags).not.toContain("tool_call");
    expect(tags).not.toContain("plan");
    expect(updates[0]).toMatchObject({ sessionUpdate: "plan_update", plan: { type: "items", id: "main" } });
    const thoughtChunks = updates.filter((u) => u.sessionUpdate === "agent_thought_chunk");
    expect(thoughtChunks.map((u) => u.content.text)).toEqual(["Let me ", "look."]);
    expect(new Set(thoughtChunks.map((u) => u.messageId)).size).toBe(1);
    const messageIds = updates.filter((u) => u.sessionUpdate.startsWith("agent_message")).map((u) => u.messageId);
    expect(new Set(messageIds).size).toBe(2); // two messages, never merged (M9)
    const toolEvents = updates.filter((u) => u.sessionUpdate.startsWith("tool_call"));
    expect(toolEvents[0]).toMatchObject({ sessionUpdate: "tool_call_update", title: "Read notes.txt", kind: "read", status: "pending" });
    expect(toolEvents.map((u) => u.sessionUpdate)).toEqual(["tool_call_update", "tool_call_update", "tool_call_content_chunk", "tool_call_update"]);
    expect(toolEvents[2].content).toEqual({ type: "content", content: { type: "text", text: "(no client fs)" } });
    expect(ask.params.toolCall.toolCallId).toBe(toolEvents[0].toolCallId);
    expect(lastIndex(a.messages, (m) => m?.method === "session/update")).toBeLessThan(a.indexOf(response));
  });

  it.each([1, 2] as const)("v%i O3: a permission request for a tool call no update created yet is preceded by the creating update", async (version) => {
    const { a, sessionId } = await ready(version);
    const turn = a.prompt(sessionId, "permission-unseen");
    const ask = await a.agentRequest("session/request_permission");
    const creating = a.messages.find((m) => m?.method === "session/update" && m.params.update.toolCallId === "ext_1");
    expect(creating).toBeDefined();
    expect(a.indexOf(creating)).toBeLessThan(a.indexOf(ask));
    expect(creating.params.update).toMatchObject({
      sessionUpdate: version === 1 ? "tool_call" : "tool_call_update",
      toolCallId: "ext_1",
      title: "Run the build",
      kind: "execute",
    });
    a.respond(ask.id, { outcome: { outcome: "selected", optionId: "ok" } });
    expect((await turn.response).result).toEqual({ stopReason: "end_turn" });
    // Created once: a second permission request or update for the id does not create it again.
    expect(a.updates(sessionId).filter((u) => u.toolCallId === "ext_1")).toHaveLength(1);
  });

  it.each([1, 2] as const)("v%i O1: 300 updates, none awaited by the handler, all precede the response", async (version) => {
    const { a, sessionId } = await ready(version);
    const turn = a.prompt(sessionId, "burst 300");
    const response = await turn.response;
    expect(response.result).toEqual({ stopReason: "end_turn" });
    const updates = a.updates(sessionId);
    expect(updates).toHaveLength(300);
    expect(updates.map((u) => u.content.text)).toEqual(Array.from({ length: 300 }, (_, i) => `chunk ${i} `));
  });

  it.each([1, 2] as const)("v%i O1: nothing of an ended turn is written after its response", async (version) => {
    const { a, sessionId } = await ready(version);
    const waiting = a.prompt(sessionId, "wait");
    await a.waitFor((m) => m?.method === "session/update");
    a.notify("session/cancel", { sessionId });
    await waiting.response;
    const poke = await a.prompt(sessionId, "poke-old-turn").response;
    expect(poke.result).toEqual({ stopReason: "end_turn" });
    await a.barrier();
    expect(texts(a.updates(sessionId))).toEqual(["waiting", "poked"]);
  });

  it("v1: a custom stop reason reaches v1 as end_turn + _meta (B5, custom data only in _meta: X2); v2 gets it unchanged", async () => {
    const v1 = await ready(1);
    expect((await v1.a.prompt(v1.sessionId, "custom-stop").response).result).toEqual({
      stopReason: "end_turn",
      _meta: { "acpkit/v2StopReason": "_acpkit/budget_exhausted" },
    });
    await v1.a.close().then((exit) => expect(exit.code).toBe(0));
    expect(v1.a.violations).toEqual([]);
    const v2 = await ready(2);
    expect((await v2.a.prompt(v2.sessionId, "custom-stop").response).result).toEqual({ stopReason: "_acpkit/budget_exhausted" });
  });

  it.each([1, 2] as const)("v%i: session/load replays history before its response (user messages included)", async (version) => {
    const a = start();
    await a.initialize(version);
    const answer = await a.request("session/load", { sessionId: "sess_old", cwd: "/work", mcpServers: [] });
    expect(answer.result).toEqual({});
    const updates = a.updates("sess_old");
    const kinds = updates.map((u) => u.sessionUpdate);
    if (version === 1) expect(kinds).toEqual(["user_message_chunk", "agent_message_chunk"]);
    else expect(kinds).toEqual(["user_message", "agent_message"]);
    // And the loaded session works.
    expect((await a.prompt("sess_old", "hello").response).result).toEqual({ stopReason: "end_turn" });
  });

  it("v2: message replacement passes through as agent_message upserts with the same id", async () => {
    const { a, sessionId } = await ready(2);
    await a.prompt(sessionId, "replace").response;
    const updates = a.updates(sessionId);
    expect(updates.map((u) => [u.sessionUpdate, u.content])).toEqual([
      ["agent_message", [{ type: "text", text: "Hel" }]],
      ["agent_message", [{ type: "text", text: "Hello" }]],
      ["agent_message", [{ type: "text", text: "Bye" }]],
    ]);
    expect(new Set(updates.map((u) => u.messageId)).size).toBe(1);
  });

  it("v1: message replacement sends only the extension (B3), never a misleading chunk", async () => {
    const { a, sessionId } = await ready(1);
    await a.prompt(sessionId, "replace").response;
    const updates = a.updates(sessionId);
    expect(updates.map((u) => u.content.text)).toEqual(["Hel", "lo"]);
    expect(new Set(updates.map((u) => u.messageId)).size).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
describe("§6.3 cancellation (C1–C10)", () => {
  it.each([1, 2] as const)("v%i C7: session/cancel ends the turn with stopReason cancelled, even when the handler throws on abort", async (version) => {
    const { a, sessionId } = await ready(version);
    const turn = a.prompt(sessionId, "throw-on-abort");
    await a.waitFor((m) => m?.method === "session/update");
    const before = a.messages.length;
    a.notify("session/cancel", { sessionId });
    const response = await turn.response;
    expect(response.result).toEqual({ stopReason: "cancelled" });
    // C6: the update sent while stopping precedes the response; the cancel itself got no reply (C1).
    const after = a.messages.slice(before);
    expect(after.at(-1)).toBe(response);
    expect(texts(a.updates(sessionId))).toEqual(["working", "stopping"]);
    expect(after.filter((m) => m?.method === undefined)).toEqual([response]);
  });

  it.each([
    [1, "a cancelled outcome"],
    [2, "a cancelled outcome"],
    [1, "error -32800"],
    [2, "error -32800"],
    [1, "a late selected outcome"],
    [2, "a late selected outcome"],
  ] as const)("v%i C8: a permission request pending at cancel, answered with %s, never runs the tool", async (version, answer) => {
    const { a, sessionId } = await ready(version);
    const turn = a.prompt(sessionId, "permission");
    const ask = await a.agentRequest("session/request_permission");
    a.notify("session/cancel", { sessionId });
    if (answer === "a cancelled outcome") a.respond(ask.id, { outcome: { outcome: "cancelled" } });
    else if (answer === "error -32800") a.respondError(ask.id, -32800, "Request cancelled");
    else a.respond(ask.id, { outcome: { outcome: "selected", optionId: "ok" } });
    const response = await turn.response;
    expect(response.result).toEqual({ stopReason: "cancelled" });
    await a.barrier();
    const updates = a.updates(sessionId);
    expect(texts(updates)).toEqual(["outcome:cancelled"]);
    expect(updates.some((u) => u.status === "completed" || u.status === "in_progress")).toBe(false);
  });

  it.each([1, 2] as const)("v%i C8: error -32800 without a cancel counts as not approved", async (version) => {
    const { a, sessionId } = await ready(version);
    const turn = a.prompt(sessionId, "permission");
    const ask = await a.agentRequest("session/request_permission");
    a.respondError(ask.id, -32800, "Request cancelled");
    expect((await turn.response).result).toEqual({ stopReason: "end_turn" });
    expect(texts(a.updates(sessionId))).toEqual(["outcome:cancelled"]);
    expect(a.updates(sessionId).some((u) => u.status === "completed")).toBe(false);
  });

  it.each([1, 2] as const)("v%i C10: a cancel for an unknown or idle session is ignored (no reply, next turn not cancelled)", async (version) => {
    const { a, sessionId } = await ready(version);
    const before = a.messages.length;
    a.notify("session/cancel", { sessionId: "sess_unknown" });
    a.notify("session/cancel", { sessionId });
    expect(await a.barrier()).toBe(before);
    const response = await a.prompt(sessionId, "signal-check").response;
    expect(response.result).toEqual({ stopReason: "end_turn" });
    expect(texts(a.updates(sessionId))).toEqual(["aborted:false"]);
  });

  it.each([1, 2] as const)("v%i C10: a cancel after the turn ended is ignored; the earlier stop reason stands", async (version) => {
    const { a, sessionId } = await ready(version);
    const first = await a.prompt(sessionId, "hello").response;
    expect(first.result).toEqual({ stopReason: "end_turn" });
    a.notify("session/cancel", { sessionId });
    const second = await a.prompt(sessionId, "signal-check").response;
    expect(second.result).toEqual({ stopReason: "end_turn" });
    expect(texts(a.updates(sessionId))).toEqual(["echo:hello", "aborted:false"]);
  });

  it.each([1, 2] as const)("v%i: a cancel right behind the prompt (same write) still ends that turn cancelled", async (version) => {
    const { a, sessionId } = await ready(version);
    const id = a.id();
    const prompt = { jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "signal-check" }] } };
    a.sendTogether([prompt, { jsonrpc: "2.0", method: "session/cancel", params: { sessionId } }]);
    expect((await a.response(id)).result).toEqual({ stopReason: "cancelled" });
  });

  it("v1 C9: a cancel while a client fs read is pending sends $/cancel_request for it; the late answer is ignored", async () => {
    const { a, sessionId } = await ready(1, "1,2", { clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: false } });
    const turn = a.prompt(sessionId, "fs-read");
    const read = await a.agentRequest("fs/read_text_file");
    a.notify("session/cancel", { sessionId });
    const cancelRequest = await a.waitFor((m) => m?.method === "$/cancel_request");
    expect(cancelRequest.params).toEqual({ requestId: read.id });
    const response = await turn.response;
    expect(response.result).toEqual({ stopReason: "cancelled" });
    expect(a.indexOf(cancelRequest)).toBeLessThan(a.indexOf(response));
    const before = a.messages.length;
    a.respond(read.id, { content: "too late" });
    expect(await a.barrier()).toBe(before);
    expect(texts(a.updates(sessionId)).join()).not.toContain("too late");
  });

  it.each([1, 2] as const)("v%i: cancelling one session leaves another session's turn running", async (version) => {
    const { a, sessionId } = await ready(version);
    const other = await a.newSession();
    const waiting = a.prompt(sessionId, "wait");
    const asking = a.prompt(other, "permission");
    const ask = await a.agentRequest("session/request_permission");
    a.notify("session/cancel", { sessionId });
    expect((await waiting.response).result).toEqual({ stopReason: "cancelled" });
    a.respond(ask.id, { outcome: { outcome: "selected", optionId: "ok" } });
    expect((await asking.response).result).toEqual({ stopReason: "end_turn" });
    expect(texts(a.updates(other))).toEqual(["outcome:selected"]);
  });
});

// ---------------------------------------------------------------------------------------------
describe("§8.1 S7, S9: stdin ends while the agent still owes answers", () => {
  it.each([1, 2] as const)("v%i: requests written together with the end of stdin are all answered before the agent exits", async (version) => {
    const a = start();
    const fields = version === 1 ? { clientCapabilities: {} } : { capabilities: {} };
    a.sendTogether([
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, ...fields } },
      { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/work", mcpServers: [] } },
    ]);
    const answers = Promise.all([a.response(1), a.response(2)]);
    // The end of input follows at once, while the agent is still loading the version's validators.
    expect(await a.close()).toEqual({ code: 0, signal: null });
    const [init, session] = await answers;
    expect(init.result.protocolVersion).toBe(version);
    expect(typeof session.result.sessionId).toBe("string");
  });

  it.each([1, 2] as const)("v%i: a running turn ends with stopReason cancelled, after its last update", async (version) => {
    const { a, sessionId } = await ready(version);
    const turn = a.prompt(sessionId, "wait");
    await a.waitFor((m) => m?.method === "session/update");
    expect(await a.close()).toEqual({ code: 0, signal: null });
    const response = await turn.response;
    expect(response.result).toEqual({ stopReason: "cancelled" });
    expect(a.messages.at(-1)).toBe(response);
    expect(texts(a.updates(sessionId))).toEqual(["waiting"]);
  });

  it.each([1, 2] as const)("v%i: a permission request the client can no longer answer resolves as cancelled", async (version) => {
    const { a, sessionId } = await ready(version);
    const turn = a.prompt(sessionId, "permission");
    await a.agentRequest("session/request_permission");
    expect(await a.close()).toEqual({ code: 0, signal: null });
    expect((await turn.response).result).toEqual({ stopReason: "cancelled" });
    expect(texts(a.updates(sessionId))).toEqual(["outcome:cancelled"]);
  });

  // The grace below is an hour, far past the test's own limit: an agent that waited for it would
  // fail by timeout. Nothing left to answer (or the last answer sent) must end the process at once.
  const HOUR_GRACE = { ACPKIT_TEST_INPUT_END_GRACE_MS: String(60 * 60 * 1000) };

  it.each([
    ["before initialize", 0],
    ["after initialize", 1],
    ["after a finished turn", 2],
  ] as const)("an idle agent exits as soon as its stdin ends (%s), without waiting out inputEndGraceMs", async (_label, steps) => {
    agent = new RawAgent(fixture, ["1,2"], HOUR_GRACE);
    const a = agent;
    if (steps >= 1) await a.initialize(2);
    if (steps >= 2) {
      const sessionId = await a.newSession();
      expect((await a.prompt(sessionId, "hello").response).result).toEqual({ stopReason: "end_turn" });
    }
    expect(await a.close()).toEqual({ code: 0, signal: null });
  });

  it("an agent with a turn running answers it (cancelled) and exits as soon as it is done, without waiting out inputEndGraceMs", async () => {
    agent = new RawAgent(fixture, ["1,2"], HOUR_GRACE);
    const a = agent;
    await a.initialize(2);
    const sessionId = await a.newSession();
    const turn = a.prompt(sessionId, "wait");
    await a.waitFor((m) => m?.method === "session/update");
    expect(await a.close()).toEqual({ code: 0, signal: null });
    expect((await turn.response).result).toEqual({ stopReason: "cancelled" });
  });

  it("a handler that ignores cancellation is cut off after inputEndGraceMs, and the agent still exits cleanly", async () => {
    agent = new RawAgent(fixture, ["1,2"], { ACPKIT_TEST_INPUT_END_GRACE_MS: "300" });
    const a = agent;
    await a.initialize(2);
    const sessionId = await a.newSession();
    const turn = a.prompt(sessionId, "hang");
    await a.waitFor((m) => m?.method === "session/update");
    const answered = await Promise.race([turn.response.then(() => true), a.close().then(() => false)]);
    expect(answered).toBe(false);
    expect(await a.close()).toEqual({ code: 0, signal: null });
    expect(texts(a.updates(sessionId))).toEqual(["hanging"]);
  });
});

// ---------------------------------------------------------------------------------------------
describe("§3.1 E8: a client that keeps asking without waiting is refused, not buffered", () => {
  it("runs 1024 prompts at once, answers the rest at once with -32603 too_many_requests, and serves again once one ends", async () => {
    // 1,030 sessions, so that 1,030 prompts can run at once: over the default maxSessions (1024).
    const a = start("1,2", { ACPKIT_TEST_MAX_SESSIONS: "2048" });
    expect((await a.initialize(2)).result.protocolVersion).toBe(2);
    const first = await a.newSession();
    const sessions = [first];
    for (let i = 1; i < 1030; i++) sessions.push(await a.newSession());
    const ids = sessions.map(() => a.id());
    const answers = ids.map((id) => a.response(id));
    a.sendTogether(
      sessions.map((sessionId, i) => ({
        jsonrpc: "2.0",
        id: ids[i],
        method: "session/prompt",
        params: { sessionId, prompt: [{ type: "text", text: "wait" }] },
      })),
    );
    const refused = await Promise.all(answers.slice(1024));
    for (const answer of refused) expect(errorOf(answer)).toMatchObject({ code: -32603, data: { reason: "too_many_requests", limit: 1024 } });
    // The first 1024 are running: cancelling one ends it, and the refused prompt can then be sent again.
    a.notify("session/cancel", { sessionId: sessions[0] });
    expect((await answers[0]!).result).toEqual({ stopReason: "cancelled" });
    const again = a.prompt(sessions[1029]!, "hello");
    expect((await again.response).result).toEqual({ stopReason: "end_turn" });
    // Closing stdin cancels the rest (S9); every one of them is answered before the agent exits.
    expect(await a.close()).toEqual({ code: 0, signal: null });
    const ended = await Promise.all(answers.slice(1, 1024));
    expect(ended.every((answer) => answer.result?.stopReason === "cancelled")).toBe(true);
  });
});
