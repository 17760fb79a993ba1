// The built-in agent's slash commands, over a memory pair, for both protocol versions.
import { afterEach, describe, expect, it } from "vitest";
import { RpcError } from "@acpkit/core";
import { chunkText, CWD, runPrompt, startBuiltinAgent, tagRuns, type Started } from "./agent-support.js";

let started: Started | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

async function start(options: Parameters<typeof startBuiltinAgent>[0] = {}): Promise<Started> {
  started = await startBuiltinAgent(options);
  return started;
}

async function expectRpcError(promise: PromiseLike<unknown>, code: number, message: RegExp): Promise<void> {
  const error = await Promise.resolve(promise).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  expect((error as RpcError).code).toBe(code);
  expect((error as RpcError).message).toMatch(message);
}

describe.each([1, 2] as const)("slash commands on protocol v%i", (version) => {
  it("/echo streams the text back as chunks of one message, split at words", async () => {
    const { session, wire } = await start({ offer: version });
    const text = "hello  brave\nnew world ";
    const { updates, stopReason } = await runPrompt(session, `/echo ${text}`);
    expect(stopReason).toBe("end_turn");
    expect(updates.every((u) => u.sessionUpdate === "agent_message_chunk")).toBe(true);
    expect(updates.length).toBe(5); // "hello", "  brave", "\nnew", " world", " "
    const ids = new Set(updates.map((u) => (u as { messageId: string }).messageId));
    expect(ids.size).toBe(1);
    expect(chunkText(updates, "agent_message_chunk")).toBe(text);
    // On the wire too: v1 chunks carry the (optional) messageId, v2 the required one.
    // (after the command list announced right after session/new)
    const onWire = wire.updates().filter((u) => u.sessionUpdate !== "available_commands_update");
    expect(wire.updates()[0]?.sessionUpdate).toBe("available_commands_update");
    expect(onWire.map((u) => u.sessionUpdate)).toEqual(Array(5).fill("agent_message_chunk"));
    expect(onWire.every((u) => u.messageId === [...ids][0])).toBe(true);
  });

  it("/echo without text is a -32602 error", async () => {
    const { session } = await start({ offer: version });
    await expectRpcError(session.prompt("/echo   "), -32602, /\/echo needs TEXT/);
  });

  it("/wait sends one chunk, then ends cancelled once the client cancels", async () => {
    const { session } = await start({ offer: version });
    const turn = session.prompt("/wait");
    const iterator = turn[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    expect(first.value).toMatchObject({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Waiting until the turn is cancelled…" } });
    expect(turn.done).toBe(false);
    await turn.cancel();
    expect((await turn).stopReason).toBe("cancelled");
  });

  it("/permission allowed: pending → permission → in_progress → completed, then end_turn", async () => {
    const { session, permissionRequests } = await start({ offer: version, permission: "allow" });
    const { updates, stopReason } = await runPrompt(session, "/permission");
    expect(stopReason).toBe("end_turn");
    expect(permissionRequests).toHaveLength(1);
    expect(permissionRequests[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "reject_once"]);
    const statuses = updates
      .filter((u) => u.sessionUpdate === "tool_call_update")
      .map((u) => (u as { status?: string }).status)
      .filter(Boolean);
    expect(statuses).toEqual(["pending", "in_progress", "completed"]);
    const tool = session.state.toolCalls[0]!;
    expect(tool).toMatchObject({ kind: "edit", status: "completed", title: "Edit hello.txt" });
    expect(tool.locations?.[0]?.path).toBe(`${CWD}/hello.txt`);
    expect(JSON.stringify(tool.content)).toContain("Applied the edit");
    expect(session.state.messages.at(-1)?.content).toEqual([{ type: "text", text: "Permission granted: the edit was applied." }]);
  });

  it("/permission rejected: the tool call is marked failed with a skipped note, end_turn", async () => {
    const { session } = await start({ offer: version, permission: "reject" });
    const { stopReason } = await runPrompt(session, "/permission");
    expect(stopReason).toBe("end_turn");
    const tool = session.state.toolCalls[0]!;
    expect(tool.status).toBe("failed");
    expect(JSON.stringify(tool.content)).toContain("Skipped: permission was not granted.");
    expect(session.state.messages.at(-1)?.content).toEqual([{ type: "text", text: "Permission not granted: the edit was skipped." }]);
  });

  it("/permission cancelled while asking: stop reason cancelled and nothing after the request", async () => {
    const { session, wire } = await start({ offer: version, permission: "cancel-turn" });
    const { stopReason } = await runPrompt(session, "/permission");
    expect(stopReason).toBe("cancelled");
    const askedAt = wire.received.findIndex((m) => m.method === "session/request_permission");
    expect(askedAt).toBeGreaterThan(-1);
    expect(wire.received.slice(askedAt + 1).filter((m) => m.method === "session/update")).toEqual([]);
  });

  it("/stop ends with a known stop reason", async () => {
    const { session } = await start({ offer: version });
    expect((await runPrompt(session, "/stop max_tokens")).stopReason).toBe("max_tokens");
    expect((await runPrompt(session, "/stop refusal")).stopReason).toBe("refusal");
  });

  it("/stop refuses a reason that is neither known nor custom", async () => {
    const { session } = await start({ offer: version });
    await expectRpcError(session.prompt("/stop nonsense"), -32602, /stop reason "nonsense" is not one of end_turn/);
    // `error` is the later draft's stop reason; on v1 and the pinned v2 the turn is an error response.
    await expectRpcError(session.prompt("/stop error"), -32603, /the turn ended with stop reason error/);
    await expectRpcError(session.prompt("/stop"), -32602, /\/stop needs a REASON/);
  });

  it("/error makes the handler fail: a -32603 JSON-RPC error", async () => {
    const { session } = await start({ offer: version });
    await expectRpcError(session.prompt("/error"), -32603, /failed on purpose/);
    // The session survives a failed turn.
    expect((await runPrompt(session, "/echo still here")).stopReason).toBe("end_turn");
  });

  it("/stream N sends N numbered chunks of about 40 characters in one message", async () => {
    const { session } = await start({ offer: version });
    const { updates, stopReason } = await runPrompt(session, "/stream 1000");
    expect(stopReason).toBe("end_turn");
    expect(updates).toHaveLength(1000);
    const texts = updates.map((u) => (u as { content: { text: string } }).content.text);
    expect(texts.every((t) => t.length === 40)).toBe(true);
    expect(texts.map((t) => Number(t.split(" ")[0]))).toEqual([...Array(1000).keys()]);
    expect(new Set(updates.map((u) => (u as { messageId: string }).messageId)).size).toBe(1);
    expect((await runPrompt(session, "/stream 0")).updates).toEqual([]);
  });

  it("/stream with a bad count is a -32602 error", async () => {
    const { session } = await start({ offer: version });
    await expectRpcError(session.prompt("/stream lots"), -32602, /\/stream needs N.*"lots"/);
    await expectRpcError(session.prompt("/stream 99999999999"), -32602, /\/stream needs N/);
  });

  it("an unknown command is a -32602 error listing the commands", async () => {
    const { session } = await start({ offer: version });
    await expectRpcError(session.prompt("/frobnicate now"), -32602, /Unknown command "\/frobnicate".*\/echo TEXT.*\/stream N/);
  });
});

describe("/read", () => {
  it("v1 with fs.readTextFile: reads through the client (path resolved against the session cwd) and reports the size", async () => {
    const requests: unknown[] = [];
    const { session, wire } = await start({
      offer: 1,
      fs: {
        readTextFile(request) {
          requests.push(request);
          return "héllo\nworld\n";
        },
      },
    });
    const { stopReason } = await runPrompt(session, "/read notes/todo.md");
    expect(stopReason).toBe("end_turn");
    expect(requests).toEqual([{ sessionId: session.sessionId, path: `${CWD}/notes/todo.md` }]);
    // The read happens inside a v1 tool_call of kind read, created before the fs request (O3).
    const toolCallAt = wire.received.findIndex((m) => m.params?.update?.sessionUpdate === "tool_call");
    const readAt = wire.received.findIndex((m) => m.method === "fs/read_text_file");
    expect(toolCallAt).toBeGreaterThan(-1);
    expect(toolCallAt).toBeLessThan(readAt);
    expect(session.state.toolCalls[0]).toMatchObject({ kind: "read", status: "completed" });
    expect(session.state.messages.at(-1)?.content).toEqual([{ type: "text", text: `Read ${CWD}/notes/todo.md: 13 bytes (UTF-8), 2 lines.` }]);
  });

  it("v1: an absolute path is used as is; a client error fails the tool call and is reported, end_turn", async () => {
    const { session } = await start({
      offer: 1,
      fs: {
        readTextFile() {
          throw new Error("no such file");
        },
      },
    });
    const { stopReason } = await runPrompt(session, "/read /etc/missing.txt");
    expect(stopReason).toBe("end_turn");
    expect(session.state.toolCalls[0]).toMatchObject({ kind: "read", status: "failed", locations: [{ path: "/etc/missing.txt" }] });
    expect((session.state.messages.at(-1)!.content[0] as { text: string }).text).toMatch(/^Cannot read \/etc\/missing.txt: .*no such file/);
  });

  it("v1 without the fs capability: no request, a message says why", async () => {
    const { session, wire } = await start({ offer: 1 });
    const { stopReason } = await runPrompt(session, "/read README.md");
    expect(stopReason).toBe("end_turn");
    expect(wire.received.some((m) => m.method === "fs/read_text_file")).toBe(false);
    expect(session.state.messages.at(-1)?.content).toEqual([
      { type: "text", text: `Cannot read ${CWD}/README.md: the client has no file system on this connection (it did not advertise fs.readTextFile).` },
    ]);
  });

  it("v2: no client file system, a message says why", async () => {
    const { session } = await start({ offer: 2 });
    const { stopReason } = await runPrompt(session, "/read README.md");
    expect(stopReason).toBe("end_turn");
    expect((session.state.messages.at(-1)!.content[0] as { text: string }).text).toBe(
      `Cannot read ${CWD}/README.md: the client has no file system on this connection (protocol v2 has no fs/* methods).`,
    );
  });

  it("without a PATH is a -32602 error", async () => {
    const { session } = await start({ offer: 2 });
    await expectRpcError(session.prompt("/read"), -32602, /\/read needs a PATH/);
  });
});

describe("custom stop reasons", () => {
  it("v2 accepts /stop _custom", async () => {
    const { session } = await start({ offer: 2 });
    expect((await runPrompt(session, "/stop _acpkit/budget_exhausted")).stopReason).toBe("_acpkit/budget_exhausted");
  });

  it("v1 refuses /stop _custom with a -32602 naming the version", async () => {
    const { session } = await start({ offer: 1 });
    await expectRpcError(session.prompt("/stop _acpkit/budget_exhausted"), -32602, /custom \(v2\) value.*protocol v1/);
  });
});

describe("--max-protocol", () => {
  it("1: answers protocol 1 to a client offering 2, and runs the turn on v1", async () => {
    const { agent, session, wire } = await start({ maxProtocol: 1, offer: 2 });
    expect(agent.protocolVersion).toBe(1);
    expect(wire.received[0]!.result.protocolVersion).toBe(1);
    expect(wire.received[0]!.result.agentCapabilities).toBeDefined();
    const { updates, stopReason } = await runPrompt(session, "/permission");
    expect(stopReason).toBe("end_turn");
    expect(tagRuns(wire.updates()).slice(0, 2)).toEqual(["available_commands_update", "tool_call"]);
    expect(updates.length).toBeGreaterThan(0);
  });

  it("2 (default): answers 2 to a client offering 2 and 1 to a client offering 1", async () => {
    const v2 = await startBuiltinAgent({ offer: 2 });
    const v1 = await startBuiltinAgent({ offer: 1 });
    try {
      expect(v2.agent.protocolVersion).toBe(2);
      expect(v1.agent.protocolVersion).toBe(1);
      expect(v2.agent.agentInfo).toMatchObject({ name: "acpkit-agent" });
    } finally {
      await v2.close();
      await v1.close();
    }
  });
});
