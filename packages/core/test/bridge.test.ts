// The stateful v1 bridge against docs/protocol.md §7.1 and the §7.2 algorithms B2–B7, and every lossy code.
import type { v1, v2 } from "@acpkit/schema";
import { describe, expect, it } from "vitest";
import { AcpError } from "../src/errors.js";
import { AgentSideV1Bridge, ClientSideV1Bridge, type LossyCode, type LossyEvent } from "../src/bridge/index.js";

const text = (t: string) => ({ type: "text", text: t }) as v2.ContentBlock;
const img = { type: "image", data: "AAAA", mimeType: "image/png" } as v2.ContentBlock;
const M = (u: Record<string, unknown>) => u as unknown as v2.SessionUpdate;
const W = (u: Record<string, unknown>) => u as unknown as v1.SessionUpdate;

function agentBridge(options: { strict?: boolean } = {}) {
  const events: LossyEvent[] = [];
  const bridge = new AgentSideV1Bridge({ sessionId: "s1", onLossy: (e) => events.push(e), ...options });
  const codes = () => events.map((e) => e.code);
  return { bridge, events, codes };
}

function clientBridge() {
  const events: LossyEvent[] = [];
  const bridge = new ClientSideV1Bridge({ sessionId: "s1", onLossy: (e) => events.push(e) });
  return { bridge, events };
}

