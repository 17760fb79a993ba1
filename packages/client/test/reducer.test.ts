// The reducer against docs/protocol.md §5 (worked sequences step by step), §6.3 C2/C4 and the JSON contract.
import type { v2 } from "@acpkit/schema";
import { describe, expect, it } from "vitest";
import {
  type SessionState,
  applyUpdate,
  beginTurn,
  createSessionState,
  markTurnCancelled,
  recordPermission,
  recordPermissionOutcome,
  recordTurnEnd,
  sessionStateToJSON,
} from "../src/state/index.js";

const text = (t: string): v2.ContentBlock => ({ type: "text", text: t });
const item = (t: string): v2.ToolCallContent => ({ type: "content", content: text(t) });
const U = (update: Record<string, unknown>) => update as unknown as v2.SessionUpdate;

function fresh(): SessionState {
  return createSessionState("s1", 2);
}

function applyAll(state: SessionState, updates: readonly Record<string, unknown>[]): SessionState {
  return updates.reduce((s, u) => applyUpdate(s, U(u)), state);
}

describe("messages (docs/protocol.md §5.1)", () => {
  it("follows the worked sequence M1–M9 step by step (message _meta as a patch field: X6)", () => {
    const [A, B, C, D, E, F] = ["A", "B", "C", "D", "E", "F"].map(text);
    const steps: [Record<string, unknown>, v2.ContentBlock[], Record<string, unknown> | undefined][] = [
      [{ sessionUpdate: "agent_message", messageId: "m", content: [A] }, [A!], undefined],
      [{ sessionUpdate: "agent_message_chunk", messageId: "m", content: B }, [A!, B!], undefined],
      [{ sessionUpdate: "agent_message", messageId: "m", _meta: { k: 1 } }, [A!, B!], { k: 1 }],
      [{ sessionUpdate: "agent_message", messageId: "m", content: [C] }, [C!], { k: 1 }],
      [{ sessionUpdate: "agent_message_chunk", messageId: "m", content: D, _meta: { z: 2 } }, [C!, D!], { k: 1 }],
      [{ sessionUpdate: "agent_message", messageId: "m", content: null }, [], { k: 1 }],
      [{ sessionUpdate: "agent_message_chunk", messageId: "m", content: E }, [E!], { k: 1 }],
      [{ sessionUpdate: "agent_message", messageId: "m", _meta: null }, [E!], undefined],
    ];
    let state = fresh();
    for (const [update, content, meta] of steps) {
      state = applyUpdate(state, U(update));
      const message = state.message("m")!;
      expect(message.content).toEqual(content);
      if (meta === undefined) expect("_meta" in message).toBe(false);
      else expect(message._meta).toEqual(meta);
    }
    // Step 9: a different id is a different message, even when adjacent (M9).
    state = applyUpdate(state, U({ sessionUpdate: "agent_message_chunk", messageId: "m2", content: F }));
    expect(state.message("m")!.content).toEqual([E]);
    expect(state.message("m2")!.content).toEqual([F]);
    expect(state.messages.map((m) => m.messageId)).toEqual(["m", "m2"]);
  });

  it("creates a message from an update without content with empty content and no meta (M4)", () => {
    const state = applyUpdate(fresh(), U({ sessionUpdate: "agent_thought", messageId: "t" }));
    expect(sessionStateToJSON(state).messages).toEqual([{ messageId: "t", kind: "agent_thought", content: [] }]);
  });

  it("clears content with [] just like null (M7)", () => {
    const state = applyAll(fresh(), [
      { sessionUpdate: "user_message", messageId: "u", content: [text("x")] },
      { sessionUpdate: "user_message", messageId: "u", content: [] },
    ]);
    expect(state.message("u")!.content).toEqual([]);
  });

  it("ignores an update for a message of another kind and reports it (M10)", () => {
    const state = applyAll(fresh(), [
      { sessionUpdate: "user_message_chunk", messageId: "x", content: text("hi") },
      { sessionUpdate: "agent_message_chunk", messageId: "x", content: text("oops") },
      { sessionUpdate: "agent_message", messageId: "x", content: [] },
    ]);
    expect(state.message("x")).toEqual({ messageId: "x", kind: "user_message", content: [text("hi")] });
    expect(state.diagnostics.map((d) => d.code)).toEqual(["message_kind_mismatch", "message_kind_mismatch"]);
  });

  it("keeps kinds apart and lists messages in first-appearance order", () => {
    const state = applyAll(fresh(), [
      { sessionUpdate: "agent_thought_chunk", messageId: "t1", content: text("think") },
      { sessionUpdate: "agent_message_chunk", messageId: "a1", content: text("say") },
      { sessionUpdate: "agent_thought_chunk", messageId: "t1", content: text("more") },
    ]);
    expect(sessionStateToJSON(state).messages).toEqual([
      { messageId: "t1", kind: "agent_thought", content: [text("think"), text("more")] },
      { messageId: "a1", kind: "agent_message", content: [text("say")] },
    ]);
  });
});

