// RT38: the HTTP+SSE client's reconnect-and-resume when its connection is lost and the endpoint
// offers no streams that resume: here the whole server goes away mid-turn and a new one (which knows
// nothing of the old connection) comes up on the same port.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentDefinition, serveAgent } from "@acpkit/agent";
import { connectAgent } from "@acpkit/client";
import { isRpcError } from "@acpkit/core";
import type { TestContext } from "vitest";
import { describe, expect, it } from "vitest";
import { connectHttp, createAcpEndpoint, RECONNECTED_DATA_KEY } from "../src/index.js";

import { testAgent } from "./helpers.js";

/** A server on `port` (0: any) serving `agent`; `crash()` drops every socket without a word, as a dying process would. */
async function start(
  context: TestContext,
  agent: AgentDefinition,
  port = 0,
): Promise<{ url: string; port: number; crash(): Promise<void>; sessions: string[] }> {
  const sessions: string[] = [];
  const endpoint = createAcpEndpoint({
    onConnection: (transport) =>
      serveAgent(transport, {
        ...agent,
        resumeSession: agent.resumeSession
          ? (request) => {
              sessions.push(`resumed ${request.sessionId}`);
              return agent.resumeSession!(request);
            }
          : undefined,
      }),
  });
  const server: Server = createServer(endpoint.node);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  let crashed = false;
  const crash = async () => {
    if (crashed) return;
    crashed = true;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    void endpoint.close();
  };
  context.onTestFinished(crash);
  const bound = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${bound}/acp`, port: bound, crash, sessions };
}

const resuming: AgentDefinition = { ...testAgent, resumeSession: () => ({}) };

describe("RT38: reconnect and resume when the connection is lost", () => {
  it("the server dies mid-turn and a new one comes up: the turn fails with the reconnect error, the session goes on", async (context) => {
    const first = await start(context, resuming);
    const agent = await connectAgent(connectHttp(first.url));
    context.onTestFinished(() => agent.close());
    const session = await agent.newSession({ cwd: "/tmp" });
    const running = session.prompt("wait").then(
      () => undefined,
      (error: unknown) => error,
    );
    await context.expect.poll(() => JSON.stringify(session.state.toJSON()), { timeout: 10_000 }).toContain("waiting");
    await first.crash();
    const second = await start(context, resuming, first.port);
    const error = await running;
    expect(isRpcError(error)).toBe(true);
    expect((error as { data?: Record<string, unknown> }).data?.[RECONNECTED_DATA_KEY]).toBe(true);
    // The new server's agent was asked to take the session up again, and serves its next turn.
    await context.expect.poll(() => second.sessions, { timeout: 10_000 }).toEqual([`resumed ${session.sessionId}`]);
    expect((await session.prompt("hello")).stopReason).toBe("end_turn");
    expect(JSON.stringify(session.state.toJSON())).toContain("echo: hello");
  });

  it("an agent that can only load: the session is loaded on the new connection and its replayed history is not delivered twice", async (context) => {
    const loading: AgentDefinition = {
      ...testAgent,
      features: { loadSession: true },
      loadSession: (_request, replay) => {
        replay.message("replayed history");
      },
    };
    const first = await start(context, loading);
    const transport = connectHttp(first.url);
    const agent = await connectAgent(transport);
    context.onTestFinished(() => agent.close());
    const session = await agent.newSession({ cwd: "/tmp" });
    expect((await session.prompt("before")).stopReason).toBe("end_turn");
    const before = transport.connection;
    await first.crash();
    await start(context, loading, first.port);
    // Once the transport is on a new connection, the next turn runs on the new server.
    await context.expect.poll(() => transport.connection !== undefined && transport.connection !== before, { timeout: 10_000 }).toBe(true);
    expect((await session.prompt("after")).stopReason).toBe("end_turn");
    const text = JSON.stringify(session.state.toJSON());
    expect(text).toContain("echo: after");
    expect(text).not.toContain("replayed history");
  });

  it("with reconnect: false, a lost connection closes the transport as before", async (context) => {
    const first = await start(context, resuming);
    const transport = connectHttp(first.url, { reconnect: false });
    const agent = await connectAgent(transport);
    context.onTestFinished(() => agent.close());
    await agent.newSession({ cwd: "/tmp" });
    await first.crash();
    expect((await transport.closed).reason).toMatch(/connection stream|could not be reached/);
  });

  it("an endpoint that is gone for good: the transport closes after its attempts, naming why", async (context) => {
    const first = await start(context, resuming);
    const transport = connectHttp(first.url);
    const agent = await connectAgent(transport);
    context.onTestFinished(() => agent.close());
    await agent.newSession({ cwd: "/tmp" });
    await first.crash();
    expect((await transport.closed).reason).toMatch(/lost .* and a new connection could not be opened after 5 attempts/);
  });
});
