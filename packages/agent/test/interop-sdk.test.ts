// Interop: the official @agentclientprotocol/sdk client (its default v1 entry point) drives our
// agent, running as a real child process over stdio (built dist/).
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";

const fixture = fileURLToPath(new URL("./fixtures/serve-stdio.mjs", import.meta.url));

let child: ChildProcess | undefined;
afterEach(() => {
  child?.stdin?.end();
  child?.kill();
  child = undefined;
});

function startOurAgent(): acp.Stream {
  child = spawn(process.execPath, [fixture, "1,2"], { stdio: ["pipe", "pipe", "ignore"] });
  return acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
}

describe("the official SDK client drives our agent over stdio (v1)", () => {
  it("runs a full turn: plan, thought and message chunks, a tool call with permission, a file read and usage", async () => {
    const updates: acp.SessionUpdate[] = [];
    const permissionRequests: acp.RequestPermissionRequest[] = [];
    const reads: acp.ReadTextFileRequest[] = [];
    const app = acp
      .client({ name: "sdk-client" })
      .onNotification("session/update", ({ params }) => {
        updates.push(params.update);
      })
      .onRequest("session/request_permission", ({ params }) => {
        permissionRequests.push(params);
        return { outcome: { outcome: "selected", optionId: "allow" } };
      })
      .onRequest("fs/read_text_file", ({ params }) => {
        reads.push(params);
        return { content: "hello from the editor" };
      });

    const result = await app.connectWith(startOurAgent(), async (ctx) => {
      const init = await ctx.request("initialize", {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
        clientInfo: { name: "sdk-client", version: "2.4.0" },
      });
      expect(init.protocolVersion).toBe(1);
      expect(init.agentCapabilities?.loadSession).toBe(true);
      const { sessionId } = await ctx.request("session/new", { cwd: "/work", mcpServers: [] });
      return ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "full" }] });
    });

    expect(result).toEqual({ stopReason: "end_turn" });
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "plan",
      "agent_thought_chunk",
      "agent_thought_chunk",
      "agent_message_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
      "tool_call_update",
      "tool_call_update",
      "agent_message_chunk",
      "usage_update",
    ]);
    const toolCall = updates[5] as Extract<acp.SessionUpdate, { sessionUpdate: "tool_call" }>;
    expect(toolCall).toMatchObject({ title: "Read notes.txt", kind: "read", status: "pending" });
    expect(permissionRequests).toHaveLength(1);
    expect(permissionRequests[0]!.toolCall.toolCallId).toBe(toolCall.toolCallId);
    expect(reads).toEqual([expect.objectContaining({ path: "/home/user/project/notes.txt" })]);
    // The appended content reached v1 as the full content array (bridge B4.3).
    const contentUpdate = updates[7] as Extract<acp.SessionUpdate, { sessionUpdate: "tool_call_update" }>;
    expect(contentUpdate.content).toEqual([{ type: "content", content: { type: "text", text: "hello from the editor" } }]);
    const last = updates.at(-2) as Extract<acp.SessionUpdate, { sessionUpdate: "agent_message_chunk" }>;
    expect(last.content).toEqual({ type: "text", text: "The file says: hello from the editor" });
    expect(updates.at(-1)).toMatchObject({ used: 1200, size: 200000 });
    // Message ids are stable per message and distinct between messages.
    const chunkIds = updates.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => (u as { messageId?: string }).messageId);
    expect(chunkIds[0]).toBe(chunkIds[1]);
    expect(chunkIds[2]).not.toBe(chunkIds[0]);
  });

  it("cancels a turn: a pending permission request is answered cancelled and the turn ends cancelled", async () => {
    const updates: acp.SessionUpdate[] = [];
    let sessionId = "";
    let cancel!: () => Promise<void>;
    const app = acp
      .client({ name: "sdk-client" })
      .onNotification("session/update", ({ params }) => {
        updates.push(params.update);
      })
      .onRequest("session/request_permission", async () => {
        // The user cancels while the question is open; the client answers "cancelled" (C3).
        await cancel();
        return { outcome: { outcome: "cancelled" } };
      });

    const result = await app.connectWith(startOurAgent(), async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: "sdk-client", version: "2.4.0" } });
      ({ sessionId } = await ctx.request("session/new", { cwd: "/work", mcpServers: [] }));
      cancel = () => ctx.notify("session/cancel", { sessionId });
      return ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "permission" }] });
    });

    expect(result).toEqual({ stopReason: "cancelled" });
    expect(updates.map((u) => u.sessionUpdate)).toEqual(["tool_call", "agent_message_chunk"]);
    expect((updates[1] as { content: { text: string } }).content.text).toBe("outcome:cancelled");
  });
});