describe("tool calls (docs/protocol.md §5.2)", () => {
  it("follows the worked sequence step by step (T1–T5)", () => {
    const [X, Y, Z, W] = ["X", "Y", "Z", "W"].map(item);
    let state = fresh();
    const step = (update: Record<string, unknown>) => {
      state = applyUpdate(state, U({ toolCallId: "t", ...update }));
      return state.toolCall("t")!;
    };
    let t = step({ sessionUpdate: "tool_call_update", title: "Run tests", kind: "execute" });
    expect(t).toEqual({ toolCallId: "t", title: "Run tests", kind: "execute", content: [] }); // status default is display-only: absent
    t = step({ sessionUpdate: "tool_call_update", status: "in_progress" });
    expect(t).toMatchObject({ title: "Run tests", status: "in_progress", content: [] });
    expect(step({ sessionUpdate: "tool_call_content_chunk", content: X }).content).toEqual([X]);
    expect(step({ sessionUpdate: "tool_call_content_chunk", content: Y }).content).toEqual([X, Y]);
    expect(step({ sessionUpdate: "tool_call_update", content: [Z] }).content).toEqual([Z]);
    expect(step({ sessionUpdate: "tool_call_content_chunk", content: W }).content).toEqual([Z, W]);
    t = step({ sessionUpdate: "tool_call_update", status: "completed" });
    expect(t).toMatchObject({ status: "completed", content: [Z, W] });
    t = step({ sessionUpdate: "tool_call_update", content: null, rawOutput: { ok: true } });
    expect(t).toMatchObject({ content: [], rawOutput: { ok: true } });
    t = step({ sessionUpdate: "tool_call_update", title: null });
    expect(t).toEqual({ toolCallId: "t", kind: "execute", status: "completed", content: [], rawOutput: { ok: true } });
  });

  it("clears fields with null, replaces arrays whole, and leaves absent fields alone (T2, T3)", () => {
    const state = applyAll(fresh(), [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        title: "Edit",
        kind: "edit",
        status: "pending",
        locations: [{ path: "/a" }],
        rawInput: { p: 1 },
        rawOutput: 5,
      },
      { sessionUpdate: "tool_call_update", toolCallId: "t", kind: null, status: null, locations: [], rawInput: null, rawOutput: null },
    ]);
    expect(state.toolCall("t")).toEqual({ toolCallId: "t", title: "Edit", locations: [], content: [] });
    const cleared = applyUpdate(state, U({ sessionUpdate: "tool_call_update", toolCallId: "t", locations: null }));
    expect("locations" in cleared.toolCall("t")!).toBe(false);
  });

  it("creates a tool call from a content chunk for an unseen id (T4)", () => {
    const state = applyUpdate(fresh(), U({ sessionUpdate: "tool_call_content_chunk", toolCallId: "n", content: item("out") }));
    expect(state.toolCall("n")).toEqual({ toolCallId: "n", content: [item("out")] });
  });

  it("keeps the creating update's _meta and never lets later _meta patch it (T6, X7)", () => {
    const state = applyAll(fresh(), [
      { sessionUpdate: "tool_call_update", toolCallId: "t", title: "x", _meta: { a: 1 } },
      { sessionUpdate: "tool_call_update", toolCallId: "t", _meta: null },
      { sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { b: 2 } },
      { sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: item("c"), _meta: { c: 3 } },
    ]);
    expect(state.toolCall("t")!._meta).toEqual({ a: 1 });
  });

  it("keeps unknown content items (T7)", () => {
    const custom = { type: "_acpkit/terminal", terminalId: "term_1" } as unknown as v2.ToolCallContent;
    const state = applyUpdate(fresh(), U({ sessionUpdate: "tool_call_update", toolCallId: "t", content: [custom] }));
    expect(state.toolCall("t")!.content).toEqual([custom]);
  });
});