describe("client side: v1 chunks without messageId (B2)", () => {
  const chunk = (kind: string, t: string, messageId?: string) => W({ sessionUpdate: kind, content: text(t), ...(messageId ? { messageId } : {}) });
  const ids = (bridge: ClientSideV1Bridge, updates: v1.SessionUpdate[]) =>
    updates.flatMap((u) => bridge.fromV1(u)).map((u) => (u as { messageId?: string }).messageId ?? u.sessionUpdate);

  it("groups chunk, chunk, usage_update, chunk into one message acpkit-synth-1", () => {
    const { bridge } = clientBridge();
    const usage = W({ sessionUpdate: "usage_update", used: 1, size: 2 });
    expect(ids(bridge, [chunk("agent_message_chunk", "a"), chunk("agent_message_chunk", "b"), usage, chunk("agent_message_chunk", "c")])).toEqual([
      "acpkit-synth-1",
      "acpkit-synth-1",
      "usage_update",
      "acpkit-synth-1",
    ]);
  });

  it("starts a new message after a tool_call: acpkit-synth-1, then acpkit-synth-2", () => {
    const { bridge } = clientBridge();
    const call = W({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Read" });
    expect(ids(bridge, [chunk("agent_message_chunk", "a"), call, chunk("agent_message_chunk", "b")])).toEqual([
      "acpkit-synth-1",
      "tool_call_update",
      "acpkit-synth-2",
    ]);
  });

  it("closes on a chunk of another kind, a chunk with an id, a plan, tool_call_update and the turn hooks", () => {
    const { bridge } = clientBridge();
    const seen = ids(bridge, [
      chunk("agent_thought_chunk", "t"),
      chunk("agent_message_chunk", "a"),
      chunk("agent_thought_chunk", "t2"),
      chunk("agent_thought_chunk", "x", "real"),
      chunk("agent_thought_chunk", "t3"),
      W({ sessionUpdate: "plan", entries: [] }),
      chunk("agent_thought_chunk", "t4"),
      W({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" }),
      chunk("agent_thought_chunk", "t5"),
      W({ sessionUpdate: "current_mode_update", currentModeId: "m" }),
      chunk("agent_thought_chunk", "t5b"),
    ]);
    expect(seen).toEqual([
      "acpkit-synth-1",
      "acpkit-synth-2",
      "acpkit-synth-3",
      "real",
      "acpkit-synth-4",
      "plan_update",
      "acpkit-synth-5",
      "tool_call_update",
      "acpkit-synth-6",
      "_acpkit/current_mode_update",
      "acpkit-synth-6",
    ]);
    bridge.promptEnded();
    bridge.promptStarted();
    expect(ids(bridge, [chunk("agent_message_chunk", "n")])).toEqual(["acpkit-synth-7"]);
    bridge.loadStarted();
    expect(ids(bridge, [chunk("agent_message_chunk", "n")])).toEqual(["acpkit-synth-8"]);
  });

  it("treats messageId: null as absent (V1)", () => {
    const { bridge } = clientBridge();
    const [out] = bridge.fromV1(W({ sessionUpdate: "user_message_chunk", messageId: null, content: text("hi"), _meta: null }));
    expect(out).toEqual({ sessionUpdate: "user_message_chunk", messageId: "acpkit-synth-1", content: text("hi") });
  });
});

describe("client side: other v1 updates (§7.1, B6, B7)", () => {
  it("turns tool_call into the creating tool_call_update and terminal content into _acpkit/terminal", () => {
    const { bridge } = clientBridge();
    const [out] = bridge.fromV1(
      W({
        sessionUpdate: "tool_call",
        toolCallId: "t",
        title: "Run",
        kind: "execute",
        content: [{ type: "terminal", terminalId: "term_1" }],
        rawInput: { cmd: "ls" },
      }),
    );
    expect(out).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: "t",
      title: "Run",
      kind: "execute",
      content: [{ type: "_acpkit/terminal", terminalId: "term_1" }],
      rawInput: { cmd: "ls" },
    });
  });

  it("drops v1 nulls from tool_call_update (in v2 they would clear)", () => {
    const { bridge } = clientBridge();
    const [out] = bridge.fromV1(
      W({
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        title: null,
        kind: null,
        status: "completed",
        content: null,
        locations: null,
        rawInput: null,
        rawOutput: null,
        _meta: null,
      }),
    );
    expect(out).toEqual({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed" });
  });

  it("makes a v1 plan the plan with id main and keeps identical updates as they are", () => {
    const { bridge } = clientBridge();
    const entries = [{ content: "x", priority: "high", status: "pending" }];
    expect(bridge.fromV1(W({ sessionUpdate: "plan", entries }))).toEqual([{ sessionUpdate: "plan_update", plan: { type: "items", id: "main", entries } }]);
    const usage = W({ sessionUpdate: "usage_update", used: 1, size: 2, cost: null });
    expect(bridge.fromV1(usage)[0]).toBe(usage);
  });

  it("converts a permission request's toolCall and reports an update that is not v1", () => {
    const { bridge, events } = clientBridge();
    const params = {
      sessionId: "s1",
      toolCall: { toolCallId: "t", title: null, content: [{ type: "terminal", terminalId: "x" }] },
      options: [],
    } as unknown as v1.RequestPermissionRequest;
    expect(bridge.permissionFromV1(params).toolCall).toEqual({ toolCallId: "t", content: [{ type: "_acpkit/terminal", terminalId: "x" }] });
    expect(bridge.fromV1(W({ sessionUpdate: "agent_message", messageId: "m" }))).toEqual([]);
    expect(events.map((e) => e.code)).toEqual(["session_update"]);
  });
});

describe("agent side: messages (B3)", () => {
  it('sends "Hel" then the remainder "lo" and img, then reports the replacement with "Bye"', () => {
    const { bridge, events } = agentBridge();
    expect(bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", content: [text("Hel")] }))).toEqual([
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: text("Hel") },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", content: [text("Hello"), img] }))).toEqual([
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: text("lo") },
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: img },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", content: [text("Bye")] }))).toEqual([]);
    expect(events).toEqual([
      expect.objectContaining({ code: "message_replace", sessionId: "s1", update: expect.objectContaining({ content: [text("Bye")] }) }),
    ]);
  });

  it("counts chunks as sent, so an upsert extending them sends only the new part", () => {
    const { bridge, codes } = agentBridge();
    const chunk = M({ sessionUpdate: "agent_thought_chunk", messageId: "t", content: text("a") });
    expect(bridge.toV1(chunk)).toEqual([chunk]); // a v1-expressible v2 chunk passes unchanged
    expect(bridge.toV1(M({ sessionUpdate: "agent_thought", messageId: "t", content: [text("a"), text("b")] }))).toEqual([
      { sessionUpdate: "agent_thought_chunk", messageId: "t", content: text("b") },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "agent_thought", messageId: "t", content: [text("a")] }))).toEqual([]);
    expect(codes()).toEqual(["message_replace"]);
  });

  it("does not extend a text whose annotations changed", () => {
    const { bridge, codes } = agentBridge();
    bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", content: [text("Hel")] }));
    const annotated = { type: "text", text: "Hello", annotations: { priority: 1 } };
    expect(bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", content: [annotated] }))).toEqual([]);
    expect(codes()).toEqual(["message_replace"]);
  });

  it("reports clearing after something was sent, and message _meta patches (meta)", () => {
    const { bridge, codes } = agentBridge();
    expect(bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", content: [], _meta: { k: 1 } }))).toEqual([]); // empty → empty: nothing lost but the meta
    bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", content: [text("x")] }));
    expect(bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", content: null }))).toEqual([]);
    expect(bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", _meta: null }))).toEqual([]);
    expect(codes()).toEqual(["meta", "message_replace", "meta"]);
  });

  it("does not forward user messages during a live turn, but converts them during replay (B3.5)", () => {
    const { bridge, events } = agentBridge();
    const user = M({ sessionUpdate: "user_message", messageId: "u", content: [text("hi")] });
    const userChunk = M({ sessionUpdate: "user_message_chunk", messageId: "u2", content: text("hi") });
    expect(bridge.toV1(user)).toEqual([]);
    expect(bridge.toV1(userChunk)).toEqual([]);
    expect(bridge.toV1(user, { replay: true })).toEqual([{ sessionUpdate: "user_message_chunk", messageId: "u", content: text("hi") }]);
    expect(bridge.toV1(userChunk, { replay: true })).toEqual([userChunk]);
    expect(events).toEqual([]);
  });

  it("drops unknown blocks and custom roles (content_block)", () => {
    const { bridge, codes } = agentBridge();
    expect(bridge.toV1(M({ sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "_acme/chart", data: 1 } }))).toEqual([]);
    const [out] = bridge.toV1(
      M({ sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "x", annotations: { audience: ["user", "_reviewer"] } } }),
    );
    expect(out).toEqual({ sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "x", annotations: { audience: ["user"] } } });
    expect(codes()).toEqual(["content_block", "content_block"]);
  });
});

describe("agent side: tool calls (B4)", () => {
  it("introduces a tool call with v1 tool_call, then sends chunks as the full accumulated content", () => {
    const { bridge, events } = agentBridge();
    const X = { type: "content", content: text("X") };
    const Y = { type: "diff", path: "/a", newText: "n" };
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_update", toolCallId: "t", title: "Run tests", kind: "execute", status: "pending" }))).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "t", title: "Run tests", kind: "execute", status: "pending" },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: X }))).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "t", content: [X] },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: Y }))).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "t", content: [X, Y] },
    ]);
    // A replacement resets the accumulation (T5); chunks then append to it.
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_update", toolCallId: "t", content: [Y], status: "in_progress" }))).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "t", status: "in_progress", content: [Y] },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: X }))).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "t", content: [Y, X] },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_update", toolCallId: "t", content: null }))).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "t", content: [] },
    ]);
    expect(events).toEqual([]);
  });

  it('gives a title-less tool call the title "Tool call" and creates it from a first content chunk', () => {
    const { bridge } = agentBridge();
    const X = { type: "content", content: text("X") };
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_content_chunk", toolCallId: "c", content: X }))).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "c", title: "Tool call", content: [X] },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_update", toolCallId: "d", title: null, kind: null, status: null, locations: null }))).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "d", title: "Tool call" },
    ]);
  });

  it("approximates clears and custom enum values and reports each (clear_field, enum_value)", () => {
    const { bridge, codes } = agentBridge();
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_update", toolCallId: "t", title: "x", kind: "_acme/deploy", status: "_acme/queued" }))).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "t", title: "x" },
    ]);
    expect(codes()).toEqual(["enum_value", "enum_value"]);
    expect(
      bridge.toV1(
        M({ sessionUpdate: "tool_call_update", toolCallId: "t", title: null, kind: null, status: null, rawInput: null, rawOutput: null, locations: null }),
      ),
    ).toEqual([{ sessionUpdate: "tool_call_update", toolCallId: "t", kind: "other", status: "pending", locations: [] }]);
    expect(codes().slice(2)).toEqual(["clear_field", "clear_field", "clear_field", "clear_field", "clear_field"]);
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_update", toolCallId: "t", kind: "_x", status: "_y" }))).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "t", kind: "other" },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "tool_call_update", toolCallId: "t", title: null }))).toEqual([]); // nothing expressible left
  });

  it("reports an unknown content item once, and turns _acpkit/terminal back into a v1 terminal", () => {
    const { bridge, codes } = agentBridge();
    const custom = { type: "_acme/video", url: "u" };
    const terminal = { type: "_acpkit/terminal", terminalId: "term_1" };
    bridge.toV1(M({ sessionUpdate: "tool_call_update", toolCallId: "t", title: "x", content: [custom] }));
    const [out] = bridge.toV1(M({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: terminal }));
    expect(out).toEqual({ sessionUpdate: "tool_call_update", toolCallId: "t", content: [{ type: "terminal", terminalId: "term_1" }] });
    expect(codes()).toEqual(["content_block"]);
  });

  it("precedes a permission request for an unknown tool call with tool_call, and drops custom options (B4.5)", () => {
    const { bridge, codes } = agentBridge();
    const options = [
      { optionId: "ok", name: "Allow", kind: "allow_once" },
      { optionId: "later", name: "Ask later", kind: "_acme/defer" },
    ] as v2.PermissionOption[];
    const first = bridge.permissionToV1({ sessionId: "s1", toolCall: { toolCallId: "t", kind: "delete" }, options });
    expect(first.updates).toEqual([{ sessionUpdate: "tool_call", toolCallId: "t", title: "Tool call", kind: "delete" }]);
    expect(first.params).toEqual({ sessionId: "s1", toolCall: { toolCallId: "t", kind: "delete" }, options: [options[0]] });
    expect(codes()).toEqual(["permission_option"]);
    const second = bridge.permissionToV1({ sessionId: "s1", toolCall: { toolCallId: "t", status: "pending" }, options: [options[0]!] });
    expect(second.updates).toEqual([]);
    expect(second.params.toolCall).toEqual({ toolCallId: "t", status: "pending" });
  });
});

