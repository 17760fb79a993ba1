// The runtime guarantees of serveAgent, each checked on the wire, over the in-memory and stdio
// transports, for protocol v1 and v2.
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode, RpcError } from "@acpkit/core";
import { agentTexts, initialize, newSession, prompt, responseIndex, startAgent, type Started, type TransportKind } from "./harness.js";

const matrix: Array<[TransportKind, 1 | 2]> = [
  ["memory", 1],
  ["memory", 2],
  ["stdio", 1],
  ["stdio", 2],
];

describe.each(matrix)("serveAgent over %s, protocol v%i", (kind, version) => {
  let started: Started;
  let sessionId: string;

  afterEach(async () => {
    await started?.close();
  });

  async function setup(): Promise<void> {
    started = startAgent(kind);
    const result = await initialize(started, version);
    expect(result.protocolVersion).toBe(version);
    sessionId = await newSession(started);
  }

  const isUpdateText = (text: string) => (m: any) =>
    m.method === "session/update" &&
    ((m.params.update.sessionUpdate === "agent_message_chunk" && m.params.update.content.text === text) ||
      (m.params.update.sessionUpdate === "agent_message" && m.params.update.content?.[0]?.text === text));

  it("writes every update of a turn before the session/prompt response", async () => {
    await setup();
    const result = await prompt(started, sessionId, "burst 200");
    expect(result.stopReason).toBe("end_turn");
    const responseAt = responseIndex(started.wire, started.wire.lastRequestId("session/prompt"));
    const updateIndexes = started.wire.received.flatMap((m, i) => (m.method === "session/update" ? [i] : []));
    expect(updateIndexes).toHaveLength(200);
    expect(Math.max(...updateIndexes)).toBeLessThan(responseAt);
    // In order, with one stable message id.
    const chunks = started.wire.updates(sessionId);
    expect(chunks.map((u) => u.content.text)).toEqual(Array.from({ length: 200 }, (_, i) => `chunk ${i} `));
    expect(new Set(chunks.map((u) => u.messageId)).size).toBe(1);
  });

  it('answers stopReason "cancelled" after session/cancel even though the handler threw an abort error', async () => {
    await setup();
    const pending = prompt(started, sessionId, "throw-on-abort");
    await started.wire.waitFor(isUpdateText("working"));
    await started.client.notify("session/cancel", { sessionId });
    await expect(pending).resolves.toEqual({ stopReason: "cancelled" });
    // The update the handler sent while stopping still came before the response (C6).
    const responseAt = responseIndex(started.wire, started.wire.lastRequestId("session/prompt"));
    const stoppingAt = started.wire.received.findIndex(isUpdateText("stopping"));
    expect(stoppingAt).toBeGreaterThan(-1);
    expect(stoppingAt).toBeLessThan(responseAt);
  });

  it("never turns a cancelled turn into an error response, whatever the handler throws", async () => {
    await setup();
    const pending = prompt(started, sessionId, "fail-on-abort");
    // Let the handler start before cancelling.
    await prompt(started, sessionId, "probe").catch((error: RpcError) => expect(error.code).toBe(ErrorCode.InvalidRequest));
    await started.client.notify("session/cancel", { sessionId });
    await expect(pending).resolves.toEqual({ stopReason: "cancelled" });
  });

  it.each([
    ["a cancelled outcome", () => ({ outcome: { outcome: "cancelled" as const } })],
    [
      "error -32800",
      () => {
        throw new RpcError(ErrorCode.RequestCancelled, "Request cancelled");
      },
    ],
  ])("resolves a pending permission request as cancelled on session/cancel (client answers with %s)", async (_label, answer) => {
    await setup();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const asked = new Promise<any>((resolve) =>
      started.client.onRequest("session/request_permission", async (params) => {
        resolve(params);
        await released;
        return answer();
      }),
    );
    const pending = prompt(started, sessionId, "permission");
    const request = await asked;
    expect(request.sessionId).toBe(sessionId);
    await started.client.notify("session/cancel", { sessionId });
    release();
    await expect(pending).resolves.toEqual({ stopReason: "cancelled" });
    expect(agentTexts(started.wire, sessionId)).toContain("outcome:cancelled");
    // O3: the tool call was introduced before the permission request named it.
    const toolIntro = started.wire.received.findIndex((m) => m.method === "session/update" && m.params.update.toolCallId === request.toolCall.toolCallId);
    const requestAt = started.wire.received.findIndex((m) => m.method === "session/request_permission");
    expect(toolIntro).toBeGreaterThan(-1);
    expect(toolIntro).toBeLessThan(requestAt);
    expect(started.wire.received[toolIntro]!.params.update.sessionUpdate).toBe(version === 1 ? "tool_call" : "tool_call_update");
  });

  it("treats a -32800 answer without a cancel as not approved", async () => {
    await setup();
    started.client.onRequest("session/request_permission", () => {
      throw new RpcError(ErrorCode.RequestCancelled, "Request cancelled");
    });
    await expect(prompt(started, sessionId, "permission")).resolves.toEqual({ stopReason: "end_turn" });
    expect(agentTexts(started.wire, sessionId)).toContain("outcome:cancelled");
  });

  it("answers a handler error with a JSON-RPC error response, after the turn's updates", async () => {
    await setup();
    const failure = await prompt(started, sessionId, "fail").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcError);
    expect((failure as RpcError).code).toBe(ErrorCode.InternalError);
    expect((failure as RpcError).message).toContain("boom");
    const responseAt = responseIndex(started.wire, started.wire.lastRequestId("session/prompt"));
    expect(started.wire.received.findIndex(isUpdateText("about to fail"))).toBeLessThan(responseAt);
    // The session is usable afterwards.
    await expect(prompt(started, sessionId, "hello")).resolves.toEqual({ stopReason: "end_turn" });
  });

  it("refuses a second prompt on a busy session with -32600 turn_in_progress", async () => {
    await setup();
    const first = prompt(started, sessionId, "wait");
    await started.wire.waitFor(isUpdateText("waiting"));
    const second = await prompt(started, sessionId, "hello").catch((error: unknown) => error);
    expect(second).toBeInstanceOf(RpcError);
    expect((second as RpcError).code).toBe(ErrorCode.InvalidRequest);
    expect((second as RpcError).data).toEqual({ reason: "turn_in_progress" });
    expect((second as RpcError).message).toMatch(/already has a prompt turn in progress/);
    await started.client.notify("session/cancel", { sessionId });
    await expect(first).resolves.toEqual({ stopReason: "cancelled" });
  });

  it("sends nothing for a turn after its cancelled response, even when the handler keeps writing", async () => {
    await setup();
    const diagnostics: string[] = [];
    started.server?.onDiagnostic((d) => diagnostics.push(d.code));
    const first = prompt(started, sessionId, "wait");
    await started.wire.waitFor(isUpdateText("waiting"));
    await started.client.notify("session/cancel", { sessionId });
    await expect(first).resolves.toEqual({ stopReason: "cancelled" });
    const cancelledAt = responseIndex(started.wire, started.wire.lastRequestId("session/prompt"));
    // The next turn makes the old turn's handles write again: those writes must be dropped.
    await expect(prompt(started, sessionId, "poke-old-turn")).resolves.toEqual({ stopReason: "end_turn" });
    const after = started.wire.received.slice(cancelledAt + 1).filter((m) => m.method === "session/update");
    const texts = after.flatMap((m) => {
      const u = m.params.update;
      if (u.sessionUpdate === "agent_message_chunk") return [u.content.text];
      if (u.sessionUpdate === "agent_message") return (u.content ?? []).map((b: any) => b.text);
      return [`<${u.sessionUpdate}>`];
    });
    expect(texts).toEqual(["poked"]);
    // In-process we can also see why: both late writes were dropped with a diagnostic.
    if (started.server) expect(diagnostics.filter((code) => code === "turn_closed")).toHaveLength(2);
  });

  describe("cancellation races", () => {
    it("cancel sent right behind the prompt (before the handler could look) still ends the turn cancelled", async () => {
      await setup();
      const pending = prompt(started, sessionId, "signal-check");
      void started.client.notify("session/cancel", { sessionId });
      await expect(pending).resolves.toEqual({ stopReason: "cancelled" });
    });

    it("cancel after the turn ended is ignored; the next turn is not cancelled", async () => {
      await setup();
      await expect(prompt(started, sessionId, "hello")).resolves.toEqual({ stopReason: "end_turn" });
      await started.client.notify("session/cancel", { sessionId });
      await expect(prompt(started, sessionId, "hello again")).resolves.toEqual({ stopReason: "end_turn" });
      expect(agentTexts(started.wire, sessionId)).toEqual(["echo:hello", "echo:hello again"]);
    });

    it("cancel twice gives one cancelled response and leaves the session usable", async () => {
      await setup();
      const pending = prompt(started, sessionId, "wait");
      await started.wire.waitFor(isUpdateText("waiting"));
      await started.client.notify("session/cancel", { sessionId });
      await started.client.notify("session/cancel", { sessionId });
      await expect(pending).resolves.toEqual({ stopReason: "cancelled" });
      await expect(prompt(started, sessionId, "hello")).resolves.toEqual({ stopReason: "end_turn" });
      const promptResponses = started.wire.received.filter((m) => m.method === undefined && m.result?.stopReason !== undefined);
      expect(promptResponses.map((m) => m.result.stopReason)).toEqual(["cancelled", "end_turn"]);
    });
  });
});