describe("plans, usage and other updates (docs/protocol.md §5.3, §4.8)", () => {
  it("replaces a plan by id, keeps plans independent and stores unknown types raw (P1–P3)", () => {
    const e1 = { content: "a", priority: "high", status: "pending" };
    const e2 = { content: "b", priority: "low", status: "completed" };
    const custom = { type: "_acme/mermaid", id: "p3", source: "graph" };
    const state = applyAll(fresh(), [
      { sessionUpdate: "plan_update", plan: { type: "items", id: "p1", entries: [e1] } },
      { sessionUpdate: "plan_update", plan: { type: "items", id: "p2", entries: [e2] } },
      { sessionUpdate: "plan_update", plan: { type: "items", id: "p1", entries: [e1, e2] } },
      { sessionUpdate: "plan_update", plan: custom },
    ]);
    expect(sessionStateToJSON(state).plans).toEqual([
      { id: "p1", entries: [e1, e2] },
      { id: "p2", entries: [e2] },
      { id: "p3", type: "_acme/mermaid", raw: custom },
    ]);
  });

  it("reports usage as null until a usage_update, and drops a null cost", () => {
    let state = fresh();
    expect(sessionStateToJSON(state).usage).toBeNull();
    state = applyUpdate(state, U({ sessionUpdate: "usage_update", used: 5, size: 10, cost: { amount: 0.5, currency: "USD" } }));
    expect(state.usage).toEqual({ used: 5, size: 10, cost: { amount: 0.5, currency: "USD" } });
    state = applyUpdate(state, U({ sessionUpdate: "usage_update", used: 6, size: 10, cost: null }));
    expect(state.usage).toEqual({ used: 6, size: 10 });
  });

  it("patches session info, stores the mode, and lists unknown updates as diagnostics", () => {
    const state = applyAll(fresh(), [
      { sessionUpdate: "session_info_update", title: "T", updatedAt: "2026-01-01T00:00:00Z" },
      { sessionUpdate: "session_info_update", title: null },
      { sessionUpdate: "_acpkit/current_mode_update", currentModeId: "code" },
      { sessionUpdate: "_acme/progress", pct: 5 },
    ]);
    expect(state.sessionInfo).toEqual({ updatedAt: "2026-01-01T00:00:00Z" });
    expect(state.currentModeId).toBe("code");
    expect(state.diagnostics).toEqual([expect.objectContaining({ code: "unknown_update", update: { sessionUpdate: "_acme/progress", pct: 5 } })]);
    const json = sessionStateToJSON(state);
    expect(Object.keys(json)).toEqual([
      "sessionId",
      "protocolVersion",
      "messages",
      "toolCalls",
      "plans",
      "usage",
      "permissions",
      "turns",
      "configOptions",
      "availableCommands",
      "terminals",
      "notices",
      "compactions",
      "modes",
      "sessionInfo",
    ]);
    // A mode seen only through current_mode_update: no list of modes to choose from.
    expect(json.modes).toEqual({ currentModeId: "code", availableModes: [] });
    expect(json.sessionInfo).toEqual({ updatedAt: "2026-01-01T00:00:00Z" });
  });
});

