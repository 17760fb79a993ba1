// `acpkit proxy`: an editor of one dialect in front of an agent of another, each a real process
// that shares no code with acpkit. A v1 editor (the official SDK's v1 client) drives an agent that
// speaks only the later v2 draft (the SDK's router agent with --v2-only, which answers a v1
// initialize -32022, as claude-agent-acp does in v2 mode); a later-v2 client (the SDK's
// experimental/v2 client) drives a v1-only agent (`acpkit agent --max-protocol 1`). What reaches
// each editor is checked against its dialect's official schema.
import { type ChildProcess, spawn } from "node:child_process";
import { PassThrough, Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import * as acp2 from "@agentclientprotocol/sdk/experimental/v2";
import { LaterV2Oracle } from "@acpkit/test-support/later-v2-oracle";
import { afterEach, describe, expect, it } from "vitest";
import { officialV1Problem } from "../../../agent/test/official-v1-oracle.js";
import { BIN } from "../support/cli.js";

const SDK_LATER_AGENT = fileURLToPath(new URL("../../../../test-support/fixtures/sdk-later-v2-agent.mjs", import.meta.url));

let child: ChildProcess | undefined;
afterEach(() => {
  child?.stdin?.end();
  child?.kill();
  child = undefined;
});

/** `acpkit proxy -- <agent…>` as the editor starts it; `tap` sees each line the proxy writes. */
function startProxy(
  agent: string[],
  tap?: (line: string) => void,
  flags: string[] = [],
): { stream: { writable: WritableStream<Uint8Array>; readable: ReadableStream<Uint8Array> }; stderr: string[] } {
  const stderr: string[] = [];
  child = spawn(process.execPath, [BIN, "proxy", ...flags, "--", ...agent], { stdio: ["pipe", "pipe", "pipe"] });
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const out = new PassThrough();
  let buffered = "";
  out.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== "") tap?.(line);
    }
  });
  child.stdout!.pipe(out);
  return {
    stream: { writable: Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, readable: Readable.toWeb(out) as ReadableStream<Uint8Array> },
    stderr,
  };
}

