// Interop with the official SDK 2.4.0's remote transport (docs/remote.md RT4–RT10 and the WebSocket profile, RT13), which shares no code with acpkit, in
// both profiles and both directions:
// - the SDK's HTTP and WebSocket clients drive acpkit's endpoint (an acpkit agent behind it);
// - acpkit's client drives the SDK's AcpServer (node adapter) with an SDK agent behind it.
// Each runs a whole turn with a permission request, a cancelled turn, session/list and
// session/close. Every message that crossed is checked against the official v1 schema.
import { createServer, type Server } from "node:http";
import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { serveAgent } from "@acpkit/agent";
import { connectAgent } from "@acpkit/client";
import type { JsonRpcMessage, Transport, TransportReceiver } from "@acpkit/core";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { officialV1ParamsDefinition, officialV1Problem, officialV1ResultDefinition } from "../../agent/test/official-v1-oracle.js";
import { connectRemote, type EndpointServer, MemoryFleetBackend, serveEndpoint } from "../src/index.js";
import { testAgent } from "./helpers.js";

type Json = any;

/** Every message of one connection, as [direction, message], in order. */
type Wire = Array<["in" | "out", Json]>;

/** Wrap a transport so every message it carries is recorded ("in": received, "out": sent). */
function recorded(inner: Transport, wire: Wire): Transport {
  return {
    closed: inner.closed,
    start(receiver: TransportReceiver) {
      inner.start({
        ...receiver,
        onMessage(message) {
          wire.push(["in", typeof message === "string" ? JSON.parse(message) : structuredClone(message)]);
          receiver.onMessage(message);
        },
        onTransportError: (error) => receiver.onTransportError(error),
      });
    },
    send(message: JsonRpcMessage | JsonRpcMessage[]) {
      wire.push(["out", structuredClone(message)]);
      return inner.send(message);
    },
    close: (reason) => inner.close(reason),
  };
}

/** What in `wire` breaks the official v1 schema (requests and notifications by method, answers by their request's method). */
function officialProblems(wire: Wire): string[] {
  const problems: string[] = [];
  const methods = new Map<string, string>();
  for (const [direction, message] of wire) {
    if (typeof message.method === "string") {
      if (message.id !== undefined) methods.set(`${direction}:${JSON.stringify(message.id)}`, message.method);
      const definition = officialV1ParamsDefinition(message.method);
      if (definition === undefined) problems.push(`no official v1 method ${message.method}`);
      else {
        const problem = officialV1Problem(definition, message.params);
        if (problem !== undefined) problems.push(`${direction} ${message.method}: ${problem}`);
      }
      continue;
    }
    const method = methods.get(`${direction === "in" ? "out" : "in"}:${JSON.stringify(message.id)}`);
    if (method === undefined) {
      problems.push(`an answer to an unknown request: ${JSON.stringify(message)}`);
      continue;
    }
    const problem =
      "error" in message ? officialV1Problem("Error", message.error) : officialV1Problem(officialV1ResultDefinition(method) as string, message.result);
    if (problem !== undefined) problems.push(`${direction} answer to ${method}: ${problem}`);
  }
  return problems;
}

/** The SDK client: it allows every permission request (the first option) and keeps every update in `updates`. */
function sdkClientApp(updates: Json[]) {
  return acp
    .client({ name: "sdk-remote-client" })
    .onRequest("session/request_permission", ({ params }) => ({ outcome: { outcome: "selected", optionId: params.options[0]!.optionId } }))
    .onNotification("session/update", ({ params }) => {
      updates.push(params.update);
    });
}

/** The SDK client's script: initialize, a turn with a permission request, a cancelled turn, list and close. */
async function sdkSession(agent: Json, updates: Json[]): Promise<Json> {
  const init = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await agent.request("session/new", { cwd: "/tmp", mcpServers: [] });
  const allowed = await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "permission" }] });
  expect(allowed.stopReason).toBe("end_turn");
  expect(updates.filter((update) => update.sessionUpdate === "agent_message_chunk").map((update) => update.content.text)).toEqual(["allowed"]);
  const waiting = agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
  await expect.poll(() => updates.some((update) => update.content?.text === "waiting"), { timeout: 10_000 }).toBe(true);
  await agent.notify("session/cancel", { sessionId });
  expect((await waiting).stopReason).toBe("cancelled");
  expect(await agent.request("session/list", {})).toEqual({ sessions: [] });
  expect(await agent.request("session/close", { sessionId })).toEqual({});
  return init;
}

const closers: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe("the official SDK's remote clients drive acpkit's endpoint", () => {
  it.each([
    ["HTTP+SSE", (url: string) => createHttpStream(url)],
    ["WebSocket (RT13)", (url: string) => createWebSocketStream(url.replace(/^http/, "ws"), { WebSocket: WebSocket as never })],
  ])("%s: a turn with a permission request, a cancelled turn, list and close; every message valid v1", async (_profile, stream) => {
    const wires: Wire[] = [];
    const server = await serveEndpoint({
      onConnection(transport) {
        const wire: Wire = [];
        wires.push(wire);
        serveAgent(recorded(transport, wire), testAgent);
      },
    });
    closers.push(() => server.close());
    const updates: Json[] = [];
    const app = sdkClientApp(updates);
    const connection = app.connect(stream(server.url));
    closers.push(() => connection.close());
    const { agent } = connection;
    const init = await sdkSession(agent, updates);
    expect(init.agentInfo?.name).toBe("http-test-agent");
    connection.close();
    expect(wires).toHaveLength(1);
    expect(officialProblems(wires[0]!)).toEqual([]);
    expect(wires[0]!.filter(([, message]) => message.method === "session/request_permission")).toHaveLength(1);
  });
});

