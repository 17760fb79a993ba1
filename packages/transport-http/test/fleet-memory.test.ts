// A fleet of endpoint nodes in one process, sharing a MemoryFleetBackend (docs/remote.md §7): any
// node takes any request, streams are read from any node and resume across nodes, and a node cut
// off from the backend has its connections adopted by another, which takes the sessions up again.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentDefinition, serveAgent } from "@acpkit/agent";
import { connectAgent } from "@acpkit/client";
import type { TestContext } from "vitest";
import { describe, expect, it } from "vitest";
import { connectHttp, createAcpEndpoint, type EndpointLimits, type FleetBackend, MemoryFleetBackend, NODE_LOST_DATA_KEY } from "../src/index.js";
import { openConnection, openStream, post, testAgent, until } from "./helpers.js";

/** testAgent, able to take a session up again in a new process (session/resume). */
const resumingAgent: AgentDefinition = { ...testAgent, resumeSession: () => ({}) };

/** A backend seen through a switch: once cut, every call from this node waits until it is healed (a partition). */
function partitionable(backend: FleetBackend): FleetBackend & { cut(): void; heal(): void } {
  let healed: Promise<void> | undefined;
  let heal = () => {};
  const wrapper = {
    cut() {
      healed ??= new Promise<void>((resolve) => (heal = resolve));
    },
    heal() {
      heal();
      healed = undefined;
    },
  };
  return new Proxy(backend, {
    get(target, name) {
      if (name in wrapper) return wrapper[name as keyof typeof wrapper];
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== "function" || name === "receive") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        while (healed !== undefined) await healed;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as FleetBackend & { cut(): void; heal(): void };
}

interface Node {
  url: string;
  /** Agents started (one per connection this node owned), and transports of them that closed. */
  agents: number;
  closed: number;
}

/** One node on a free loopback port, serving `agent` for the connections it owns. */
async function startNode(
  context: TestContext,
  backend: FleetBackend,
  nodeId: string,
  agent: AgentDefinition = resumingAgent,
  resume = false,
  limits: Partial<EndpointLimits> = {},
  nodeTimeoutMs = 400,
): Promise<Node & { close(): Promise<void> }> {
  const node: Node = { url: "", agents: 0, closed: 0 };
  const endpoint = createAcpEndpoint({
    onConnection: (transport) => {
      node.agents++;
      void transport.closed?.then(() => node.closed++);
      serveAgent(transport, agent);
    },
    fleet: { backend, nodeId, heartbeatMs: 50, nodeTimeoutMs },
    resume,
    limits,
  });
  const server = createServer(endpoint.node);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  context.onTestFinished(async () => {
    await endpoint.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/acp`;
  return Object.assign(node, { close: () => endpoint.close() });
}

/** A connection opened on `owner` (which then runs its agent), its stream read and a session made through `via`. */
async function openSession(owner: Node, via: Node) {
  const { id } = await openConnection(owner.url);
  const connection = await openStream(via.url, id);
  await post(via.url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }, { "Acp-Connection-Id": id });
  const sessionId = (await connection.waitFor((message) => message.id === 1)).result.sessionId as string;
  return { id, connection, sessionId, headers: { "Acp-Connection-Id": id, "Acp-Session-Id": sessionId } };
}

const prompt = (id: number, sessionId: string, text: string) => ({
  jsonrpc: "2.0",
  id,
  method: "session/prompt",
  params: { sessionId, prompt: [{ type: "text", text }] },
});

describe("a fleet on the in-memory backend", () => {
  it("RT30: any node takes any request; the owner hosts the agent; a stream is read from any node, one reader at a time", async (context) => {
    const backend = new MemoryFleetBackend();
    const a = await startNode(context, backend, "a");
    const b = await startNode(context, backend, "b");
    const { id } = await openConnection(a.url);
    expect([a.agents, b.agents]).toEqual([1, 0]);
    const connection = await openStream(b.url, id);
    const second = await fetch(a.url, { headers: { Accept: "text/event-stream", "Acp-Connection-Id": id } });
    expect(second.status).toBe(409);
    await second.body?.cancel();
    expect(
      (await post(b.url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }, { "Acp-Connection-Id": id })).status,
    ).toBe(202);
    const sessionId = (await connection.waitFor((message) => message.id === 1)).result.sessionId as string;
    const session = await openStream(a.url, id, sessionId);
    const headers = { "Acp-Connection-Id": id, "Acp-Session-Id": sessionId };
    expect((await post(b.url, prompt(2, sessionId, "stream 20"), headers)).status).toBe(202);
    const answer = await session.waitFor((message) => message.id === 2);
    expect(answer.result.stopReason).toBe("end_turn");
    const chunks = session.messages.filter((message) => message.method === "session/update").map((message) => message.params.update.content.text);
    expect(chunks).toEqual(Array.from({ length: 20 }, (_, index) => `chunk ${index} `));
    expect(b.agents).toBe(0);
    // DELETE on the node that does not own it ends it on the owner.
    expect((await fetch(b.url, { method: "DELETE", headers: { "Acp-Connection-Id": id } })).status).toBe(202);
    await expect.poll(async () => (await post(a.url, prompt(3, sessionId, "x"), headers)).status, { timeout: 10_000 }).toBe(404);
    await until(() => a.closed === 1, 10_000, "the agent's transport on a to close");
    connection.close();
    session.close();
  });

  it("RT30: acpkit's client through one node while the agent runs on another: a whole turn with a permission request", async (context) => {
    const backend = new MemoryFleetBackend();
    const a = await startNode(context, backend, "a");
    const b = await startNode(context, backend, "b");
    // initialize goes to a (which then hosts the agent); everything else to b.
    const split: typeof fetch = (_input, init) => {
      const isInitialize = typeof init?.body === "string" && init.body.includes('"method":"initialize"');
      return fetch(isInitialize ? a.url : b.url, init);
    };
    const agent = await connectAgent(connectHttp(b.url, { fetch: split }), {
      requestPermission: (request) => ({ outcome: "selected", optionId: request.options[0]!.optionId }),
    });
    context.onTestFinished(() => agent.close());
    const session = await agent.newSession({ cwd: "/tmp" });
    const turn = await session.prompt("permission");
    expect(turn.stopReason).toBe("end_turn");
    expect(JSON.stringify(session.state.toJSON())).toContain('"text":"allowed"');
    expect([a.agents, b.agents]).toEqual([1, 0]);
  });

  it("RT30: a request forwarded from another node is held to the owner's bound on unanswered requests", async (context) => {
    const backend = new MemoryFleetBackend();
    const a = await startNode(context, backend, "a", resumingAgent, false, { maxPendingRequests: 1 });
    const b = await startNode(context, backend, "b", resumingAgent, false, { maxPendingRequests: 1 });
    const { id, connection, sessionId, headers } = await openSession(a, b);
    const session = await openStream(b.url, id, sessionId);
    await post(b.url, prompt(2, sessionId, "wait"), headers);
    await session.waitFor((message) => message.method === "session/update");
    expect((await post(b.url, prompt(3, sessionId, "wait"), headers)).status).toBe(202);
    const refused = await session.waitFor((message) => message.id === 3);
    expect(refused.error.data.httpStatus).toBe(429);
    expect(refused.error.message).toMatch(/1 requests of this connection wait for an answer/);
    connection.close();
    session.close();
  });

  it("RT31: a reader that lost its stream on one node resumes it on another with Last-Event-ID", async (context) => {
    const backend = new MemoryFleetBackend();
    const a = await startNode(context, backend, "a", resumingAgent, true);
    const b = await startNode(context, backend, "b", resumingAgent, true);
    const { id, connection, sessionId, headers } = await openSession(a, a);
    const first = await openStream(a.url, id, sessionId);
    await post(a.url, prompt(2, sessionId, "stream 10"), headers);
    await first.waitFor((message) => message.id === 2);
    first.close();
    // The first reader got events 1–11; it asks again from event 5 on node b.
    const again = await until409(() => openStream(b.url, id, sessionId, { "Last-Event-ID": "5" }));
    const replayed = await again.waitFor((message) => message.id === 2);
    expect(replayed.result.stopReason).toBe("end_turn");
    const texts = again.messages.filter((message) => message.method === "session/update").map((message) => message.params.update.content.text);
    expect(texts).toEqual(["chunk 5 ", "chunk 6 ", "chunk 7 ", "chunk 8 ", "chunk 9 "]);
    again.close();
    connection.close();
  });

  it("RT34–RT36: a node cut off from the backend: another adopts its connection, the turn in flight ends with an error, the session goes on with a new agent", async (context) => {
    const shared = new MemoryFleetBackend();
    const cutOff = partitionable(shared);
    const a = await startNode(context, cutOff, "a");
    const b = await startNode(context, shared, "b");
    const { id, connection, sessionId, headers } = await openSession(a, b);
    const session = await openStream(b.url, id, sessionId);
    await post(b.url, prompt(2, sessionId, "wait"), headers);
    await session.waitFor((message) => message.method === "session/update");
    cutOff.cut();
    const lost = await session.waitFor((message) => message.id === 2);
    expect(lost.error.data[NODE_LOST_DATA_KEY]).toBe(true);
    expect(lost.error.message).toMatch(/stopped before answering/);
    // The new agent process on b took the session up again: the next turn runs there.
    expect(b.agents).toBe(1);
    expect((await post(b.url, prompt(3, sessionId, "hello"), headers)).status).toBe(202);
    expect((await session.waitFor((message) => message.id === 3)).result.stopReason).toBe("end_turn");
    expect(session.messages.some((message) => message.params?.update?.content?.text === "echo: hello")).toBe(true);
    // Healed, node a learns it lost the connection and writes nothing more to it.
    cutOff.heal();
    expect((await shared.connection(id))?.owner).toBe("b");
    await until(() => a.closed === 1, 10_000, "node a to let its agent go");
    connection.close();
    session.close();
  });

  it("RT39: a node that closes hands its connections over: another adopts them at once (not after the node timeout), and the session goes on", async (context) => {
    const backend = new MemoryFleetBackend();
    // A node timeout far beyond the test's waits: only the hand-over can move the connection in time.
    const a = await startNode(context, backend, "a", resumingAgent, false, {}, 600_000);
    const b = await startNode(context, backend, "b", resumingAgent, false, {}, 600_000);
    const { id, connection, sessionId, headers } = await openSession(a, b);
    const session = await openStream(b.url, id, sessionId);
    await a.close();
    expect(a.closed).toBe(1);
    await until(() => b.agents === 1, 10_000, "node b to adopt the connection");
    expect((await post(b.url, prompt(2, sessionId, "after the hand-over"), headers)).status).toBe(202);
    expect((await session.waitFor((message) => message.id === 2)).result.stopReason).toBe("end_turn");
    expect((await backend.connection(id))?.owner).toBe("b");
    connection.close();
    session.close();
  });

  it("RT36: an agent that can neither resume nor load: its sessions' streams end with a reason, never a hang", async (context) => {
    const shared = new MemoryFleetBackend();
    const cutOff = partitionable(shared);
    const a = await startNode(context, cutOff, "a", testAgent);
    const b = await startNode(context, shared, "b", testAgent);
    const { id, connection, sessionId } = await openSession(a, b);
    const raw = await fetch(b.url, { headers: { Accept: "text/event-stream", "Acp-Connection-Id": id, "Acp-Session-Id": sessionId } });
    cutOff.cut();
    const text = await raw.text();
    expect(text).toMatch(/: closed: the server node that held this session stopped, and the agent can neither resume nor load sessions/);
    connection.close();
  });
});

/** Open a stream, retrying while the previous reader's lease is still held (409), within a bound. */
async function until409<T>(open: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await open();
    } catch (error) {
      if (!/409/.test((error as Error).message) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
