import { describe, expect, it } from "vitest";
import { detectLegacyMethod, detectLegacyResult, detectLegacyShape, scanLegacyEvenWhenValid } from "../src/legacy.js";

const update = (u: Record<string, unknown>) => ({ sessionId: "s1", update: u });

describe("detectLegacyMethod", () => {
  it.each([
    ["acp/session_update", '"session/update"'],
    ["acp/prompt", '"session/prompt"'],
    ["acp/new_session", '"session/new"'],
    ["auth/login", '"authenticate"'],
  ])("maps %s to the modern method", (method, expected) => {
    expect(detectLegacyMethod(method)).toEqual({ legacyShape: method, expected });
  });

  it("reports an unknown acp/ method without inventing a name", () => {
    expect(detectLegacyMethod("acp/frobnicate")?.expected).toMatch(/without the acp\/ prefix/);
  });

  it.each(["session/update", "fs/read_text_file", "_acpkit/custom", "$/cancel_request"])("leaves %s alone", (method) => {
    expect(detectLegacyMethod(method)).toBeUndefined();
  });
});

describe("detectLegacyShape: pre-1.0 drafts (docs/protocol.md §9)", () => {
  it("reports an acp/… method before looking at params", () => {
    const error = detectLegacyShape(1, "acp/session_update", { session_id: "s1" });
    expect(error).toMatchObject({ path: "", legacyShape: "acp/session_update", expected: '"session/update"' });
    expect(error?.message).toBe('legacy pre-1.0 shape "acp/session_update": use "session/update"');
  });

  it("reports session_id at the root", () => {
    expect(detectLegacyShape(1, "session/cancel", { session_id: "s1" })).toMatchObject({
      path: "/session_id",
      legacyShape: "session_id",
      expected: '"sessionId"',
    });
  });

  it("reports messages instead of prompt (old TypeScript SDK docs, §9)", () => {
    const error = detectLegacyShape(1, "session/prompt", { sessionId: "s1", messages: [{ role: "user", content: "hi" }] });
    expect(error).toMatchObject({ path: "/messages", legacyShape: "messages", expected: '"prompt": ContentBlock[]' });
  });

  it.each([1, 2] as const)("reports embedded_resource in a prompt on v%i and names the modern shape (first v1 draft, §9)", (version) => {
    const params = {
      sessionId: "s1",
      prompt: [
        { type: "text", text: "look" },
        { type: "embedded_resource", resource: { uri: "file:///a.py", mimeType: "text/x-python", content: "print(1)" } },
      ],
    };
    const error = detectLegacyShape(version, "session/prompt", params);
    expect(error).toMatchObject({ path: "/prompt/1/type", legacyShape: "embedded_resource" });
    expect(error?.message).toBe('legacy pre-1.0 shape "embedded_resource": use {"type":"resource","resource":{uri,text|blob}}');
  });

  it("reports resource.content inside a modern resource block", () => {
    const params = { sessionId: "s1", prompt: [{ type: "resource", resource: { uri: "file:///a", content: "x" } }] };
    expect(detectLegacyShape(1, "session/prompt", params)).toMatchObject({ path: "/prompt/0/resource/content", legacyShape: "resource.content" });
  });

  it("reports a tool_call with id/name/arguments and names the version's modern shape (first v1 draft, §9)", () => {
    const legacyCall = update({ sessionUpdate: "tool_call", id: "call_001", name: "analyze_code", arguments: { code: "x" } });
    expect(detectLegacyShape(1, "session/update", legacyCall)).toMatchObject({
      path: "/update/id",
      legacyShape: "tool_call with id/name/arguments",
      expected: '{"sessionUpdate":"tool_call","toolCallId","title","rawInput"}',
    });
    // On v2 the pre-1.0 shape wins over "v1 tool_call on v2": it is the more specific advice.
    expect(detectLegacyShape(2, "session/update", legacyCall)?.expected).toBe('{"sessionUpdate":"tool_call_update","toolCallId","title","rawInput"}');
  });

  it("reports id, status success and output on a tool_call_update (first v1 draft, §9)", () => {
    const withId = update({ sessionUpdate: "tool_call_update", id: "call_001", status: "success", output: "done" });
    expect(detectLegacyShape(1, "session/update", withId)).toMatchObject({ path: "/update/id", expected: '"toolCallId"' });
    const withSuccess = update({ sessionUpdate: "tool_call_update", toolCallId: "c", status: "success", output: "done" });
    expect(detectLegacyShape(1, "session/update", withSuccess)).toMatchObject({ path: "/update/status", legacyShape: "success", expected: '"completed"' });
    const withOutput = update({ sessionUpdate: "tool_call_update", toolCallId: "c", status: "completed", output: "done" });
    expect(detectLegacyShape(1, "session/update", withOutput)).toMatchObject({ path: "/update/output", legacyShape: "output" });
  });

  it.each([
    ["AgentMessageChunk", 1, "agent_message_chunk"],
    ["agentMessageChunk", 2, "agent_message_chunk"],
    ["ToolCall", 1, "tool_call"],
    ["ToolCall", 2, "tool_call_update"],
    ["Plan", 2, "plan_update"],
    ["UserMessage", 1, "user_message_chunk"],
    ["UserMessage", 2, "user_message"],
  ] as const)("reports the PascalCase/camelCase tag %s on v%i as %s (MCP-tools draft, §9)", (tag, version, modern) => {
    const error = detectLegacyShape(version, "session/update", update({ sessionUpdate: tag }));
    expect(error).toMatchObject({ path: "/update/sessionUpdate", legacyShape: tag });
    expect(error?.expected).toContain(`"${modern}"`);
  });

  it("reports the Started event (MCP-tools draft, §9)", () => {
    expect(detectLegacyShape(1, "session/update", update({ sessionUpdate: "Started" }))?.expected).toMatch(/session\/prompt/);
  });

  it("reports PascalCase kind, status and plan enum values (MCP-tools draft, §9)", () => {
    expect(detectLegacyShape(1, "session/update", update({ sessionUpdate: "tool_call", toolCallId: "t", title: "x", kind: "Read" }))).toMatchObject({
      path: "/update/kind",
      expected: '"read"',
    });
    expect(detectLegacyShape(1, "session/update", update({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "InProgress" }))).toMatchObject({
      path: "/update/status",
      expected: '"in_progress"',
    });
    const plan = update({
      sessionUpdate: "plan",
      entries: [
        { content: "a", priority: "high", status: "pending" },
        { content: "b", priority: "High", status: "pending" },
      ],
    });
    expect(detectLegacyShape(1, "session/update", plan)).toMatchObject({ path: "/update/entries/1/priority", expected: '"high"' });
  });

  it("reports Label instead of title", () => {
    expect(detectLegacyShape(1, "session/update", update({ sessionUpdate: "tool_call", toolCallId: "t", Label: "Read" }))).toMatchObject({
      path: "/update/Label",
      expected: '"title"',
    });
  });

  it("reports a legacy content block nested in tool call content", () => {
    const params = update({
      sessionUpdate: "tool_call_update",
      toolCallId: "t",
      content: [{ type: "content", content: { type: "embedded_resource", resource: {} } }],
    });
    expect(detectLegacyShape(1, "session/update", params)).toMatchObject({ path: "/update/content/0/content/type", legacyShape: "embedded_resource" });
    const bare = update({ sessionUpdate: "tool_call_update", toolCallId: "t", content: [{ type: "text", text: "x" }] });
    expect(detectLegacyShape(1, "session/update", bare)).toMatchObject({
      path: "/update/content/0/type",
      expected: '{"type":"content","content":<ContentBlock>}',
    });
  });

  it("reports a PascalCase permission option kind", () => {
    const params = { sessionId: "s", toolCall: { toolCallId: "t" }, options: [{ optionId: "a", name: "A", kind: "AllowOnce" }] };
    expect(detectLegacyShape(1, "session/request_permission", params)).toMatchObject({ path: "/options/0/kind", expected: '"allow_once"' });
  });
});

