// The official SDK 2.4.0's remote clients (which share no code with acpkit) driving a real
// `acpkit serve` process in both profiles (docs/remote.md RT24): initialize, a new session, a turn
// (its streamed text checked), a turn with a permission request, session/list.
import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startServe } from "../support/serve.js";

describe.concurrent("RT24: the official SDK's clients drive acpkit serve", () => {
  it.for([
    ["HTTP+SSE", (url: string) => createHttpStream(url)],
    ["WebSocket", (url: string) => createWebSocketStream(url.replace(/^http/, "ws"), { WebSocket: WebSocket as never })],
  ] as const)("%s: initialize, a turn, a turn with a permission request, session/list", async ([, stream], context) => {
    const { url } = await startServe(context, ["--listen", "127.0.0.1:0"]);
    const texts: string[] = [];
    let permissions = 0;
    const app = acp
      .client({ name: "sdk-client" })
      .onRequest("session/request_permission", ({ params }) => {
        permissions++;
        return { outcome: { outcome: "selected", optionId: params.options[0]!.optionId } };
      })
      .onNotification("session/update", ({ params }) => {
        const update = params.update as { sessionUpdate: string; content?: { text?: string } };
        if (update.sessionUpdate === "agent_message_chunk" && update.content?.text !== undefined) texts.push(update.content.text);
      });
    const connection = app.connect(stream(url));
    context.onTestFinished(() => connection.close());
    const { agent } = connection;
    const init = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    expect(init.protocolVersion).toBe(1);
    const { sessionId } = await agent.request("session/new", { cwd: process.cwd(), mcpServers: [] });
    expect((await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/echo over the SDK" }] })).stopReason).toBe("end_turn");
    context.expect(texts.join("")).toContain("over the SDK");
    expect((await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/permission" }] })).stopReason).toBe("end_turn");
    context.expect(permissions).toBe(1);
    const listed = await agent.request("session/list", {});
    context.expect(listed.sessions.map((session: { sessionId: string }) => session.sessionId)).toContain(sessionId);
  });
});
