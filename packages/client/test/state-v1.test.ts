// v1 semantics (docs/protocol.md §5.4 V1–V6) as the client model sees them: v1 wire → ClientSideV1Bridge → reducer.
import type { Diagnostic } from "@acpkit/core";
import { ClientSideV1Bridge } from "@acpkit/core/bridge";
import type { v1 } from "@acpkit/schema";
import { describe, expect, it } from "vitest";
import { type SessionState, applyUpdate, createSessionState, recordPermission, sessionStateToJSON } from "../src/state/index.js";

const text = (t: string) => ({ type: "text", text: t });

function v1Session() {
  const diagnostics: Diagnostic[] = [];
  const bridge = new ClientSideV1Bridge({ sessionId: "s1", onDiagnostic: (d) => diagnostics.push(d) });
  let state: SessionState = createSessionState("s1", 1);
  const feed = (...updates: Record<string, unknown>[]) => {
    for (const update of updates) for (const model of bridge.fromV1(update as unknown as v1.SessionUpdate)) state = applyUpdate(state, model);
    return state;
  };
  return {
    bridge,
    diagnostics,
    feed,
    get state() {
      return state;
    },
  };
}

describe("v1 semantics in the client model (docs/protocol.md §5.4)", () => {
  it("V1: chunks append per messageId; null ≡ absent; id-less runs get synthesized ids", () => {
    const s = v1Session();
    s.bridge.promptStarted();
    const state = s.feed(
      { sessionUpdate: "agent_message_chunk", content: text("a") },
      { sessionUpdate: "agent_message_chunk", messageId: null, content: text("b") },
      { sessionUpdate: "agent_message_chunk", messageId: "m1", content: text("c") },
      { sessionUpdate: "agent_message_chunk", messageId: "m1", content: text("d") },
      { sessionUpdate: "agent_message_chunk", messageId: "m2", content: text("e") },
    );
    expect(sessionStateToJSON(state).messages).toEqual([
      { messageId: "acpkit-synth-1", kind: "agent_message", content: [text("a"), text("b")] },
      { messageId: "m1", kind: "agent_message", content: [text("c"), text("d")] },
      { messageId: "m2", kind: "agent_message", content: [text("e")] },
    ]);
  });

  it("V2: tool_call creates without injecting defaults; a repeated tool_call updates the fields it carries", () => {
    const s = v1Session();
    s.feed({ sessionUpdate: "tool_call", toolCallId: "t", title: "Read" });
    expect(s.state.toolCall("t")).toEqual({ toolCallId: "t", title: "Read", content: [] });
    s.feed({ sessionUpdate: "tool_call", toolCallId: "t", title: "Read README", status: "in_progress" });
    expect(s.state.toolCall("t")).toEqual({ toolCallId: "t", title: "Read README", status: "in_progress", content: [] });
    expect(s.diagnostics).toEqual([]);
  });

  it("V3: tool_call_update changes only present non-null fields; [] clears content", () => {
    const s = v1Session();
    s.feed(
      { sessionUpdate: "tool_call", toolCallId: "t", title: "Edit", kind: "edit", content: [{ type: "content", content: text("x") }], rawInput: { a: 1 } },
      { sessionUpdate: "tool_call_update", toolCallId: "t", title: null, kind: null, status: "completed", rawInput: null },
    );
    expect(s.state.toolCall("t")).toEqual({
      toolCallId: "t",
      title: "Edit",
      kind: "edit",
      status: "completed",
      content: [{ type: "content", content: text("x") }],
      rawInput: { a: 1 },
    });
    s.feed({ sessionUpdate: "tool_call_update", toolCallId: "t", content: [] });
    expect(s.state.toolCall("t")!.content).toEqual([]);
  });

  it("V4: an update before tool_call still creates the call, with a diagnostic (also for permissions)", () => {
    const s = v1Session();
    s.feed({ sessionUpdate: "tool_call_update", toolCallId: "early", status: "in_progress" });
    expect(s.state.toolCall("early")).toEqual({ toolCallId: "early", status: "in_progress", content: [] });
    const request = s.bridge.permissionFromV1({ sessionId: "s1", toolCall: { toolCallId: "p" }, options: [] } as v1.RequestPermissionRequest);
    const state = recordPermission(s.state, { toolCall: request.toolCall, options: request.options, outcome: { outcome: "cancelled" } });
    expect(state.toolCall("p")).toEqual({ toolCallId: "p", content: [] });
    expect(s.diagnostics.map((d) => [d.code, d.sessionId])).toEqual([
      ["v1_tool_call_missing", "s1"],
      ["v1_tool_call_missing", "s1"],
    ]);
  });

  it("V5: a plan replaces the one session plan (id main); entries [] empties it", () => {
    const s = v1Session();
    const entry = { content: "Fix", priority: "high", status: "pending" };
    s.feed({ sessionUpdate: "plan", entries: [entry] });
    expect(sessionStateToJSON(s.state).plans).toEqual([{ id: "main", entries: [entry] }]);
    s.feed({ sessionUpdate: "plan", entries: [] });
    expect(sessionStateToJSON(s.state).plans).toEqual([{ id: "main", entries: [] }]);
  });

  it("V6 and B7: content only replaces as a whole array; terminal items are kept as _acpkit/terminal", () => {
    const s = v1Session();
    s.feed(
      { sessionUpdate: "tool_call", toolCallId: "t", title: "Run", content: [{ type: "terminal", terminalId: "term_1" }] },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        content: [
          { type: "terminal", terminalId: "term_1" },
          { type: "content", content: text("done") },
        ],
      },
    );
    expect(s.state.toolCall("t")!.content).toEqual([
      { type: "_acpkit/terminal", terminalId: "term_1" },
      { type: "content", content: text("done") },
    ]);
  });

  it("stores a v1 current_mode_update as the model's custom update", () => {
    const s = v1Session();
    s.feed({ sessionUpdate: "current_mode_update", currentModeId: "architect" });
    expect(s.state.currentModeId).toBe("architect");
    expect(s.state.diagnostics).toEqual([]);
  });
});
