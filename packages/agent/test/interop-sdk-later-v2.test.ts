// Interop with the later v2 draft: the official SDK 2.4.0's v2 client (`experimental/v2`) drives
// our agent, a real child process over stdio (built dist/). Every line both ways is checked
// against the SDK's own v2 schema (the oracle); the SDK client validates what it receives too.
import { type ChildProcess, spawn } from "node:child_process";
import { PassThrough, Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp2 from "@agentclientprotocol/sdk/experimental/v2";
import { LaterV2Oracle } from "@acpkit/test-support/later-v2-oracle";
import { afterEach, describe, expect, it, vi } from "vitest";

const fixture = fileURLToPath(new URL("./fixtures/serve-stdio.mjs", import.meta.url));

let child: ChildProcess | undefined;
afterEach(() => {
  child?.stdin?.end();
  child?.kill();
  child = undefined;
});

/** Our agent as a child; the returned stream is the SDK's, with every line checked by `oracle` on its way. */
function startOurAgent(oracle: LaterV2Oracle, versions = "1,2"): { stream: acp2.Stream; stderr: string[] } {
  const stderr: string[] = [];
  child = spawn(process.execPath, [fixture, versions], { stdio: ["pipe", "pipe", "pipe"] });
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const tap = (direction: "client_to_agent" | "agent_to_client") => {
    let buffered = "";
    const through = new PassThrough();
    through.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() !== "") oracle.check(JSON.parse(line), direction);
        newline = buffered.indexOf("\n");
      }
    });
    return through;
  };
  const toAgent = tap("client_to_agent");
  toAgent.pipe(child.stdin!);
  const fromAgent = tap("agent_to_client");
  child.stdout!.pipe(fromAgent);
  return {
    stream: acp2.ndJsonStream(Writable.toWeb(toAgent) as WritableStream<Uint8Array>, Readable.toWeb(fromAgent) as ReadableStream<Uint8Array>),
    stderr,
  };
}

const INFO = { name: "sdk-v2-client", version: "2.4.0" };

/** The agent's text in `updates`: whole messages and chunks alike, in order. */
function spokenText(updates: acp2.SessionUpdate[]): string[] {
  return updates.flatMap((update) => {
    const body = update as { sessionUpdate: string; content?: unknown };
    if (body.sessionUpdate === "agent_message_chunk") return [(body.content as { text: string }).text];
    if (body.sessionUpdate === "agent_message" && Array.isArray(body.content)) return body.content.map((block: { text?: string }) => block.text ?? "");
    return [];
  });
}

/** Reads the session's updates up to and including the next idle; returns them and the idle's stop reason. */
async function untilIdle(
  session: acp2.ActiveSession,
): Promise<{ kinds: string[]; updates: acp2.SessionUpdate[]; stop: acp2.ActiveSessionMessage & { kind: "stop" } }> {
  const kinds: string[] = [];
  const updates: acp2.SessionUpdate[] = [];
  for (;;) {
    const message = await session.nextUpdate();
    kinds.push(message.update.sessionUpdate === "state_update" ? `state:${(message.update as { state: string }).state}` : message.update.sessionUpdate);
    updates.push(message.update);
    if (message.kind === "stop") return { kinds, updates, stop: message };
  }
}