describe("agent side: a property named __proto__ (bridges preserve unknown properties, §3.1)", () => {
  // JSON.parse makes "__proto__" an ordinary own property. Copied with `out[key] = value` it
  // became the copy's prototype: gone from what was sent, its members readable as the patch's.
  it("passes it on as a field, in the creating tool_call and in later patches", () => {
    const { bridge } = agentBridge();
    const create = JSON.parse('{"sessionUpdate":"tool_call_update","toolCallId":"t","title":"x","__proto__":{"status":"completed"}}');
    const [sent] = bridge.toV1(M(create)) as unknown as Record<string, unknown>[];
    expect(JSON.stringify(sent)).toBe('{"sessionUpdate":"tool_call","toolCallId":"t","title":"x","__proto__":{"status":"completed"}}');
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
    expect(sent!.status).toBeUndefined();
    const patch = JSON.parse('{"sessionUpdate":"tool_call_update","toolCallId":"t","__proto__":{"status":"failed"}}');
    const [later] = bridge.toV1(M(patch)) as unknown as Record<string, unknown>[];
    expect(JSON.stringify(later)).toBe('{"sessionUpdate":"tool_call_update","toolCallId":"t","__proto__":{"status":"failed"}}');
    expect(later!.status).toBeUndefined();
  });
});

