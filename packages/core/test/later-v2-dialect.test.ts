// dialectTransport and the later-v2 codecs, message by message: what the runtime above gets, what
// the peer below gets, in order. Every message that goes to a later-draft peer is also checked
// against the official SDK 2.4.0's v2 schema (the oracle).
import { describe, expect, it } from "vitest";
import {
  dialectAwareRegistry,
  dialectOfInitializeResult,
  dialectTransport,
  type DialectTransport,
  isWellFormedMessage,
  type JsonRpcMessage,
  loadProtocolVersion,
  schemaRegistry,
  type Transport,
  type TransportReceiver,
} from "../src/index.js";
import { diffFromLater, diffToLater, gitPatchOf } from "../src/later-v2/index.js";
import { LaterV2Oracle } from "../../../test-support/later-v2-oracle.js";

type Json = Record<string, unknown>;

const loadLaterV2 = () => import("../src/later-v2/index.js");

/** A transport whose far end is the test: `peer` lists what was sent, `receive` delivers a frame. */
function fakeTransport() {
  const sent: Json[] = [];
  let receiver: TransportReceiver | undefined;
  let paused = false;
  const transport: Transport = {
    start: (r) => {
      receiver = r;
    },
    send: async (message) => {
      sent.push(message as Json);
    },
    close: async () => {},
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    closed: new Promise(() => {}),
  };
  return {
    transport,
    sent,
    receive: (frame: unknown) => receiver!.onMessage(typeof frame === "string" ? frame : JSON.stringify(frame)),
    isPaused: () => paused,
  };
}

/** The runtime's view: what it received (parsed), in order. */
function runtime(wire: DialectTransport) {
  const got: Json[] = [];
  wire.start({ onMessage: (m) => got.push(typeof m === "string" ? JSON.parse(m) : (m as Json)), onTransportError: () => {} });
  return got;
}