describe("detectLegacyShape: the other acpkit version", () => {
  it.each([
    ["plan_update", "/update/sessionUpdate", /"sessionUpdate":"plan"/],
    ["agent_message", "/update/sessionUpdate", /agent_message_chunk/],
    ["user_message", "/update/sessionUpdate", /user_message_chunk/],
    ["agent_thought", "/update/sessionUpdate", /agent_thought_chunk/],
    ["tool_call_content_chunk", "/update/sessionUpdate", /full content array/],
  ])("v2 %s on v1", (tag, path, expected) => {
    const error = detectLegacyShape(1, "session/update", update({ sessionUpdate: tag, messageId: "m", toolCallId: "t" }));
    expect(error).toMatchObject({ path, legacyShape: tag });
    expect(error?.expected).toMatch(expected);
    expect(error?.message.startsWith("v2 shape on a v1 connection")).toBe(true);
  });

  it("a v2 custom update on v1", () => {
    expect(detectLegacyShape(1, "session/update", update({ sessionUpdate: "_acpkit/x" }))?.message).toMatch(/^v2 shape on a v1 connection "_acpkit\/x"/);
  });

  it.each([
    ["tool_call", /tool_call_update/],
    ["plan", /"plan_update"/],
    ["current_mode_update", /_acpkit\/current_mode_update/],
  ])("v1 %s on v2", (tag, expected) => {
    const error = detectLegacyShape(2, "session/update", update({ sessionUpdate: tag, toolCallId: "t", title: "x", entries: [], currentModeId: "m" }));
    expect(error).toMatchObject({ path: "/update/sessionUpdate", legacyShape: tag });
    expect(error?.expected).toMatch(expected);
    expect(error?.message.startsWith("v1 shape on a v2 connection")).toBe(true);
  });

  it("v1 terminal tool content on v2, but not on v1", () => {
    const params = update({
      sessionUpdate: "tool_call_update",
      toolCallId: "t",
      content: [
        { type: "diff", path: "/a", newText: "" },
        { type: "terminal", terminalId: "term_1" },
      ],
    });
    expect(detectLegacyShape(2, "session/update", params)).toMatchObject({ path: "/update/content/1/type", legacyShape: "terminal" });
    expect(detectLegacyShape(1, "session/update", params)).toBeUndefined();
    const chunk = update({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: { type: "terminal", terminalId: "term_1" } });
    expect(detectLegacyShape(2, "session/update", chunk)).toMatchObject({ path: "/update/content/type" });
  });
});