describe("agent side: plans, stop reasons and the rest (B5, B6)", () => {
  const entry = { content: "Fix", priority: "high", status: "in_progress" };

  it("sends only the first plan id as the v1 plan and reports the others (plan)", () => {
    const { bridge, codes } = agentBridge();
    expect(bridge.toV1(M({ sessionUpdate: "plan_update", plan: { type: "items", id: "p1", entries: [entry] } }))).toEqual([
      { sessionUpdate: "plan", entries: [entry] },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "plan_update", plan: { type: "items", id: "p2", entries: [] } }))).toEqual([]);
    expect(bridge.toV1(M({ sessionUpdate: "plan_update", plan: { type: "_acme/graph", id: "p1" } }))).toEqual([]);
    expect(bridge.toV1(M({ sessionUpdate: "plan_update", plan: { type: "items", id: "p1", entries: [] } }))).toEqual([{ sessionUpdate: "plan", entries: [] }]);
    expect(codes()).toEqual(["plan", "plan"]);
  });

  it("maps custom entry priority/status to medium/pending (enum_value)", () => {
    const { bridge, codes } = agentBridge();
    const [out] = bridge.toV1(
      M({ sessionUpdate: "plan_update", plan: { type: "items", id: "p", entries: [{ content: "x", priority: "_urgent", status: "_blocked" }] } }),
    );
    expect(out).toEqual({ sessionUpdate: "plan", entries: [{ content: "x", priority: "medium", status: "pending" }] });
    expect(codes()).toEqual(["enum_value", "enum_value"]);
  });

  it("sends a custom stop reason as end_turn with _meta acpkit/v2StopReason (stop_reason)", () => {
    const { bridge, events } = agentBridge();
    expect(bridge.stopReasonToV1("_acpkit/budget_exhausted")).toEqual({ stopReason: "end_turn", _meta: { "acpkit/v2StopReason": "_acpkit/budget_exhausted" } });
    expect(bridge.stopReasonToV1("cancelled", { t: 1 })).toEqual({ stopReason: "cancelled", _meta: { t: 1 } });
    expect(events).toEqual([expect.objectContaining({ code: "stop_reason", sessionId: "s1" })]);
  });

  it("passes shared updates through, maps the mode update back, and reports unknown updates (session_update)", () => {
    const { bridge, codes } = agentBridge();
    const usage = M({ sessionUpdate: "usage_update", used: 1, size: 2 });
    expect(bridge.toV1(usage)[0]).toBe(usage);
    expect(bridge.toV1(M({ sessionUpdate: "_acpkit/current_mode_update", currentModeId: "code" }))).toEqual([
      { sessionUpdate: "current_mode_update", currentModeId: "code" },
    ]);
    expect(bridge.toV1(M({ sessionUpdate: "_acme/progress", pct: 1 }))).toEqual([]);
    const [commands] = bridge.toV1(
      M({
        sessionUpdate: "available_commands_update",
        availableCommands: [
          { name: "a", description: "d", input: { type: "_acme/form" } },
          { name: "b", description: "d", input: { hint: "h" } },
        ],
      }),
    );
    expect(commands).toEqual({
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "a", description: "d" },
        { name: "b", description: "d", input: { hint: "h" } },
      ],
    });
    expect(codes()).toEqual(["session_update", "session_update"]);
  });

  it("throws AcpError ProtocolViolation in strict mode instead of reporting", () => {
    const { bridge, events } = agentBridge({ strict: true });
    let error: unknown;
    try {
      bridge.toV1(M({ sessionUpdate: "_acme/progress" }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AcpError);
    expect((error as AcpError).code).toBe("ProtocolViolation");
    expect(((error as AcpError).data as LossyEvent).code).toBe("session_update" satisfies LossyCode);
    expect(events).toEqual([]);
  });
});
