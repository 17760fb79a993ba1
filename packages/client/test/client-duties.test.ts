// Client duties that need an agent misbehaving or racing in a precise way, so the agent here is a
// bare core Connection scripted by each test (memory transport, v1 and v2).
import { describe, expect, it } from "vitest";
import { AcpError, Connection, ErrorCode, RpcError, type Diagnostic } from "@acpkit/core";
import { createMemoryPair } from "@acpkit/transport-memory";
import { connectAgent } from "@acpkit/client";

type Script = (agent: Connection, sessionId: string) => void;

/** A bare agent answering initialize with `version` and session/new with "s1"; `script` adds the rest. */
function scriptedAgent(version: number, script: Script = () => {}) {
  const [clientSide, agentSide] = createMemoryPair();
  const agent = new Connection(agentSide, { side: "agent" });
  const initParams: unknown[] = [];
  agent.onRequest("initialize", (params) => {
    initParams.push(params);
    if (version === 1 || version === 2) agent.setVersion(version);
    return version === 2
      ? { protocolVersion: 2, capabilities: { session: { prompt: {}, mcp: { stdio: {} } }, auth: {} }, authMethods: [] }
      : { protocolVersion: version, agentCapabilities: {}, authMethods: [] };
  });
  agent.onRequest("session/new", () => ({ sessionId: "s1" }));
  script(agent, "s1");
  return { clientSide, agent, initParams };
}

/** A pending tool call t1 in `version`'s shape (v1 creates it with tool_call, v2 with its first tool_call_update). */
function pendingToolCall(version: 1 | 2, title: string) {
  return version === 1
    ? ({ sessionUpdate: "tool_call", toolCallId: "t1", title, status: "pending" } as const)
    : ({ sessionUpdate: "tool_call_update", toolCallId: "t1", title, status: "pending" } as const);
}

