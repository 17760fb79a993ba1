// The warm-up (src/warm-up.ts): while the first initialize of a version is on its way, connectAgent
// runs the client's first exchange once against a scripted in-process agent. Its script must keep
// matching what the client accepts (any diagnostic, lost update or other stop reason means it went
// stale), it runs once per process and version, and nothing of it reaches the real connection.
import { RecordingTransport } from "@acpkit/test-support/recording-transport";
import { createMemoryPair } from "@acpkit/transport-memory";
import { describe, expect, it } from "vitest";
import { connectAgent, type ConnectedAgent } from "../src/connect.js";
import type { ConnectOptions } from "../src/types.js";
import { isWarmedUp, runWarmUp, warmUpOnce } from "../src/warm-up.js";
import type { Transport } from "@acpkit/core";

describe("the scripted first exchange", () => {
  for (const version of [1, 2] as const)
    for (const validateOutgoing of [true, false])
      it(`runs clean on v${version}${validateOutgoing ? " with outgoing checks" : ""}: every update applied, no diagnostic`, async () => {
        const report = await runWarmUp(version, validateOutgoing, connectAgent);
        expect(report.diagnostics).toEqual([]);
        expect(report.stopReason).toBe("end_turn");
        // v1: plan, thought, two chunks, tool_call, tool_call_update; v2 adds the content chunk and the whole message.
        expect(report.updates).toBe(version === 1 ? 6 : 8);
        const state = report.state as {
          messages: Array<{ kind: string; content: Array<{ text?: string }> }>;
          toolCalls: Array<{ toolCallId: string; status: string }>;
        };
        const said = state.messages.filter((message) => message.kind === "agent_message").map((message) => message.content.map((block) => block.text).join(""));
        expect(said[0]).toBe("Reading the file.");
        expect(state.toolCalls).toEqual([expect.objectContaining({ toolCallId: "t1", status: "completed" })]);
      });
});

describe("warmUpOnce", () => {
  it("runs once per process and version, through the connect function it is given", async () => {
    const calls: ConnectOptions[] = [];
    const counting = (transport: Transport, options: ConnectOptions): Promise<ConnectedAgent> => {
      calls.push(options);
      return connectAgent(transport, options);
    };
    const first = warmUpOnce(1, true, counting);
    expect(first).toBeInstanceOf(Promise);
    expect(warmUpOnce(1, true, counting)).toBeUndefined();
    const report = await first;
    expect(report?.diagnostics).toEqual([]);
    // Its own connection never starts another warm-up and never times out.
    expect(calls).toEqual([expect.objectContaining({ protocolVersion: 1, warmUp: false, requestTimeoutMs: null })]);
    const other = warmUpOnce(2, true, counting);
    expect(other).toBeInstanceOf(Promise);
    expect((await other)?.stopReason).toBe("end_turn");
    expect(calls).toHaveLength(2);
  });

  it("never rejects: a connect that fails costs only the head start", async () => {
    const failing = (): Promise<ConnectedAgent> => Promise.reject(new Error("no agent"));
    await expect(warmUpOnce(2, false, failing)).resolves.toBeUndefined();
  });
});

describe("connectAgent with the warm-up", () => {
  it("is off unless asked for: warmUp: false, or the option left out", async () => {
    const [clientSide, agentSide] = createMemoryPair();
    agentSide.start({
      onMessage(text) {
        const message = (typeof text === "string" ? JSON.parse(text) : text) as { id?: number; method?: string };
        if (message.method === "initialize")
          void agentSide.send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
      },
      onTransportError() {},
    });
    expect(isWarmedUp(1, false)).toBe(false);
    const agent = await connectAgent(clientSide, { validateOutgoing: false, warmUp: false });
    expect(agent.protocolVersion).toBe(1);
    expect(isWarmedUp(1, false)).toBe(false);
    await agent.close();
    // The default (before @acpkit/client 0.2 it was on): nothing runs in the user's process unasked.
    const [defaultClient, defaultAgent] = createMemoryPair();
    defaultAgent.start({
      onMessage(text) {
        const message = JSON.parse(String(text)) as { id?: number; method?: string };
        if (message.method === "initialize")
          void defaultAgent.send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
      },
      onTransportError() {},
    });
    const byDefault = await connectAgent(defaultClient, { validateOutgoing: false });
    expect(isWarmedUp(1, false)).toBe(false);
    await byDefault.close();
  });

  it("puts nothing of it on the real connection: the peer sees one initialize, and no handler or diagnostic listener is called", async () => {
    const [clientSide, agentSide] = createMemoryPair();
    const wire = new RecordingTransport(clientSide);
    // A raw peer: answers initialize (v1) and session/new, and records what it got.
    const got: Array<{ method?: string }> = [];
    agentSide.start({
      onMessage(text) {
        const message = (typeof text === "string" ? JSON.parse(text) : text) as { id?: number; method?: string };
        got.push(message);
        if (message.method === "initialize")
          void agentSide.send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
        if (message.method === "session/new") void agentSide.send({ jsonrpc: "2.0", id: message.id, result: { sessionId: "real" } });
      },
      onTransportError() {},
    });
    const diagnostics: unknown[] = [];
    const permissions: unknown[] = [];
    const agent = await connectAgent(wire, {
      validateOutgoing: false,
      warmUp: true,
      onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
      requestPermission: (request) => {
        permissions.push(request);
        return { outcome: "cancelled" };
      },
    });
    const session = await agent.newSession({ cwd: "/" });
    expect(session.sessionId).toBe("real");
    // connectAgent started the v1 warm-up (asked for, no outgoing checks); no other test of this file does.
    // The warm-up is a chunk of its own, so it starts once that import resolved.
    await expect.poll(() => isWarmedUp(1, false)).toBe(true);
    await agent.close();
    expect(got.map((message) => message.method)).toEqual(["initialize", "session/new"]);
    expect(wire.received.map((message) => message.id)).toEqual([0, 1]);
    expect(diagnostics).toEqual([]);
    expect(permissions).toEqual([]);
  });
});