describe("client actions", () => {
  it("marks unfinished tool calls of the current turn cancelled; a finishing wire status replaces it (C2, C4)", () => {
    let state = applyUpdate(fresh(), U({ sessionUpdate: "tool_call_update", toolCallId: "old", title: "earlier turn" }));
    state = beginTurn(state);
    state = applyAll(state, [
      { sessionUpdate: "tool_call_update", toolCallId: "a", title: "pending" },
      { sessionUpdate: "tool_call_update", toolCallId: "b", title: "running", status: "in_progress" },
      { sessionUpdate: "tool_call_update", toolCallId: "c", title: "done", status: "completed" },
    ]);
    state = markTurnCancelled(state);
    const status = (s: SessionState, id: string) => s.toolCall(id)!.status;
    expect([status(state, "old"), status(state, "a"), status(state, "b"), status(state, "c")]).toEqual([undefined, "cancelled", "cancelled", "completed"]);
    state = applyAll(state, [
      { sessionUpdate: "tool_call_update", toolCallId: "a", status: "in_progress" }, // racing update: stays cancelled
      { sessionUpdate: "tool_call_update", toolCallId: "b", status: "failed" },
    ]);
    expect([status(state, "a"), status(state, "b")]).toEqual(["cancelled", "failed"]);
    state = recordTurnEnd(state, "cancelled");
    expect(sessionStateToJSON(state).turns).toEqual([{ stopReason: "cancelled" }]);
    expect(state.turnInProgress).toBe(false);
  });

  it("records permissions and applies their toolCall like a tool_call_update (Q2)", () => {
    const options: v2.PermissionOption[] = [{ optionId: "ok", name: "Allow", kind: "allow_once" }];
    let state = recordPermission(fresh(), { toolCall: { toolCallId: "t", title: "Delete build/" }, options });
    expect(state.permissions).toEqual([{ toolCallId: "t", options }]);
    state = recordPermissionOutcome(state, "t", { outcome: "selected", optionId: "ok" });
    state = recordPermission(state, { toolCall: { toolCallId: "t", status: "pending" }, options, outcome: { outcome: "cancelled" } });
    expect(sessionStateToJSON(state).permissions).toEqual([
      { toolCallId: "t", options, outcome: { outcome: "selected", optionId: "ok" } },
      { toolCallId: "t", options, outcome: { outcome: "cancelled" } },
    ]);
    expect(state.toolCall("t")).toEqual({ toolCallId: "t", title: "Delete build/", status: "pending", content: [] });
  });

  it("records the prompt as a user message and attaches the agent's echo to it (M11)", () => {
    const prompt = [text("Fix it"), text("please")];
    let state = beginTurn(fresh(), prompt);
    expect(state.messages).toEqual([{ messageId: "acpkit-prompt-1", kind: "user_message", content: prompt }]);
    state = applyAll(state, [
      { sessionUpdate: "user_message_chunk", messageId: "u9", content: text("Fix it") },
      { sessionUpdate: "user_message_chunk", messageId: "u9", content: text("please") },
      { sessionUpdate: "agent_message_chunk", messageId: "a1", content: text("ok") },
    ]);
    expect(state.messages.map((m) => [m.messageId, m.content.length])).toEqual([
      ["u9", 2],
      ["a1", 1],
    ]);
    expect(state.message("acpkit-prompt-1")).toBeUndefined();
    state = beginTurn(recordTurnEnd(state, "end_turn"), [text("again")]);
    expect(state.messages.at(-1)!.messageId).toBe("acpkit-prompt-2");
  });

  it("keeps one frozen record per known stop reason, and a frozen record of its own for any other", () => {
    let state = fresh();
    for (const stopReason of ["end_turn", "end_turn", "max_tokens", "refusal", "end_turn"] as const)
      state = recordTurnEnd(beginTurn(state, [text("go")]), stopReason);
    state = recordTurnEnd(beginTurn(state, [text("go")]), "paused_by_newer_agent" as v2.StopReason);
    const turns = state.turns;
    expect(turns.map((turn) => turn.stopReason)).toEqual(["end_turn", "end_turn", "max_tokens", "refusal", "end_turn", "paused_by_newer_agent"]);
    // Three end_turn turns are one object: a long session holds pointers, not a record per turn.
    expect(turns[0]).toBe(turns[1]);
    expect(turns[0]).toBe(turns[4]);
    expect(turns[2]).not.toBe(turns[0]);
    for (const turn of turns) expect(Object.isFrozen(turn)).toBe(true);
    // Shared records cannot be changed through one turn (which would change every other).
    expect(() => {
      (turns[0] as { stopReason: string }).stopReason = "refusal";
    }).toThrow(TypeError);
    expect(state.turns[1]!.stopReason).toBe("end_turn");
    expect(sessionStateToJSON(state).turns).toEqual(turns.map((turn) => ({ stopReason: turn.stopReason })));
  });
});

