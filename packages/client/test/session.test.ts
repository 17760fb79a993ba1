// connectAgent + ClientSession against our scenario agent, over the in-memory and stdio
// transports, for protocol v1 and v2: full turn into SessionState, ordering, cancellation duties.
import { afterEach, describe, expect, it } from "vitest";
import { AcpError, isAcpError } from "@acpkit/core";
import { MAX_KEPT_TURN_UPDATES, type ConnectedAgent, type SessionUpdate, type PermissionRequest } from "@acpkit/client";
import { connectScenarioAgent, textOf, type TransportKind } from "./harness.js";

const matrix: Array<[TransportKind, 1 | 2]> = [
  ["memory", 1],
  ["memory", 2],
  ["stdio", 1],
  ["stdio", 2],
];

describe.each(matrix)("client over %s, protocol v%i", (kind, version) => {
  let agent: ConnectedAgent | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it("negotiates the offered version and exposes the agent's capabilities", async () => {
    agent = await connectScenarioAgent(kind, { protocolVersion: version });
    expect(agent.protocolVersion).toBe(version);
    expect(agent.agentInfo).toMatchObject({ name: "scenario-agent" });
    expect(agent.agentCapabilities).toMatchObject({ loadSession: true, prompt: { image: false, audio: false, embeddedContext: true } });
  });

  it("runs a full turn: the Turn yields every update and resolves to the stop reason; the state holds the result", async () => {
    const asked: PermissionRequest[] = [];
    agent = await connectScenarioAgent(kind, {
      protocolVersion: version,
      requestPermission: (request) => {
        asked.push(request);
        return { outcome: "selected", optionId: "allow" };
      },
      fs: { readTextFile: ({ path }) => `contents of ${path}` },
    });
    const session = await agent.newSession({ cwd: "/work" });
    const turn = session.prompt("full");
    const seen: string[] = [];
    for await (const update of turn) seen.push(update.sessionUpdate as string);
    await expect(turn).resolves.toMatchObject({ stopReason: "end_turn" });

    // Both versions reach the application as the same model updates.
    expect(seen[0]).toBe("plan_update");
    expect(seen).toContain("agent_thought_chunk");
    expect(seen).toContain("tool_call_update");
    expect(seen.at(-1)).toBe("usage_update");

    const state = session.state;
    expect(state.plans).toHaveLength(1);
    expect(state.toolCalls).toHaveLength(1);
    const [tool] = state.toolCalls;
    expect(tool).toMatchObject({ title: "Read notes.txt", kind: "read", status: "completed" });
    expect(asked.map((r) => r.toolCall.toolCallId)).toEqual([tool!.toolCallId]);
    // v1 offers fs to the agent; v2 has no client fs, so the agent reports that.
    const fileText = version === 1 ? "contents of /home/user/project/notes.txt" : "(no client fs)";
    expect(tool!.content).toEqual([{ type: "content", content: { type: "text", text: fileText } }]);
    const agentMessages = state.messages.filter((m) => m.kind === "agent_message").map(textOf);
    expect(agentMessages).toEqual(["Reading the file.", `The file says: ${fileText}`]);
    expect(state.messages.filter((m) => m.kind === "agent_thought").map(textOf)).toEqual(["Let me look."]);
    expect(state.usage).toMatchObject({ used: 1200, size: 200000 });
    expect(state.permissions).toEqual([expect.objectContaining({ toolCallId: tool!.toolCallId, outcome: { outcome: "selected", optionId: "allow" } })]);
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("never resolves the prompt result before every earlier update was applied", async () => {
    agent = await connectScenarioAgent(kind, { protocolVersion: version });
    const session = await agent.newSession({ cwd: "/work" });
    let applied = 0;
    session.onUpdate(() => applied++);
    const turn = session.prompt("burst 300");
    const seenAtResolution = await turn.then(() => ({ applied, chunks: session.state.messages.find((m) => m.kind === "agent_message")?.content.length }));
    expect(seenAtResolution).toEqual({ applied: 300, chunks: 300 });
  });

  it("an iterator that stalls past MAX_KEPT_TURN_UPDATES throws UpdatesDropped; the state still holds every update", async () => {
    agent = await connectScenarioAgent(kind, { protocolVersion: version });
    const session = await agent.newSession({ cwd: "/work" });
    const count = MAX_KEPT_TURN_UPDATES + 100;
    const turn = session.prompt(`messages ${count}`);
    const iterator = turn[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ sessionUpdate: expect.stringMatching(/^agent_message/) }); // v1 chunk, v2 whole message
    // The application stops reading while the agent sends the rest of the turn.
    await expect(turn).resolves.toMatchObject({ stopReason: "end_turn" });
    const error = await iterator.next().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isAcpError(error, "UpdatesDropped")).toBe(true);
    expect((error as AcpError).data).toMatchObject({ from: 1 });
    const messages = session.state.messages.filter((m) => m.kind === "agent_message");
    expect(messages).toHaveLength(count);
    expect(textOf(messages.at(-1))).toBe(`message ${count - 1}`);
  });

  it("turns a string prompt into one text block", async () => {
    agent = await connectScenarioAgent(kind, { protocolVersion: version });
    const session = await agent.newSession({ cwd: "/work" });
    await session.prompt("hello there");
    const answer = session.state.messages.filter((m) => m.kind === "agent_message").map(textOf);
    expect(answer).toEqual(["echo:hello there"]);
  });

  it("cancel(): answers the pending permission request cancelled, marks the tool call cancelled and resolves cancelled", async () => {
    let permissionSignal: AbortSignal | undefined;
    agent = await connectScenarioAgent(kind, {
      protocolVersion: version,
      requestPermission: (_request, { signal }) => {
        permissionSignal = signal;
        void session.cancel();
        // The user never answers: the client must answer "cancelled" on its own (C3).
        return new Promise(() => {});
      },
    });
    const session = await agent.newSession({ cwd: "/work" });
    const turn = session.prompt("permission");
    const updates: SessionUpdate[] = [];
    for await (const update of turn) updates.push(update);
    await expect(turn).resolves.toMatchObject({ stopReason: "cancelled" });
    expect(permissionSignal?.aborted).toBe(true);
    // Updates after the cancel were still applied (C4)…
    expect(session.state.messages.map(textOf)).toContain("outcome:cancelled");
    // …and the unfinished tool call shows cancelled locally (C2); nothing like it went on the wire.
    expect(session.state.toolCalls[0]).toMatchObject({ title: "Delete build/", status: "cancelled" });
    expect(session.state.permissions.map((p) => p.outcome)).toEqual([{ outcome: "cancelled" }]);
    expect(session.state.turns).toEqual([{ stopReason: "cancelled" }]);
  });

  it("cancel races: twice, after the turn ended, and through the prompt's AbortSignal", async () => {
    agent = await connectScenarioAgent(kind, { protocolVersion: version });
    const session = await agent.newSession({ cwd: "/work" });

    const first = session.prompt("wait");
    await Promise.all([first.cancel(), first.cancel(), session.cancel()]);
    await expect(first).resolves.toMatchObject({ stopReason: "cancelled" });

    // After the end: a no-op, and the next turn is not affected.
    await first.cancel();
    await session.cancel();
    await expect(session.prompt("hello")).resolves.toMatchObject({ stopReason: "end_turn" });

    const controller = new AbortController();
    const third = session.prompt("wait", { signal: controller.signal });
    controller.abort();
    await expect(third).resolves.toMatchObject({ stopReason: "cancelled" });
    expect(session.state.turns.map((t) => t.stopReason)).toEqual(["cancelled", "end_turn", "cancelled"]);
  });

  it("refuses a second prompt while a turn runs, and a block the agent did not advertise", async () => {
    agent = await connectScenarioAgent(kind, { protocolVersion: version });
    const session = await agent.newSession({ cwd: "/work" });
    const running = session.prompt("wait");
    expect(() => session.prompt("again")).toThrow(/already has a prompt turn in progress/);
    await running.cancel();
    await running;
    const image = { type: "image", data: "AAAA", mimeType: "image/png" } as never;
    expect(() => session.prompt([image])).toThrow(AcpError);
    expect(() => session.prompt([image])).toThrow(/prompt\.image/);
    // Before: a number failed as "content is not iterable", and on v1 an unknown block was dropped
    // by the bridge (a lossy diagnostic) and the prompt sent without it.
    expect(() => session.prompt(123 as never)).toThrow(new TypeError("prompt: content must be a string or a list of content blocks, got a number"));
    expect(() => session.prompt([{ type: "bogus" }] as never)).toThrow(
      'prompt: block 0 has type "bogus"; a prompt block is an object of type text, image, audio, resource_link or resource',
    );
    expect(() => session.prompt(["hi", null] as never)).toThrow("prompt: block 0 is a string;");
    expect(session.turn).toBeUndefined();
  });

  it("loads a session: the replay arrives before loadSession resolves", async () => {
    agent = await connectScenarioAgent(kind, { protocolVersion: version });
    const session = await agent.loadSession({ sessionId: "sess_old", cwd: "/work" });
    expect(session.sessionId).toBe("sess_old");
    expect(session.state.messages.map((m) => [m.kind, textOf(m)])).toEqual([
      ["user_message", "earlier question"],
      ["agent_message", "earlier answer"],
    ]);
  });
});

describe("version negotiation", () => {
  it("offers 1 by default and runs v1", async () => {
    const agent = await connectScenarioAgent("memory", {});
    expect(agent.protocolVersion).toBe(1);
    await agent.close();
  });

  it("accepts a v1 answer to an offer of 2 (downgrade)", async () => {
    const agent = await connectScenarioAgent("memory", { protocolVersion: 2 }, [1]);
    expect(agent.protocolVersion).toBe(1);
    const session = await agent.newSession({ cwd: "/work" });
    await expect(session.prompt("hello")).resolves.toMatchObject({ stopReason: "end_turn" });
    await agent.close();
  });
});