describe("detectLegacyShape: later v2 draft on pinned v2", () => {
  it("planId instead of plan.id", () => {
    const params = update({ sessionUpdate: "plan_update", plan: { type: "items", planId: "p1", entries: [] } });
    expect(detectLegacyShape(2, "session/update", params)).toMatchObject({
      path: "/update/plan/planId",
      legacyShape: "planId",
      expected: '"id" (pinned v2 names the plan "plan.id")',
    });
  });

  it("state_update", () => {
    const error = detectLegacyShape(2, "session/update", update({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" }));
    expect(error).toMatchObject({ path: "/update/sessionUpdate", legacyShape: "state_update" });
    expect(error?.message).toMatch(/^later v2 draft shape/);
  });

  it("info instead of clientInfo on v2 only", () => {
    const params = { protocolVersion: 2, info: { name: "c", version: "1" } };
    expect(detectLegacyShape(2, "initialize", params)).toMatchObject({ path: "/info", expected: '"clientInfo": Implementation' });
    expect(detectLegacyShape(1, "initialize", params)).toBeUndefined();
    expect(detectLegacyShape(2, "initialize", { ...params, clientInfo: { name: "c", version: "1" } })).toBeUndefined();
  });

  it("wire status cancelled", () => {
    expect(detectLegacyShape(2, "session/update", update({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "cancelled" }))).toMatchObject({
      path: "/update/status",
      legacyShape: "cancelled",
    });
  });

  it("a permission request with subject instead of toolCall", () => {
    expect(detectLegacyShape(2, "session/request_permission", { sessionId: "s", title: "Run?", subject: { type: "command" }, options: [] })).toMatchObject({
      path: "/subject",
    });
  });
});

describe("detectLegacyShape: modern payloads", () => {
  it.each([
    [
      1,
      "session/prompt",
      {
        sessionId: "s",
        prompt: [
          { type: "text", text: "hi" },
          { type: "resource", resource: { uri: "file:///a", text: "x" } },
        ],
      },
    ],
    [
      1,
      "session/update",
      update({ sessionUpdate: "tool_call", toolCallId: "t", title: "Read", kind: "read", status: "pending", content: [{ type: "terminal", terminalId: "x" }] }),
    ],
    [1, "session/update", update({ sessionUpdate: "plan", entries: [{ content: "a", priority: "high", status: "in_progress" }] })],
    [2, "session/update", update({ sessionUpdate: "plan_update", plan: { type: "items", id: "p", entries: [] } })],
    [2, "session/update", update({ sessionUpdate: "agent_message", messageId: "m", content: [{ type: "text", text: "x" }] })],
    [2, "session/update", update({ sessionUpdate: "_acpkit/custom", anything: 1 })],
    [
      2,
      "session/update",
      update({ sessionUpdate: "tool_call_update", toolCallId: "t", kind: "_acpkit/Custom", content: [{ type: "_acpkit/terminal", terminalId: "x" }] }),
    ],
    [2, "session/request_permission", { sessionId: "s", toolCall: { toolCallId: "t" }, options: [{ optionId: "a", name: "A", kind: "allow_once" }] }],
    [1, "fs/read_text_file", { sessionId: "s", path: "/a" }],
    [1, "session/update", "not an object"],
    [1, "session/update", { sessionId: "s", update: null }],
  ] as const)("v%i %s has no legacy shape (%#)", (version, method, params) => {
    expect(detectLegacyShape(version, method, params)).toBeUndefined();
  });
});

describe("detectLegacyResult", () => {
  it.each([1, 2] as const)("stop reason error on v%i points to a JSON-RPC error response (old TypeScript SDK docs, §9; R1)", (version) => {
    const error = detectLegacyResult(version, "session/prompt", { stopReason: "error" });
    expect(error).toMatchObject({ path: "/stopReason", legacyShape: "error" });
    expect(error?.expected).toMatch(/JSON-RPC error response/);
    expect(error?.expected?.includes('start with "_"')).toBe(version === 2);
  });

  it("a {} prompt response (later draft)", () => {
    expect(detectLegacyResult(2, "session/prompt", {})).toMatchObject({ path: "", legacyShape: "{} prompt acknowledgement" });
  });

  it("a PascalCase stop reason", () => {
    expect(detectLegacyResult(1, "session/prompt", { stopReason: "EndTurn" })).toMatchObject({ expected: '"end_turn"' });
  });

  it("a v2 custom stop reason on v1 but not on v2", () => {
    expect(detectLegacyResult(1, "session/prompt", { stopReason: "_acpkit/budget_exhausted" })?.message).toMatch(/^v2 shape on a v1 connection/);
    expect(detectLegacyResult(2, "session/prompt", { stopReason: "_acpkit/budget_exhausted" })).toBeUndefined();
  });

  it("info instead of agentInfo on a v2 initialize result", () => {
    expect(detectLegacyResult(2, "initialize", { protocolVersion: 2, info: { name: "a", version: "1" } })).toMatchObject({
      path: "/info",
      expected: '"agentInfo": Implementation',
    });
  });

  it.each([
    [1, "session/prompt", { stopReason: "end_turn" }],
    [2, "session/prompt", { stopReason: "cancelled" }],
    [2, "initialize", { protocolVersion: 2, agentInfo: { name: "a", version: "1" } }],
    [1, "fs/write_text_file", {}],
  ] as const)("v%i %s modern result has none", (version, method, result) => {
    expect(detectLegacyResult(version, method, result)).toBeUndefined();
  });
});

describe("scanLegacyEvenWhenValid", () => {
  it("is never needed on closed v1", () => {
    for (const method of ["session/update", "session/prompt", "initialize", "session/request_permission"]) {
      expect(scanLegacyEvenWhenValid(1, method, "params")).toBe(false);
      expect(scanLegacyEvenWhenValid(1, method, "result")).toBe(false);
    }
  });

  it("covers the v2 methods whose open shapes accept legacy values", () => {
    expect(scanLegacyEvenWhenValid(2, "session/update", "params")).toBe(true);
    expect(scanLegacyEvenWhenValid(2, "session/prompt", "result")).toBe(true);
    expect(scanLegacyEvenWhenValid(2, "session/cancel", "params")).toBe(false);
  });
});