describe("the SDK's later-v2 client drives our agent over stdio", () => {
  it("A3, A4, A9: negotiates the later dialect and runs turns: receipt, echo, running, updates, idle with the stop reason", async () => {
    const oracle = new LaterV2Oracle();
    const { stream } = startOurAgent(oracle);
    const permissions: acp2.RequestPermissionRequest[] = [];
    const app = acp2.client({ name: INFO.name }).onRequest("session/request_permission", ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: "selected", optionId: params.options[0]!.optionId } };
    });
    await app.connectWith(stream, async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: 2, info: INFO, capabilities: {} });
      expect(init.protocolVersion).toBe(2);
      expect(init.info).toEqual({ name: "scenario-agent", version: "1.0.0" });
      // The pinned markers the later draft made baseline are gone.
      expect(init.capabilities?.session).toEqual({ prompt: { embeddedContext: {} }, mcp: { stdio: {} } });

      const session = await ctx.buildSession("/work").start();
      const receipt = await session.prompt("full");
      expect(receipt.messageId).toEqual(expect.any(String));
      const full = await untilIdle(session);
      expect(full.kinds).toEqual([
        "user_message",
        "state:running",
        "plan_update",
        "agent_thought_chunk",
        "agent_thought_chunk",
        "agent_message_chunk",
        "agent_message_chunk",
        "tool_call_update",
        "tool_call_update",
        "tool_call_content_chunk",
        "tool_call_update",
        "agent_message",
        "usage_update",
        "state:idle",
      ]);
      // The echo carries the receipt's id; the plan uses the later `planId`.
      expect(full.updates[0]).toMatchObject({ sessionUpdate: "user_message", messageId: receipt.messageId, content: [{ type: "text", text: "full" }] });
      expect(full.updates[2]).toMatchObject({ plan: { type: "items", planId: "main" } });
      expect(full.stop.stopReason).toBe("end_turn");
      // The permission request is about the tool call, with its title.
      expect(permissions).toEqual([expect.objectContaining({ title: "Read notes.txt", subject: { type: "tool_call", toolCall: { toolCallId: "call_1" } } })]);

      // A handler error after the turn started ends it idle with stopReason error and the JSON-RPC error.
      await session.prompt("fail");
      const failed = await untilIdle(session);
      expect(failed.stop.update).toMatchObject({ state: "idle", stopReason: "error", error: { code: -32603, message: "Agent error: boom" } });

      // A custom stop reason passes as it is.
      await session.prompt("custom-stop");
      expect((await untilIdle(session)).stop.stopReason).toBe("_acpkit/budget_exhausted");

      // session/cancel is confirmed by idle cancelled.
      await session.prompt("wait");
      for (;;) {
        const message = await session.nextUpdate();
        if (message.update.sessionUpdate === "agent_message") break;
      }
      await ctx.notify("session/cancel", { sessionId: session.sessionId });
      expect((await untilIdle(session)).stop.stopReason).toBe("cancelled");
      session.dispose();
    });
    expect(oracle.problems).toEqual([]);
    expect([...oracle.seen]).toEqual(
      expect.arrayContaining([
        "client_to_agent initialize params",
        "agent_to_client initialize result",
        "agent_to_client session/prompt result",
        "agent_to_client session/update params",
        "agent_to_client session/request_permission params",
        "client_to_agent session/request_permission result",
      ]),
    );
  });

  it("A4: a refused prompt (unknown session) is a JSON-RPC error, not a receipt", async () => {
    const oracle = new LaterV2Oracle();
    const { stream } = startOurAgent(oracle);
    await acp2.client({ name: INFO.name }).connectWith(stream, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 2, info: INFO });
      await expect(ctx.request("session/prompt", { sessionId: "no-such-session", prompt: [{ type: "text", text: "hi" }] })).rejects.toMatchObject({
        code: -32002,
      });
    });
    expect(oracle.problems).toEqual([]);
  });

  it("A7, A10: session/resume with replayFrom start replays the history, then a state snapshot, then answers; another cursor is -32602", async () => {
    const oracle = new LaterV2Oracle();
    const { stream } = startOurAgent(oracle);
    const updates: acp2.SessionUpdate[] = [];
    const app = acp2.client({ name: INFO.name }).onNotification("session/update", ({ params }) => {
      updates.push(params.update);
    });
    await app.connectWith(stream, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 2, info: INFO });
      const { sessionId } = await ctx.request("session/new", { cwd: "/work" });
      await ctx.request("session/resume", { sessionId, cwd: "/work", replayFrom: { type: "start" } });
      // The SDK hands notifications to handlers on its own schedule; the wire order is checked by the oracle run below.
      await vi.waitFor(() => expect(updates).toHaveLength(3), { timeout: 10_000 });
      expect(updates.map((u) => u.sessionUpdate)).toEqual(["user_message", "agent_message", "state_update"]);
      expect(updates[2]).toEqual({ sessionUpdate: "state_update", state: "idle" });
      await expect(ctx.request("session/resume", { sessionId, cwd: "/work", replayFrom: { type: "_other" } })).rejects.toMatchObject({ code: -32602 });
      // tool_call/cancel on a tool call that never advertised cancel is -32602, as the draft says.
      await expect(ctx.request("tool_call/cancel", { sessionId, toolCallId: "nope" })).rejects.toMatchObject({ code: -32602 });
    });
    expect(oracle.problems).toEqual([]);
  });

  it("A10: a cancellable tool call is cancelled with tool_call/cancel (confirmed by its final status cancelled); agent terminals stream and exit; a command subject and stopReason error reach the SDK", async () => {
    const oracle = new LaterV2Oracle();
    const { stream } = startOurAgent(oracle);
    const permissions: acp2.RequestPermissionRequest[] = [];
    const app = acp2.client({ name: INFO.name }).onRequest("session/request_permission", ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: "selected", optionId: "run" } };
    });
    await app.connectWith(stream, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 2, info: INFO });
      const session = await ctx.buildSession("/work").start();

      await session.prompt("cancellable");
      let call: acp2.SessionUpdate | undefined;
      while (call === undefined) {
        const message = await session.nextUpdate();
        if (message.update.sessionUpdate === "tool_call_update") call = message.update;
      }
      expect(call).toMatchObject({ toolCallId: "call_1", capabilities: { cancel: {} }, status: "in_progress" });
      await session.cancelToolCall("call_1");
      const rest = await untilIdle(session);
      expect(rest.updates).toContainEqual(expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "cancelled" }));
      expect(rest.stop.stopReason).toBe("end_turn");
      // Finished: a second cancel is refused.
      await expect(ctx.request("tool_call/cancel", { sessionId: session.sessionId, toolCallId: "call_1" })).rejects.toMatchObject({ code: -32602 });

      await session.prompt("agent-terminal");
      const terminal = await untilIdle(session);
      const outputs = terminal.updates.filter((u) => u.sessionUpdate === "terminal_output_chunk") as { data: string }[];
      expect(outputs.map((u) => Buffer.from(u.data, "base64").toString("utf8")).join("")).toBe("line one\nünïcode ✓\n");
      expect(terminal.updates).toContainEqual(
        expect.objectContaining({ sessionUpdate: "terminal_update", terminalId: "term_1", exitStatus: { exitCode: 0, signal: null } }),
      );
      expect(terminal.updates).toContainEqual(
        expect.objectContaining({ sessionUpdate: "tool_call_update", content: [{ type: "terminal", terminalId: "term_1" }] }),
      );

      // terminal/cancel on a cancellable terminal stops it: confirmed by its exit status.
      await session.prompt("agent-terminal wait");
      for (;;) {
        const message = await session.nextUpdate();
        if (message.update.sessionUpdate === "terminal_output_chunk") break;
      }
      await ctx.request("terminal/cancel", { sessionId: session.sessionId, terminalId: "term_2" });
      const cancelled = await untilIdle(session);
      expect(cancelled.updates).toContainEqual(
        expect.objectContaining({ sessionUpdate: "terminal_update", terminalId: "term_2", exitStatus: { exitCode: null, signal: "SIGTERM" } }),
      );

      await session.prompt("command-permission");
      await untilIdle(session);
      expect(permissions.at(-1)).toMatchObject({
        title: "Run npm test",
        subject: { type: "command", command: "npm test", cwd: "/work", toolCallId: "call_4" },
      });

      await session.prompt("error-stop");
      expect((await untilIdle(session)).stop.update).toMatchObject({ stopReason: "error", error: { code: -32001, message: "quota exhausted" } });
      session.dispose();
    });
    expect(oracle.problems).toEqual([]);
  });

  it("A14: elicitation reaches an SDK client that advertised it (form, URL, complete) and is refused to one that did not", async () => {
    const oracle = new LaterV2Oracle();
    const { stream } = startOurAgent(oracle);
    const completed: string[] = [];
    const app = acp2
      .client({ name: INFO.name })
      .onRequest(
        "elicitation/create",
        ({ params }): acp2.CreateElicitationResponse =>
          params.mode === "form" ? { action: "accept", content: { branch: "main" } } : params.mode === "url" ? { action: "accept" } : { action: "decline" },
      )
      .onNotification("elicitation/complete", ({ params }) => {
        completed.push(params.elicitationId);
      });
    await app.connectWith(stream, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 2, info: INFO, capabilities: { elicitation: { form: {}, url: {} } } });
      const session = await ctx.buildSession("/work").start();
      await session.prompt("elicit");
      const turn = await untilIdle(session);
      const said = spokenText(turn.updates);
      expect(said.join("")).toBe('form:accept:{"branch":"main"} url:accept');
      session.dispose();
    });
    expect(completed).toEqual([expect.stringMatching(/^elicitation_/)]);
    expect(oracle.problems).toEqual([]);

    // Without the capability the agent's call fails at its call site; nothing goes on the wire.
    const quiet = new LaterV2Oracle();
    const second = startOurAgent(quiet);
    await acp2.client({ name: INFO.name }).connectWith(second.stream, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 2, info: INFO });
      const session = await ctx.buildSession("/work").start();
      await session.prompt("elicit");
      const turn = await untilIdle(session);
      const said = spokenText(turn.updates);
      expect(said.join("")).toBe("elicit-error:Unsupported");
      session.dispose();
    });
    expect(quiet.problems).toEqual([]);
  });

  it("A10: a cancel of work the agent announced itself (turn.update) reaches AgentDefinition.cancelWork", async () => {
    const oracle = new LaterV2Oracle();
    const { stream } = startOurAgent(oracle);
    await acp2.client({ name: INFO.name }).connectWith(stream, async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 2, info: INFO });
      const session = await ctx.buildSession("/work").start();
      await session.prompt("own-cancellable");
      for (;;) {
        const { update } = await session.nextUpdate();
        if (update.sessionUpdate === "tool_call_update") break;
      }
      await session.cancelToolCall("own-1");
      const rest = await untilIdle(session);
      expect(rest.updates).toContainEqual(expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: "own-1", status: "cancelled" }));
      expect(rest.stop.stopReason).toBe("end_turn");
      // Its final status ended it: another cancel is refused before the agent is asked.
      await expect(ctx.request("tool_call/cancel", { sessionId: session.sessionId, toolCallId: "own-1" })).rejects.toMatchObject({ code: -32602 });
      session.dispose();
    });
    expect(oracle.problems).toEqual([]);
  });
});