describe("acpkit proxy", () => {
  it("A15: a v1 editor drives an agent that speaks only the later v2 draft", async () => {
    const { stream, stderr } = startProxy([process.execPath, SDK_LATER_AGENT, "--v2-only"]);
    const updates: acp.SessionUpdate[] = [];
    const asked: acp.RequestPermissionRequest[] = [];
    const problems: string[] = [];
    const app = acp
      .client({ name: "v1-editor" })
      .onNotification("session/update", ({ params }) => {
        const problem = officialV1Problem("SessionNotification", params);
        if (problem !== undefined) problems.push(problem);
        updates.push(params.update);
      })
      .onRequest("session/request_permission", ({ params }) => {
        const problem = officialV1Problem("RequestPermissionRequest", params);
        if (problem !== undefined) problems.push(problem);
        asked.push(params);
        return { outcome: { outcome: "selected", optionId: params.options[0]!.optionId } };
      });
    const result = await app.connectWith(acp.ndJsonStream(stream.writable, stream.readable), async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: "v1-editor", version: "1.0.0" } });
      expect(officialV1Problem("InitializeResponse", init)).toBeUndefined();
      const { sessionId } = await ctx.request("session/new", { cwd: "/work", mcpServers: [] });
      const hello = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
      const permission = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "permission" }] });
      const failed = await ctx
        .request("session/prompt", { sessionId, prompt: [{ type: "text", text: "error" }] })
        .catch((error: { code: number; message: string }) => error);
      // A load is the agent's resume with replay: the history reaches the v1 editor before the answer.
      await ctx.request("session/close", { sessionId });
      const before = updates.length;
      await ctx.request("session/load", { sessionId, cwd: "/work", mcpServers: [] });
      const replayed = updates.slice(before);
      return { init, hello, permission, failed, replayed };
    });
    expect(result.init).toMatchObject({ protocolVersion: 1, agentInfo: { name: "sdk-later-v2-agent", version: "2.4.0" } });
    expect(result.hello.stopReason).toBe("end_turn");
    expect(result.permission.stopReason).toBe("end_turn");
    // The agent's stop reason `error` reaches the v1 editor as the prompt's JSON-RPC error.
    expect(result.failed).toMatchObject({ code: -32603, message: "model unavailable" });
    const said = updates.flatMap((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? [update.content.text] : []));
    expect(said.slice(0, 3)).toEqual(["hello over later v2", "outcome:selected:yes", "about to fail"]);
    const replayedText = result.replayed.flatMap((update) =>
      update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? [update.content.text] : [],
    );
    expect(replayedText).toContain("hello over later v2");
    // The command subject reaches v1 as a tool call of kind execute (the proxy reports the approximation).
    expect(asked).toEqual([expect.objectContaining({ toolCall: expect.objectContaining({ title: "Run the tests?", kind: "execute" }) })]);
    expect(problems).toEqual([]);
    const log = stderr.join("");
    expect(log).toContain("acpkit proxy: agent sdk-later-v2-agent 2.4.0 speaks v2-later");
    expect(log).toContain("lossy_permission_subject");
  }, 60_000);

  it("A15: a later-v2 agent's form and URL elicitations, and the URL flow's completion, reach a v1 editor", async () => {
    const { stream } = startProxy([process.execPath, SDK_LATER_AGENT, "--v2-only"]);
    const asked: string[] = [];
    const completed: string[] = [];
    const said: string[] = [];
    const app = acp
      .client({ name: "v1-editor" })
      .onNotification("session/update", ({ params }) => {
        if (params.update.sessionUpdate === "agent_message_chunk" && params.update.content.type === "text") said.push(params.update.content.text);
      })
      .onRequest("elicitation/create", ({ params }): acp.CreateElicitationResponse => {
        asked.push(params.mode);
        return params.mode === "form" ? { action: "accept", content: { branch: "main" } } : { action: "accept" };
      })
      .onNotification("elicitation/complete", ({ params }) => {
        completed.push(params.elicitationId);
      });
    await app.connectWith(acp.ndJsonStream(stream.writable, stream.readable), async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: { elicitation: { form: {}, url: {} } } });
      const { sessionId } = await ctx.request("session/new", { cwd: "/work", mcpServers: [] });
      const result = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "elicit" }] });
      expect(result.stopReason).toBe("end_turn");
    });
    expect(asked).toEqual(["form", "url"]);
    expect(said).toEqual(['form:accept:{"branch":"main"} url:accept']);
    await expect.poll(() => completed).toEqual(["e-1"]);
  }, 60_000);

  it("A15: a client of the later v2 draft drives a v1-only agent", async () => {
    const oracle = new LaterV2Oracle();
    const { stream, stderr } = startProxy([process.execPath, BIN, "agent", "--max-protocol", "1"], (line) => oracle.check(JSON.parse(line), "agent_to_client"));
    const asked: acp2.RequestPermissionRequest[] = [];
    const app = acp2.client({ name: "later-editor" }).onRequest("session/request_permission", ({ params }) => {
      asked.push(params);
      return { outcome: { outcome: "selected", optionId: params.options[0]!.optionId } };
    });
    const outcome = await app.connectWith(acp2.ndJsonStream(stream.writable, stream.readable), async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: 2, info: { name: "later-editor", version: "2.4.0" } });
      const session = await ctx.buildSession("/work").start();
      await session.prompt("hello proxy");
      const kinds: string[] = [];
      const texts: string[] = [];
      for (;;) {
        const message = await session.nextUpdate();
        const update = message.update as { sessionUpdate: string; state?: string; content?: { type: string; text?: string } };
        kinds.push(update.sessionUpdate === "state_update" ? `state:${update.state}` : update.sessionUpdate);
        if (update.sessionUpdate === "agent_message_chunk" && update.content?.type === "text") texts.push(update.content.text ?? "");
        if (message.kind === "stop") {
          session.dispose();
          return { init, kinds, texts, stop: message.stopReason };
        }
      }
    });
    expect(outcome.init).toMatchObject({ protocolVersion: 2, info: { name: "acpkit-agent" } });
    expect(outcome.stop).toBe("end_turn");
    expect(outcome.kinds[0]).toBe("user_message");
    expect(outcome.kinds).toContain("state:running");
    expect(outcome.kinds.at(-1)).toBe("state:idle");
    expect(outcome.texts.join("")).toContain("hello proxy");
    // The v1 agent's permission request reaches the later client with the draft's title and subject.
    expect(asked).toEqual([expect.objectContaining({ title: expect.any(String), subject: expect.objectContaining({ type: "tool_call" }) })]);
    expect(outcome.kinds).toContain("tool_call_update");
    expect(oracle.problems).toEqual([]);
    expect(stderr.join("")).toContain("speaks v1; serving the editor v1 and v2");
  }, 60_000);

  it("A15: tool_call/cancel from a later-v2 client reaches the agent's cancellable tool call through the proxy", async () => {
    const oracle = new LaterV2Oracle();
    // --dialect later: the proxy reaches acpkit agent in the later draft too (over the pinned v2 a cancelled call ends `failed`).
    const { stream } = startProxy([process.execPath, BIN, "agent"], (line) => oracle.check(JSON.parse(line), "agent_to_client"), ["--dialect", "later"]);
    const outcome = await acp2.client({ name: "later-editor" }).connectWith(acp2.ndJsonStream(stream.writable, stream.readable), async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 2, info: { name: "later-editor", version: "2.4.0" } });
      const session = await ctx.buildSession("/work").start();
      await session.prompt("/cancellable 60");
      let call: { toolCallId: string; capabilities?: unknown } | undefined;
      while (call === undefined) {
        const { update } = await session.nextUpdate();
        if (update.sessionUpdate === "tool_call_update" && (update as { capabilities?: { cancel?: unknown } }).capabilities?.cancel) call = update as never;
      }
      await session.cancelToolCall(call!.toolCallId);
      const statuses: string[] = [];
      for (;;) {
        const message = await session.nextUpdate();
        const update = message.update as { sessionUpdate: string; toolCallId?: string; status?: string };
        if (update.sessionUpdate === "tool_call_update" && update.toolCallId === call!.toolCallId && update.status) statuses.push(update.status);
        if (message.kind === "stop") {
          session.dispose();
          return {
            statuses,
            stop: message.stopReason,
            refused: await ctx.request("tool_call/cancel", { sessionId: session.sessionId, toolCallId: "nope" }).catch((e: { code: number }) => e.code),
          };
        }
      }
    });
    // Confirmed by the agent's final status, as the draft says (the agent speaks the later draft to the proxy too).
    expect(outcome.statuses.at(-1)).toBe("cancelled");
    expect(outcome.stop).toBe("end_turn");
    expect(outcome.refused).toBe(-32602);
    expect(oracle.problems).toEqual([]);
  }, 60_000);

  it("names a missing agent command and an agent it cannot reach, exit 2 and 1", async () => {
    const { runCli } = await import("../support/cli.js");
    const usage = await runCli(["proxy"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("no agent: give the agent command after --");
    const unreachable = await runCli(["proxy", "--", process.execPath, "-e", "process.exit(3)"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("acpkit proxy: could not reach the agent");
  }, 60_000);
});
