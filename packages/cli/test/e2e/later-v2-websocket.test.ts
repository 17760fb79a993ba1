// The later v2 draft over WebSocket, both directions, with the official SDK 2.4.0 as the peer:
// its v2 client (over its own experimental/ws-client stream) drives acpkit's built-in agent behind
// acpkit's WebSocket listener, and acpkit's client (over acpkit's WebSocket transport) drives an
// agent on the SDK's protocol router behind the same listener. Every message both ways is checked
// against the SDK's own v2 schema.
import { serveAgent } from "@acpkit/agent";
import { connectAgent, type ConnectedAgent } from "@acpkit/client";
import { createBuiltinAgent } from "@acpkit/conformance";
import type { Transport } from "@acpkit/core";
import { LaterV2Oracle } from "@acpkit/test-support/later-v2-oracle";
import { connect, listen, type WebSocketListener } from "@acpkit/transport-websocket";
import * as acp2 from "@agentclientprotocol/sdk/experimental/v2";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";

const listeners: WebSocketListener[] = [];
let client: ConnectedAgent | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  for (const listener of listeners.splice(0)) await listener.close();
});

/** `transport` with every message both ways checked by `oracle` (server side: in = client→agent). */
function tapped(transport: Transport, oracle: LaterV2Oracle, side: "agent" | "client"): Transport {
  const inbound = side === "agent" ? "client_to_agent" : "agent_to_client";
  const outbound = side === "agent" ? "agent_to_client" : "client_to_agent";
  return {
    start: (receiver) =>
      transport.start({
        ...receiver,
        onMessage: (message) => {
          oracle.check(typeof message === "string" ? JSON.parse(message) : message, inbound);
          receiver.onMessage(message);
        },
        onTransportError: (error) => receiver.onTransportError(error),
      }),
    send: (message) => {
      oracle.check(JSON.parse(JSON.stringify(message)), outbound);
      return transport.send(message);
    },
    close: (reason) => transport.close(reason),
    get closed() {
      return transport.closed;
    },
  };
}

describe("the later v2 draft over WebSocket", () => {
  it("the SDK's v2 client drives acpkit's built-in agent: /echo, /cancellable with tool_call/cancel, /stop error", async () => {
    const oracle = new LaterV2Oracle();
    const listener = await listen({ onConnection: (transport) => void serveAgent(tapped(transport, oracle, "agent"), createBuiltinAgent()) });
    listeners.push(listener);
    const stream = createWebSocketStream(listener.url, { WebSocket: WebSocket as never });
    await acp2.client({ name: "sdk-v2-ws-client" }).connectWith(stream, async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: 2, info: { name: "sdk-v2-ws-client", version: "2.4.0" } });
      expect(init.info.name).toBe("acpkit-agent");
      const session = await ctx.buildSession("/work").start();
      await session.prompt("/echo over the socket");
      expect(await session.readTextUntilIdle()).toContain("over the socket");

      await session.prompt("/cancellable 60");
      let toolCallId: string | undefined;
      while (toolCallId === undefined) {
        const message = await session.nextUpdate();
        const update = message.update as { sessionUpdate: string; toolCallId?: string; capabilities?: { cancel?: object } };
        if (update.sessionUpdate === "tool_call_update" && update.capabilities?.cancel) toolCallId = update.toolCallId;
      }
      await session.cancelToolCall(toolCallId);
      const statuses: string[] = [];
      for (;;) {
        const message = await session.nextUpdate();
        const update = message.update as { sessionUpdate: string; status?: string };
        if (update.sessionUpdate === "tool_call_update" && update.status) statuses.push(update.status);
        if (message.kind === "stop") {
          expect(message.stopReason).toBe("end_turn");
          break;
        }
      }
      expect(statuses).toEqual(["cancelled"]);

      await session.prompt("/stop error");
      const ended = await (async () => {
        for (;;) {
          const message = await session.nextUpdate();
          if (message.kind === "stop") return message;
        }
      })();
      expect(ended.update).toMatchObject({ stopReason: "error", error: { code: -32603 } });
      session.dispose();
    });
    expect(oracle.problems).toEqual([]);
  });

  it("acpkit's client drives an agent on the SDK's router over acpkit's WebSocket transport", async () => {
    const oracle = new LaterV2Oracle();
    const app = acp2.agent({ name: "sdk-ws-agent" });
    let turns = 0;
    app
      .onRequest("initialize", () => ({ protocolVersion: 2, info: { name: "sdk-ws-agent", version: "2.4.0" }, capabilities: { session: {} } }))
      .onRequest("session/new", () => ({ sessionId: "ws-1" }))
      .onRequest("session/prompt", ({ params, client: peer }) => {
        const messageId = `u-${++turns}`;
        setImmediate(async () => {
          await peer.notify("session/update", { sessionId: params.sessionId, update: { sessionUpdate: "state_update", state: "running" } });
          await peer.notify("session/update", {
            sessionId: params.sessionId,
            update: { sessionUpdate: "agent_message_chunk", messageId: `a-${turns}`, content: { type: "text", text: "from the SDK agent" } },
          });
          await peer.notify("session/update", {
            sessionId: params.sessionId,
            update: { sessionUpdate: "state_update", state: "idle", stopReason: "max_tokens" },
          });
        });
        return { messageId };
      });
    const router = acp2.agentProtocolRouter().withV2(app);
    // The SDK agent reads and writes through a web stream pair over acpkit's server-side transport.
    const listener = await listen({
      onConnection: (transport) => {
        const toAgent = new TransformStream<Uint8Array, Uint8Array>();
        const fromAgent = new TransformStream<Uint8Array, Uint8Array>();
        const encoder = new TextEncoder();
        transport.start({
          onMessage: (message) => {
            const writer = toAgent.writable.getWriter();
            void writer.write(encoder.encode(`${typeof message === "string" ? message : JSON.stringify(message)}\n`)).finally(() => writer.releaseLock());
          },
          onTransportError: () => {},
        });
        void (async () => {
          let buffered = "";
          const decoder = new TextDecoder();
          for await (const chunk of fromAgent.readable as unknown as AsyncIterable<Uint8Array>) {
            buffered += decoder.decode(chunk, { stream: true });
            for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
              const line = buffered.slice(0, newline);
              buffered = buffered.slice(newline + 1);
              if (line.trim() !== "") await transport.send(JSON.parse(line));
            }
          }
        })();
        router.connect(acp2.ndJsonStream(fromAgent.writable, toAgent.readable));
      },
    });
    listeners.push(listener);
    client = await connectAgent(tapped(await connect(listener.url), oracle, "client"), {
      protocolVersion: 2,
      requestPermission: () => ({ outcome: "cancelled" }),
    });
    expect(client.dialect).toBe("v2-later");
    const session = await client.newSession({ cwd: "/work" });
    await expect(session.prompt("hi")).resolves.toMatchObject({ stopReason: "max_tokens" });
    expect(session.state.messages.at(-1)?.content).toEqual([{ type: "text", text: "from the SDK agent" }]);
    // The refused pinned offer is the one message the later draft's schema does not describe.
    expect(oracle.problems.filter((problem) => !problem.includes("initialize params"))).toEqual([]);
  });
});
