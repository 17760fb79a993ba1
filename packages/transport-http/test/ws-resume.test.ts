// RT40: the WebSocket profile resumes. A TCP relay between client and endpoint stands for the
// network; cutting it drops the socket without a close frame, as a network failure would.
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { connectAgent } from "@acpkit/client";
import { connect as connectWebSocket } from "@acpkit/transport-websocket";
import type { TestContext } from "vitest";
import { describe, expect, it } from "vitest";
import { connectRemote, RESUME_META_KEY } from "../src/index.js";
import { INITIALIZE } from "./helpers.js";
import { startEndpoint, until } from "./helpers.js";

/** A relay to `port` on a port of its own; `cut()` destroys every connection through it. */
async function relay(context: TestContext, port: number): Promise<{ port: number; cut(): void; connections: number }> {
  const open = new Set<Socket>();
  const state = { connections: 0 };
  const server: Server = createServer((client) => {
    state.connections++;
    const upstream = tcpConnect(port, "127.0.0.1");
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => open.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  context.onTestFinished(async () => {
    for (const socket of open) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const address = server.address() as { port: number };
  return {
    port: address.port,
    cut: () => {
      for (const socket of open) socket.destroy();
    },
    get connections() {
      return state.connections;
    },
  };
}

const chunks = (text: string) => [...text.matchAll(/chunk (\d+) /g)].map((match) => Number(match[1]));

describe("RT40: the WebSocket profile resumes a dropped socket", () => {
  it("a socket cut mid-turn is replaced: every chunk arrives once, in order, and the turn ends normally", async (context) => {
    const server = await startEndpoint({ resume: true });
    context.onTestFinished(() => server.close());
    const network = await relay(context, server.port);
    const transport = await connectRemote(`ws://127.0.0.1:${network.port}/acp`);
    const agent = await connectAgent(transport);
    context.onTestFinished(() => agent.close());
    const session = await agent.newSession({ cwd: "/tmp" });
    const turn = session.prompt("trickle 300");
    await until(() => chunks(JSON.stringify(session.state.toJSON())).length >= 20, 10_000, "20 chunks");
    network.cut();
    expect((await turn).stopReason).toBe("end_turn");
    expect(chunks(JSON.stringify(session.state.toJSON()))).toEqual(Array.from({ length: 300 }, (_, index) => index));
    expect(network.connections).toBe(2);
    // The connection goes on: a frame sent after the resume reaches the same agent.
    expect((await session.prompt("hello")).stopReason).toBe("end_turn");
    expect(server.transports).toHaveLength(1);
  });

  it("what the client sends while its socket is down is sent again on the new one, once", async (context) => {
    const server = await startEndpoint({ resume: true });
    context.onTestFinished(() => server.close());
    const network = await relay(context, server.port);
    const agent = await connectAgent(await connectRemote(`ws://127.0.0.1:${network.port}/acp`));
    context.onTestFinished(() => agent.close());
    const session = await agent.newSession({ cwd: "/tmp" });
    network.cut();
    // Sent at once, before the client has heard of the cut: the frame goes to a dead socket.
    expect((await session.prompt("first")).stopReason).toBe("end_turn");
    expect((await session.prompt("second")).stopReason).toBe("end_turn");
    const text = JSON.stringify(session.state.toJSON());
    expect(text.match(/echo: first/g)).toHaveLength(1);
    expect(text.match(/echo: second/g)).toHaveLength(1);
    expect(network.connections).toBe(2);
  });

  it("the initialize answer advertises it, with the connection's id, only when resume is on", async (context) => {
    for (const resume of [true, false]) {
      const server = await startEndpoint({ resume });
      context.onTestFinished(() => server.close());
      const transport = await connectRemote(`ws://127.0.0.1:${server.port}/acp`);
      const answers: any[] = [];
      transport.start({ onMessage: (message) => answers.push(message), onTransportError: () => {} });
      await transport.send(INITIALIZE as never);
      await until(() => answers.length === 1, 10_000, "the initialize answer");
      const answer = typeof answers[0] === "string" ? JSON.parse(answers[0]) : answers[0];
      const advertised = answer.result._meta?.[RESUME_META_KEY];
      if (resume) expect(advertised).toEqual({ maxEvents: 1000, maxChars: 4 * 1024 * 1024, connectionId: expect.any(String) });
      else expect(advertised).toBeUndefined();
      await transport.close();
    }
  });

  it("an upgrade naming a connection nobody waits for is refused with 404", async (context) => {
    const server = await startEndpoint({ resume: true });
    context.onTestFinished(() => server.close());
    await expect(connectWebSocket(`ws://127.0.0.1:${server.port}/acp?acp_connection=no-such-connection&acp_last_event=3`)).rejects.toThrow(/404/);
  });

  it("without resume on the endpoint, a cut socket ends the transport as before", async (context) => {
    const server = await startEndpoint({});
    context.onTestFinished(() => server.close());
    const network = await relay(context, server.port);
    const transport = await connectRemote(`ws://127.0.0.1:${network.port}/acp`);
    const agent = await connectAgent(transport);
    context.onTestFinished(() => agent.close());
    network.cut();
    expect((await transport.closed).reason).toBeTruthy();
    expect(network.connections).toBe(1);
  });
});