describe("RT30: the official SDK's HTTP client through a fleet of two nodes", () => {
  it("initialize on node A (it runs the agent), everything else on node B: the same turn, cancel, list and close; every message valid v1", async () => {
    const backend = new MemoryFleetBackend();
    const wires: Wire[] = [];
    const hosts: string[] = [];
    const nodes = await Promise.all(
      ["a", "b"].map((nodeId) =>
        serveEndpoint({
          fleet: { backend, nodeId },
          onConnection(transport) {
            const wire: Wire = [];
            wires.push(wire);
            hosts.push(nodeId);
            serveAgent(recorded(transport, wire), testAgent);
          },
        }),
      ),
    );
    for (const node of nodes) closers.push(() => node.close());
    const [a, b] = nodes as [EndpointServer, EndpointServer];
    const spread: typeof fetch = (_input, init) => fetch(typeof init?.body === "string" && init.body.includes('"method":"initialize"') ? a.url : b.url, init);
    const updates: Json[] = [];
    const app = sdkClientApp(updates);
    const connection = app.connect(createHttpStream(b.url, { fetch: spread }));
    closers.push(() => connection.close());
    const { agent } = connection;
    await sdkSession(agent, updates);
    connection.close();
    // One agent, on node A; every message it exchanged valid v1.
    expect(hosts).toEqual(["a"]);
    expect(officialProblems(wires[0]!)).toEqual([]);
  });
});

describe("acpkit's client drives the official SDK's AcpServer", () => {
  /** An SDK agent: a permission request per turn; "wait" runs until session/cancel. */
  function sdkAgent() {
    const cancels = new Map<string, () => void>();
    return acp
      .agent({ name: "sdk-remote-agent" })
      .onRequest("initialize", () => ({
        protocolVersion: 1,
        agentCapabilities: { sessionCapabilities: { list: {}, close: {} } },
        authMethods: [],
        agentInfo: { name: "sdk-remote-agent", version: "2.4.0" },
      }))
      .onRequest("session/new", () => ({ sessionId: "sdk-session" }))
      .onRequest("session/list", () => ({ sessions: [{ sessionId: "sdk-session", cwd: "/tmp" }] }))
      .onRequest("session/close", () => ({}))
      .onNotification("session/cancel", ({ params }) => cancels.get(params.sessionId)?.())
      .onRequest("session/prompt", async ({ params, client }) => {
        const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
        const say = (said: string) =>
          client.notify("session/update", {
            sessionId: params.sessionId,
            update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: said } },
          });
        if (text === "wait") {
          await say("waiting");
          await new Promise<void>((resolve) => cancels.set(params.sessionId, resolve));
          return { stopReason: "cancelled" as const };
        }
        const answer = await client.request("session/request_permission", {
          sessionId: params.sessionId,
          toolCall: { toolCallId: "edit-1", title: "Edit a file", kind: "edit", status: "pending" },
          options: [
            { optionId: "allow", name: "Allow", kind: "allow_once" },
            { optionId: "reject", name: "Reject", kind: "reject_once" },
          ],
        });
        await say(answer.outcome.outcome === "selected" ? `chose ${answer.outcome.optionId}` : "cancelled");
        return { stopReason: "end_turn" as const };
      });
  }

  async function startSdkServer(): Promise<string> {
    const server = new AcpServer({ createAgent: sdkAgent });
    const http: Server = createServer(createNodeHttpHandler(server));
    http.on("upgrade", createNodeWebSocketUpgradeHandler(server, new WebSocketServer({ noServer: true })));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(async () => {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    return `http://127.0.0.1:${(http.address() as import("node:net").AddressInfo).port}/acp`;
  }

  it.each([
    ["HTTP+SSE", "http"],
    ["WebSocket", "ws"],
  ])("%s: a turn with a permission request, a cancelled turn, list and close; every message valid v1", async (_profile, scheme) => {
    const url = (await startSdkServer()).replace(/^http/, scheme);
    const wire: Wire = [];
    const agent = await connectAgent(recorded(await connectRemote(url), wire), {
      protocolVersion: 1,
      requestPermission: (request) => ({ outcome: "selected", optionId: request.options.find((option) => option.kind === "allow_once")!.optionId }),
    });
    closers.push(() => agent.close());
    expect(agent.agentInfo?.name).toBe("sdk-remote-agent");
    const session = await agent.newSession({ cwd: "/tmp" });
    const turn = session.prompt("go");
    expect((await turn).stopReason).toBe("end_turn");
    expect(session.state.toJSON().messages.at(-1)?.content).toEqual([{ type: "text", text: "chose allow" }]);

    const waiting = session.prompt("wait");
    await expect.poll(() => JSON.stringify(session.state.toJSON().messages).includes("waiting"), { timeout: 10_000 }).toBe(true);
    await session.cancel();
    expect((await waiting).stopReason).toBe("cancelled");

    expect((await agent.listSessions()).sessions.map((listed) => listed.sessionId)).toEqual(["sdk-session"]);
    await session.close();
    await agent.close();
    expect(officialProblems(wire)).toEqual([]);
    expect(wire.some(([direction, message]) => direction === "in" && message.method === "session/request_permission")).toBe(true);
  });
});