describe("purity", () => {
  it("never changes an earlier state, also when an earlier state is extended twice", () => {
    const base = applyAll(fresh(), [
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: text("a") },
      { sessionUpdate: "tool_call_update", toolCallId: "t", title: "x" },
    ]);
    const before = JSON.stringify(sessionStateToJSON(base));
    const left = applyAll(base, [
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: text("left") },
      { sessionUpdate: "agent_message_chunk", messageId: "n", content: text("new") },
      { sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: item("L") },
    ]);
    const right = applyAll(base, [
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: text("right") },
      { sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: item("R") },
      { sessionUpdate: "agent_message_chunk", messageId: "o", content: text("other") },
    ]);
    expect(JSON.stringify(sessionStateToJSON(base))).toBe(before);
    expect(left.message("m")!.content).toEqual([text("a"), text("left")]);
    expect(right.message("m")!.content).toEqual([text("a"), text("right")]);
    expect(right.message("n")).toBeUndefined();
    expect(left.message("o")).toBeUndefined();
    expect(left.toolCall("t")!.content).toEqual([item("L")]);
    expect(right.toolCall("t")!.content).toEqual([item("R")]);
    expect(right.messages.map((m) => m.messageId)).toEqual(["m", "o"]);
  });

  it("does not mutate the updates it is given", () => {
    const content = [text("a")];
    const update = { sessionUpdate: "agent_message", messageId: "m", content };
    const state = applyAll(fresh(), [update, { sessionUpdate: "agent_message_chunk", messageId: "m", content: text("b") }]);
    expect(content).toEqual([text("a")]);
    expect(state.message("m")!.content).toEqual([text("a"), text("b")]);
  });

  it("keeps lookups right across many messages and tool calls (deep trie)", () => {
    let state = fresh();
    for (let i = 0; i < 1500; i++) state = applyUpdate(state, U({ sessionUpdate: "agent_message_chunk", messageId: `m${i}`, content: text(String(i)) }));
    const snapshot = state;
    state = applyUpdate(state, U({ sessionUpdate: "agent_message_chunk", messageId: "m700", content: text("again") }));
    expect(state.message("m700")!.content).toEqual([text("700"), text("again")]);
    expect(snapshot.message("m700")!.content).toEqual([text("700")]);
    expect(state.messages).toHaveLength(1500);
    expect(state.messages[1499]!.messageId).toBe("m1499");
  });
});

describe("malformed updates", () => {
  it("ignores them with an invalid_update diagnostic naming the field, leaving the state as it was", () => {
    const bad = [
      { sessionUpdate: "agent_message_chunk", content: text("no id") },
      { sessionUpdate: "agent_message", messageId: "m", content: "not an array" },
      { sessionUpdate: "tool_call_update", toolCallId: 7 },
      { sessionUpdate: "tool_call_content_chunk", toolCallId: "t" },
      { sessionUpdate: "plan_update", plan: { type: "items", entries: [] } },
      { sessionUpdate: "usage_update", used: "1", size: 2 },
    ];
    const state = applyAll(fresh(), bad);
    expect(state.diagnostics.map((d) => d.code)).toEqual(bad.map(() => "invalid_update"));
    expect(state.diagnostics.map((d) => d.message)).toEqual([
      "agent_message_chunk: messageId must be a string",
      "agent_message: content has the wrong shape",
      "tool_call_update: toolCallId must be a string",
      "tool_call_content_chunk: content has the wrong shape",
      "plan_update: plan.id must be a string",
      "usage_update: used and size must be numbers",
    ]);
    const { messages, toolCalls, plans, usage } = sessionStateToJSON(state);
    expect({ messages, toolCalls, plans, usage }).toEqual({ messages: [], toolCalls: [], plans: [], usage: null });
  });
});
