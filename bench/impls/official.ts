// The official SDK (@agentclientprotocol/sdk 2.4.0, default v1 entry point) as a benchmark client,
// with its agent in-process (memory), in a child over stdio, or behind its own WebSocket server.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import WebSocket from "ws";
import { buildOfficialAgent } from "../agents/official-app.mjs";
import { agentScript, spawnAgent, stopAgent, waitForPort } from "../lib/child.js";
import { AppTextState } from "../lib/state.js";
import type { BenchSession, Channel, ClientImpl } from "../lib/impl.js";

async function openOfficial(channel: Channel): Promise<BenchSession> {
  const state = new AppTextState();
  const app = acp.client({ name: "bench-official-client" }).onNotification("session/update", ({ params }) => {
    state.apply(params.update);
  });
  let stopChild = async () => {};
  let connection: acp.ClientConnection;
  if (channel === "memory") {
    connection = app.connect(buildOfficialAgent());
  } else if (channel === "stdio") {
    const child = spawnAgent(agentScript("official-agent.mjs"), ["stdio"]);
    stopChild = () => stopAgent(child);
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    connection = app.connect(stream);
  } else if (channel === "http" || channel === "endpoint-ws") {
    const child = spawnAgent(agentScript("official-agent.mjs"), ["http"]);
    stopChild = () => stopAgent(child);
    const port = await waitForPort(child);
    connection = app.connect(
      channel === "http"
        ? createHttpStream(`http://127.0.0.1:${port}/acp`)
        : createWebSocketStream(`ws://127.0.0.1:${port}/acp`, { WebSocket: WebSocket as never }),
    );
  } else {
    const child = spawnAgent(agentScript("official-agent.mjs"), ["ws"]);
    stopChild = () => stopAgent(child);
    const port = await waitForPort(child);
    connection = app.connect(createWebSocketStream(`ws://127.0.0.1:${port}/`, { WebSocket: WebSocket as never }));
  }
  const agent = connection.agent;
  await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  let { sessionId } = await agent.request("session/new", { cwd: "/", mcpServers: [] });
  return {
    async prompt(text) {
      await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    },
    async restart() {
      ({ sessionId } = await agent.request("session/new", { cwd: "/", mcpServers: [] }));
    },
    applied: () => state.applied,
    async close() {
      connection.close();
      await stopChild();
    },
  };
}

export const officialImpl: ClientImpl = {
  name: "official",
  unavailable: async () => undefined,
  open: openOfficial,
};