/** Resolves once `check` passes (the codec module loads asynchronously the first time). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(check()).toBe(true);
}

const LATER_INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 2, info: { name: "c", version: "1" }, capabilities: {} } };
const PINNED_RESULT = {
  protocolVersion: 2,
  agentInfo: { name: "a", version: "1" },
  capabilities: { session: { prompt: {}, mcp: { stdio: {} }, load: {}, list: {}, resume: {}, close: {} }, auth: { logout: {} } },
  authMethods: [{ type: "agent", id: "token", name: "Token" }],
};

async function laterAgent(versions: number[] = [1, 2]) {
  const fake = fakeTransport();
  const wire = dialectTransport(fake.transport, { side: "agent", versions, loadLaterV2 });
  const got = runtime(wire);
  const oracle = new LaterV2Oracle();
  const toPeer = fake.sent;
  const checkAll = () => {
    for (const message of toPeer) oracle.check(message, "agent_to_client");
  };
  return { fake, wire, got, oracle, checkAll };
}

describe("dialectTransport, agent side", () => {
  it("A1: a later initialize (info) is handed to the runtime as the model's, and its answer goes out in the later shape", async () => {
    const { fake, wire, got, checkAll, oracle } = await laterAgent();
    fake.receive(LATER_INIT);
    await until(() => got.length === 1);
    expect(got[0]).toEqual({ ...LATER_INIT, params: { protocolVersion: 2, clientInfo: { name: "c", version: "1" }, capabilities: {} } });
    expect(wire.dialect).toBeUndefined();
    await wire.send({ jsonrpc: "2.0", id: 1, result: PINNED_RESULT });
    expect(wire.dialect).toBe("v2-later");
    expect(fake.sent[0]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: 2,
        info: { name: "a", version: "1" },
        capabilities: { session: { prompt: {}, mcp: { stdio: {} } }, auth: {} },
        authMethods: [{ type: "agent", methodId: "token", name: "Token" }],
      },
    });
    oracle.check(LATER_INIT, "client_to_agent");
    checkAll();
    expect(oracle.problems).toEqual([]);
  });

  it("A1: a pinned or v1 initialize passes through untouched, and so does everything after it", async () => {
    const { fake, wire, got } = await laterAgent();
    const pinned = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2,"clientInfo":{"name":"c","version":"1"}}}';
    fake.receive(pinned);
    expect(got).toEqual([JSON.parse(pinned)]);
    await wire.send({ jsonrpc: "2.0", id: 1, result: PINNED_RESULT });
    expect(fake.sent[0]).toEqual({ jsonrpc: "2.0", id: 1, result: PINNED_RESULT });
    expect(wire.dialect).toBe("v2-pinned");
    const update = {
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s", update: { sessionUpdate: "plan_update", plan: { type: "items", id: "p", entries: [] } } },
    };
    await wire.send(update as JsonRpcMessage);
    expect(fake.sent[1]).toBe(update);
  });

  it("A2: -32022 when no supported version is at or below the requested one; the connection stays open for another initialize", async () => {
    const { fake, wire, got } = await laterAgent([2]);
    fake.receive({ ...LATER_INIT, params: { ...LATER_INIT.params, protocolVersion: 1 } });
    await until(() => fake.sent.length === 1);
    expect(fake.sent[0]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32022, message: "Unsupported protocol version 1: this agent supports 2", data: { requested: 1, supported: [2] } },
    });
    expect(got).toEqual([]);
    fake.receive({ ...LATER_INIT, id: 2 });
    await until(() => got.length === 1);
    expect(got[0]).toMatchObject({ id: 2, params: { protocolVersion: 2 } });
    await wire.send({ jsonrpc: "2.0", id: 2, result: PINNED_RESULT });
    expect(wire.dialect).toBe("v2-later");
  });

  it("A2: a newer requested version gets the highest supported one below it", async () => {
    const { fake, got } = await laterAgent([1, 2]);
    fake.receive({ ...LATER_INIT, params: { ...LATER_INIT.params, protocolVersion: 7 } });
    await until(() => got.length === 1);
    expect(got[0]).toMatchObject({ params: { protocolVersion: 2 } });
  });

  it("A6, A10: after the handshake: a batch gets one -32600 with id null, a null id gets -32600, tool_call/cancel of a call without cancel gets -32602", async () => {
    const { fake, wire, got } = await laterAgent();
    fake.receive(LATER_INIT);
    await until(() => got.length === 1);
    await wire.send({ jsonrpc: "2.0", id: 1, result: PINNED_RESULT });
    fake.receive([{ jsonrpc: "2.0", id: 5, method: "session/list", params: {} }]);
    fake.receive({ jsonrpc: "2.0", id: null, method: "session/list", params: {} });
    fake.receive({ jsonrpc: "2.0", id: 6, method: "tool_call/cancel", params: { sessionId: "s", toolCallId: "t" } });
    expect(fake.sent.slice(1)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request: JSON-RPC batches are not supported by the later v2 draft" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request: the later v2 draft does not allow a null request id" } },
      {
        jsonrpc: "2.0",
        id: 6,
        error: {
          code: -32602,
          message: 'Invalid params: tool call "t" is not cancellable (unknown, finished, or no capabilities.cancel)',
          data: { path: "/toolCallId" },
        },
      },
    ]);
    expect(got).toHaveLength(1);
  });

  it("malformed or odd messages reach the runtime as they came (the codec never answers or fixes them up); prototype names are not methods it maps", async () => {
    const { fake, wire, got } = await laterAgent();
    fake.receive(LATER_INIT);
    await until(() => got.length === 1);
    await wire.send({ jsonrpc: "2.0", id: 1, result: PINNED_RESULT });
    const odd = [
      '{"jsonrpc":"2.0","id":"a","method":"toString","params":{}}',
      '{"jsonrpc":"2.0","id":[],"method":"tool_call/cancel","params":{}}',
      '{"jsonrpc":"2.0","id":"b","method":"session/set_config_option","params":"text"}',
      '{"jsonrpc":"1.0","id":"c","method":"session/new","params":{}}',
      `{"jsonrpc":"2.0","id":9007199254740993,"method":"tool_call/cancel","params":{}}`,
    ];
    for (const line of odd) fake.receive(line);
    // Forwarded unchanged (raw text for the malformed ones); nothing answered by the codec itself.
    expect(got.slice(1)).toEqual(odd.map((line) => JSON.parse(line)));
    expect(fake.sent).toHaveLength(1);
    // A protocolVersion nested too deep to print is still answered once, by the version rule (-32602).
    const deep = `{"jsonrpc":"2.0","id":"d","method":"initialize","params":{"protocolVersion":${"[".repeat(20000)}${"]".repeat(20000)},"info":{}}}`;
    fake.receive(deep);
    expect(fake.sent.slice(1)).toEqual([
      {
        jsonrpc: "2.0",
        id: "d",
        error: expect.objectContaining({ code: -32602, data: { path: "/protocolVersion", message: "must be an integer from 0 to 65535" } }),
      },
    ]);
  });

  it("A3, A4: a prompt: receipt, echo and running at the turn's first update; idle with the stop reason for the runtime's answer", async () => {
    const { fake, wire, got, checkAll, oracle } = await laterAgent();
    fake.receive(LATER_INIT);
    await until(() => got.length === 1);
    await wire.send({ jsonrpc: "2.0", id: 1, result: PINNED_RESULT });
    const prompt = [{ type: "text", text: "hi" }];
    fake.receive({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt } });
    expect(got[1]).toMatchObject({ id: 2, method: "session/prompt" });
    expect(fake.sent).toHaveLength(1);
    await wire.send({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "yo" } } },
    });
    await wire.send({ jsonrpc: "2.0", id: 2, result: { stopReason: "max_tokens" } });
    const out = fake.sent.slice(1);
    const messageId = (out[0] as { result: { messageId: string } }).result.messageId;
    expect(out).toEqual([
      { jsonrpc: "2.0", id: 2, result: { messageId } },
      { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "user_message", messageId, content: prompt } } },
      { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "state_update", state: "running" } } },
      {
        jsonrpc: "2.0",
        method: "session/update",
        params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "yo" } } },
      },
      {
        jsonrpc: "2.0",
        method: "session/update",
        params: { sessionId: "s", update: { sessionUpdate: "state_update", state: "idle", stopReason: "max_tokens" } },
      },
    ]);
    checkAll();
    expect(oracle.problems).toEqual([]);
  });

  it("A4: a prompt refused before anything of its turn went out stays an error; one that fails after its receipt ends idle with stopReason error", async () => {
    const { fake, wire, got } = await laterAgent();
    fake.receive(LATER_INIT);
    await until(() => got.length === 1);
    await wire.send({ jsonrpc: "2.0", id: 1, result: PINNED_RESULT });
    fake.receive({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [{ type: "text", text: "a" }] } });
    await wire.send({ jsonrpc: "2.0", id: 2, error: { code: -32002, message: "Resource not found" } });
    expect(fake.sent.slice(1)).toEqual([{ jsonrpc: "2.0", id: 2, error: { code: -32002, message: "Resource not found" } }]);

    fake.receive({ jsonrpc: "2.0", id: 3, method: "session/prompt", params: { sessionId: "s", prompt: [{ type: "text", text: "b" }] } });
    await wire.send({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s", update: { sessionUpdate: "agent_message", messageId: "m", content: [] } },
    });
    await wire.send({ jsonrpc: "2.0", id: 3, error: { code: -32603, message: "Agent error: boom" } });
    expect(fake.sent.at(-1)).toEqual({
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId: "s",
        update: { sessionUpdate: "state_update", state: "idle", stopReason: "error", error: { code: -32603, message: "Agent error: boom" } },
      },
    });
    // Exactly one response for each prompt id.
    expect(fake.sent.filter((m) => m.id === 3)).toHaveLength(1);
  });
});

describe("dialectTransport, client side", () => {
  async function laterClient() {
    const fake = fakeTransport();
    const wire = dialectTransport(fake.transport, { side: "client", loadLaterV2 });
    const got = runtime(wire);
    await wire.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 2, info: { name: "c", version: "1" }, clientInfo: { name: "c", version: "1" } },
    });
    fake.receive({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: 2,
        info: { name: "a", version: "1" },
        capabilities: { session: {} },
        authMethods: [{ type: "agent", methodId: "t", name: "T" }],
      },
    });
    await until(() => got.length === 1);
    return { fake, wire, got };
  }

  it("A1, A7: a later answer becomes the model's: agentInfo, the baseline session markers, auth logout, auth method ids", async () => {
    const { wire, got } = await laterClient();
    expect(wire.dialect).toBe("v2-later");
    expect(got[0]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: 2,
        agentInfo: { name: "a", version: "1" },
        capabilities: { session: { load: {}, list: {}, resume: {}, close: {} }, auth: { logout: {} } },
        authMethods: [{ type: "agent", id: "t", name: "T" }],
      },
    });
  });

  it("A5: the receipt is kept from the runtime and the idle that ends the turn answers the prompt; an idle snapshot before the turn started does not", async () => {
    const { fake, wire, got } = await laterClient();
    await wire.send({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [{ type: "text", text: "x" }] } });
    const update = (body: Json) => fake.receive({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: body } });
    update({ sessionUpdate: "state_update", state: "idle" });
    update({ sessionUpdate: "state_update", state: "running" });
    update({ sessionUpdate: "state_update", state: "idle", stopReason: "refusal" });
    // The receipt comes last ({} as drafts before alpha.5 answer): the held answer goes out then.
    fake.receive({ jsonrpc: "2.0", id: 2, result: {} });
    expect(got.slice(1).map((m) => (m.method ? (m.params as { update: Json }).update : m))).toEqual([
      { sessionUpdate: "_acpkit/state_update", state: "idle" },
      { sessionUpdate: "_acpkit/state_update", state: "running" },
      { sessionUpdate: "_acpkit/state_update", state: "idle", stopReason: "refusal" },
      { jsonrpc: "2.0", id: 2, result: { stopReason: "refusal" } },
    ]);
  });

  it("A3, A5: stopReason error answers the prompt with the JSON-RPC error it carries", async () => {
    const { fake, wire, got } = await laterClient();
    await wire.send({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [{ type: "text", text: "x" }] } });
    fake.receive({ jsonrpc: "2.0", id: 2, result: { messageId: "u1" } });
    fake.receive({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s", update: { sessionUpdate: "state_update", state: "idle", stopReason: "error", error: { code: -32000, message: "quota" } } },
    });
    expect(got.at(-1)).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32000, message: "quota" } });
  });

  it("A5: chunk lines of the agent's own form reach the runtime as the raw text once learned; other updates still go through the codec", async () => {
    const fake = fakeTransport();
    const wire = dialectTransport(fake.transport, { side: "client", loadLaterV2 });
    const raw: unknown[] = [];
    wire.start({ onMessage: (m) => raw.push(m), onTransportError: () => {} });
    await wire.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 2, info: { name: "c", version: "1" } } });
    fake.receive({ jsonrpc: "2.0", id: 1, result: { protocolVersion: 2, info: { name: "a", version: "1" }, capabilities: {} } });
    await until(() => raw.length === 1);
    const chunk = (text: string) =>
      JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text } } },
      });
    fake.receive(chunk("first"));
    fake.receive(chunk("second"));
    fake.receive(
      JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "state_update", state: "running" } } }),
    );
    // The first chunk was parsed (and taught the form); the second passes as its own string.
    expect(typeof raw[1]).toBe("object");
    expect(raw[2]).toBe(chunk("second"));
    expect(raw[3]).toEqual({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s", update: { sessionUpdate: "_acpkit/state_update", state: "running" } },
    });
  });

  it('A7: a boolean option\'s "true"/"false" value id (the model\'s pinned form) goes out as a boolean once the agent announced the option as boolean', async () => {
    const { fake, wire } = await laterClient();
    fake.receive({
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId: "s",
        update: { sessionUpdate: "config_option_update", configOptions: [{ type: "boolean", configId: "fast", name: "Fast", currentValue: false }] },
      },
    });
    await wire.send({ jsonrpc: "2.0", id: 7, method: "session/set_config_option", params: { sessionId: "s", configId: "fast", value: "true" } });
    await wire.send({ jsonrpc: "2.0", id: 8, method: "session/set_config_option", params: { sessionId: "s", configId: "model", value: "true" } });
    expect(fake.sent.slice(-2).map((m) => m.params)).toEqual([
      { sessionId: "s", configId: "fast", type: "boolean", value: true },
      { sessionId: "s", configId: "model", type: "id", value: "true" },
    ]);
  });

  it("A7: the runtime's requests go out renamed: authenticate → auth/login, session/load → session/resume with replayFrom start, set_config_option typed", async () => {
    const { fake, wire } = await laterClient();
    await wire.send({ jsonrpc: "2.0", id: 2, method: "authenticate", params: { methodId: "t" } });
    await wire.send({ jsonrpc: "2.0", id: 3, method: "session/load", params: { sessionId: "s", cwd: "/w", mcpServers: [] } });
    await wire.send({ jsonrpc: "2.0", id: 4, method: "session/set_config_option", params: { sessionId: "s", configId: "fast", value: true } });
    expect(fake.sent.slice(1)).toEqual([
      { jsonrpc: "2.0", id: 2, method: "auth/login", params: { methodId: "t" } },
      { jsonrpc: "2.0", id: 3, method: "session/resume", params: { sessionId: "s", cwd: "/w", replayFrom: { type: "start" } } },
      { jsonrpc: "2.0", id: 4, method: "session/set_config_option", params: { sessionId: "s", configId: "fast", value: true, type: "boolean" } },
    ]);
    const oracle = new LaterV2Oracle();
    for (const message of fake.sent) oracle.check(message, "client_to_agent");
    expect(oracle.problems).toEqual([]);
  });
});

describe("diffs between the model and the later draft", () => {
  it("A8: a model diff becomes changes plus a git patch that rebuilds the new text; an added file's patch comes back as text", () => {
    const later = diffToLater({ type: "diff", path: "/w/new.txt", oldText: null, newText: "one\ntwo\n" });
    expect(later).toMatchObject({ type: "diff", changes: [{ operation: "add", path: "/w/new.txt" }], patch: { format: "git_patch" } });
    expect(diffFromLater(later)).toEqual({ item: { type: "diff", path: "/w/new.txt", oldText: null, newText: "one\ntwo\n" }, exact: true });
    const modified = diffToLater({ type: "diff", path: "/w/a.txt", oldText: "a\nb\n", newText: "a\nc\n" });
    expect(modified).toMatchObject({ changes: [{ operation: "modify", path: "/w/a.txt" }] });
    expect((modified.patch as { text: string }).text).toBe(gitPatchOf("/w/a.txt", "a\nb\n", "a\nc\n"));
    expect((modified.patch as { text: string }).text).toContain("-b\n+c\n");
  });

  it("A8: a later diff whose patch cannot rebuild the file is kept as _acpkit/diff_changes, and goes back to the later draft as it came", () => {
    const move = { type: "diff", changes: [{ operation: "move", oldPath: "/w/a", path: "/w/b" }] };
    const kept = diffFromLater(move);
    expect(kept).toEqual({ item: { type: "_acpkit/diff_changes", changes: move.changes }, exact: false });
    expect(diffToLater(kept.item)).toEqual(move);
    const modify = { type: "diff", changes: [{ operation: "modify", path: "/w/a" }], patch: { format: "git_patch", text: gitPatchOf("/w/a", "x\n", "y\n") } };
    expect(diffFromLater(modify).exact).toBe(false);
  });
});

describe("the dialect helpers of core's main entry", () => {
  it("dialectOfInitializeResult and isWellFormedMessage", () => {
    expect(dialectOfInitializeResult({ protocolVersion: 1 })).toBe("v1");
    expect(dialectOfInitializeResult({ protocolVersion: 2, agentInfo: { name: "a", version: "1" } })).toBe("v2-pinned");
    expect(dialectOfInitializeResult({ protocolVersion: 2, info: { name: "a", version: "1" } })).toBe("v2-later");
    expect(dialectOfInitializeResult({ protocolVersion: 3 })).toBeUndefined();
    expect(isWellFormedMessage({ jsonrpc: "2.0", id: 1, method: "m", params: {} })).toBe(true);
    expect(isWellFormedMessage({ jsonrpc: "2.0", id: null, method: "m" })).toBe(true);
    expect(isWellFormedMessage({ jsonrpc: "2.0", id: 2 ** 53 + 2, method: "m" })).toBe(false);
    expect(isWellFormedMessage({ jsonrpc: "2.0", id: 1, method: "m", params: "x" })).toBe(false);
    expect(isWellFormedMessage({ jsonrpc: "2.0", id: [], result: {} })).toBe(false);
  });

  it("dialectAwareRegistry drops the later-draft findings only while the connection speaks that draft", async () => {
    await loadProtocolVersion(2);
    let later = false;
    const registry = dialectAwareRegistry(schemaRegistry, () => later);
    const params = { sessionId: "s", update: { sessionUpdate: "tool_call_update", toolCallId: "t", status: "cancelled" } };
    expect(registry.checkOutgoing(2, "session/update", "params", params).valid).toBe(false);
    expect(registry.getMethod(2, "session/update")).toBe(schemaRegistry.getMethod(2, "session/update"));
    later = true;
    expect(registry.checkOutgoing(2, "session/update", "params", params).valid).toBe(true);
    expect(registry.getMethod(2, "session/update")!.validateParams(params).valid).toBe(true);
  });
});