describe.each([1, 2] as const)("client duties on v%i", (version) => {
  it("C11: an error response to a cancelled prompt shows as a cancelled turn, with a diagnostic", async () => {
    let cancelled!: () => void;
    const cancelArrived = new Promise<void>((resolve) => (cancelled = resolve));
    const { clientSide } = scriptedAgent(version, (agent) => {
      agent.onNotification("session/cancel", () => cancelled());
      agent.onRequest("session/prompt", async () => {
        await cancelArrived;
        throw new RpcError(ErrorCode.InternalError, "model client crashed while aborting");
      });
    });
    const diagnostics: Diagnostic[] = [];
    const client = await connectAgent(clientSide, { protocolVersion: version, onDiagnostic: (d) => diagnostics.push(d) });
    const session = await client.newSession({ cwd: "/work" });
    const turn = session.prompt("go");
    await turn.cancel();
    await expect(turn).resolves.toEqual({ stopReason: "cancelled" });
    expect(diagnostics.map((d) => d.code)).toContain("error_after_cancel");
    await client.close();
  });

  it("an error response without a cancel rejects the turn (and its iterator) with the RpcError", async () => {
    const { clientSide } = scriptedAgent(version, (agent) => {
      agent.onRequest("session/prompt", () => {
        throw new RpcError(ErrorCode.InternalError, "agent broke");
      });
    });
    const client = await connectAgent(clientSide, { protocolVersion: version });
    const session = await client.newSession({ cwd: "/work" });
    const turn = session.prompt("go");
    await expect(turn).rejects.toMatchObject({ code: ErrorCode.InternalError, message: "agent broke" });
    const iterate = async () => {
      for await (const _ of turn);
    };
    await expect(iterate()).rejects.toBeInstanceOf(RpcError);
    expect(session.state.turns).toEqual([]);
    // The session is free again.
    expect(() => session.prompt("next")).not.toThrow();
    await client.close();
  });

  it("C3: a permission request that arrives after the cancel is answered cancelled without asking the application", async () => {
    let cancelled!: () => void;
    const cancelArrived = new Promise<void>((resolve) => (cancelled = resolve));
    const answers: unknown[] = [];
    const { clientSide } = scriptedAgent(version, (agent, sessionId) => {
      agent.onNotification("session/cancel", () => cancelled());
      agent.onRequest("session/prompt", async () => {
        await cancelArrived;
        await agent.notify("session/update", { sessionId, update: pendingToolCall(version, "Late tool") });
        answers.push(
          await agent.request("session/request_permission", {
            sessionId,
            toolCall: { toolCallId: "t1" },
            options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
          }),
        );
        return { stopReason: "cancelled" };
      });
    });
    let asked = 0;
    const client = await connectAgent(clientSide, {
      protocolVersion: version,
      requestPermission: () => {
        asked++;
        return { outcome: "selected", optionId: "ok" };
      },
    });
    const session = await client.newSession({ cwd: "/work" });
    const turn = session.prompt("go");
    await turn.cancel();
    await expect(turn).resolves.toEqual({ stopReason: "cancelled" });
    expect(answers).toEqual([{ outcome: { outcome: "cancelled" } }]);
    expect(asked).toBe(0);
    // C4: the update that came after the cancel was applied.
    expect(session.state.toolCalls.map((t) => t.title)).toEqual(["Late tool"]);
    await client.close();
  });

  it("E8: permission questions beyond maxRunningRequests are refused with -32603 while the user has not answered", async () => {
    let askedAll!: (answers: PromiseSettledResult<unknown>[]) => void;
    const settled = new Promise<PromiseSettledResult<unknown>[]>((resolve) => (askedAll = resolve));
    const { clientSide } = scriptedAgent(version, (agent, sessionId) => {
      agent.onRequest("session/prompt", async () => {
        await agent.notify("session/update", { sessionId, update: pendingToolCall(version, "Tool") });
        const ask = () =>
          agent.request("session/request_permission", {
            sessionId,
            toolCall: { toolCallId: "t1" },
            options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
          });
        askedAll(await Promise.allSettled([ask(), ask(), ask(), ask(), ask()]));
        return { stopReason: "end_turn" };
      });
    });
    const pending: (() => void)[] = [];
    const client = await connectAgent(clientSide, {
      protocolVersion: version,
      maxRunningRequests: 3,
      // The user has not answered yet: the questions wait until the refusals have come back.
      requestPermission: () => new Promise((resolve) => pending.push(() => resolve({ outcome: "selected", optionId: "ok" }))),
    });
    const session = await client.newSession({ cwd: "/work" });
    const turn = session.prompt("go");
    while (pending.length < 3) await new Promise((resolve) => setTimeout(resolve, 1));
    for (const answer of pending) answer();
    const answers = await settled;
    expect(answers.slice(0, 3)).toEqual(Array(3).fill({ status: "fulfilled", value: { outcome: { outcome: "selected", optionId: "ok" } } }));
    for (const refused of answers.slice(3)) {
      expect(refused.status).toBe("rejected");
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: ErrorCode.InternalError, data: { reason: "too_many_requests", limit: 3 } });
    }
    await expect(turn).resolves.toEqual({ stopReason: "end_turn" });
    await client.close();
  });
});

describe("initialize", () => {
  it("sends v1 fields (with fs only for the handlers given) when offering 1, v2 fields when offering 2", async () => {
    const v1 = scriptedAgent(1);
    const c1 = await connectAgent(v1.clientSide, { fs: { readTextFile: () => "" } });
    expect(v1.initParams[0]).toMatchObject({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: false } });
    expect(v1.initParams[0]).not.toHaveProperty("capabilities");
    await c1.close();

    const v2 = scriptedAgent(2);
    const c2 = await connectAgent(v2.clientSide, { protocolVersion: 2, fs: { readTextFile: () => "" } });
    expect(v2.initParams[0]).toEqual({ protocolVersion: 2, capabilities: {}, clientInfo: expect.objectContaining({ name: expect.any(String) }) });
    expect(c2.agentCapabilities).toMatchObject({ loadSession: false, mcp: { stdio: true, http: false } });
    await c2.close();
  });

  // Before: "Cannot read properties of null (reading 'pause')" from inside the Connection.
  it("rejects a non-transport at once with a TypeError that names connectAgent and what is missing", async () => {
    await expect(connectAgent(null as never)).rejects.toThrow(
      new TypeError("connectAgent: the transport must be an object with start(receiver), send(message), close() and a closed promise, got null"),
    );
    await expect(connectAgent({ send() {} } as never)).rejects.toThrow(/^connectAgent: .*; this one has no start, close, closed$/);
  });

  it("closes and rejects with VersionUnsupported when the agent answers a version other than 1 or 2", async () => {
    const { clientSide } = scriptedAgent(3);
    const failure = await connectAgent(clientSide, { protocolVersion: 2 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AcpError);
    expect((failure as AcpError).code).toBe("VersionUnsupported");
    await expect(clientSide.closed).resolves.toBeDefined();
  });
});
