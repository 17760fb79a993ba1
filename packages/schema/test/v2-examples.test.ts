// Pinned v2: every example of docs/protocol.md and of the pinned prompt-turn page validates; v1-only shapes do not; the
// open unions behave as docs/protocol.md §3.3 says (unknown tag → unknown branch, known tag with a bad
// body → rejected inside the variant).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateDefinition, validateParams, validateResult } from "./support/api.js";
import { type Example, exampleFixturesDir, protocolDoc, protocolExamples, seedExamples, V1_SEED_TRANSLATION, V2_SEED } from "./support/protocol-examples.js";

type Result = ReturnType<typeof validateDefinition>;

/** Validates one example the way a v2 receiver would: envelope first, then params/result by method. */
function validateExample(example: Example, version: 1 | 2): Result {
  if (example.kind === "definition") return validateDefinition(version, example.definition, example.value);
  const envelope = validateDefinition(version, "JsonRpcMessage", example.message);
  if (!envelope.valid) return envelope;
  const { target, message } = example;
  switch (target.part) {
    case "params":
      return validateParams(version, target.method, message.params);
    case "result":
      return validateResult(version, target.method, message.result);
    case "result-definition":
      return validateDefinition(version, target.definition, message.result);
    case "envelope":
      return validateDefinition(version, "error" in message ? "JsonRpcErrorResponse" : "JsonRpcSuccessResponse", message);
  }
}

/** Asserts a rejection whose errors point at `path` (a JSON Pointer into the value). */
function expectRejectedAt(result: Result, path: string) {
  expect(result.valid, "expected the value to be rejected").toBe(false);
  if (result.valid) return;
  expect(result.errors.map((e) => e.path)).toContain(path);
  for (const error of result.errors) expect(error.message).not.toBe("");
}

const documented = protocolExamples();
const seed = seedExamples(V2_SEED);

describe("extraction of the documented examples", () => {
  it("finds one example per version-tagged fence of docs/protocol.md (traces count per line)", () => {
    const markdown = readFileSync(protocolDoc, "utf8");
    const fences = markdown.split("\n").filter((line) => /^```(?:json|text) (?:v1\+v2|v1|v2)\b/.test(line));
    const blocks = new Set(documented.map((example) => example.label.split(" ")[0]));
    expect(blocks.size).toBe(fences.length);
  });

  it("finds every JSON message recorded from the pinned prompt-turn page", () => {
    const recorded = JSON.parse(readFileSync(resolve(exampleFixturesDir, `${V2_SEED}.json`), "utf8")) as { examples: unknown[] };
    expect(recorded.examples.length).toBe(13);
    expect(seed.length).toBe(recorded.examples.length);
  });

  it("maps seed responses to the request they answer", () => {
    const responses = seed.filter((example) => example.kind === "message" && "result" in example.message);
    expect(responses.length).toBeGreaterThan(0);
    for (const response of responses) expect(response.kind === "message" && response.target).toEqual({ part: "result", method: "session/prompt" });
  });
});

describe("docs/protocol.md examples valid under pinned v2", () => {
  for (const example of documented.filter((e) => e.versions.includes(2))) {
    it(example.label, () => {
      expect(validateExample(example, 2)).toEqual({ valid: true });
    });
  }
});

describe(`${V2_SEED} (the pinned v2 prompt-turn page) valid under v2`, () => {
  for (const example of seed) {
    it(example.label, () => {
      expect(validateExample(example, 2)).toEqual({ valid: true });
    });
  }
});

describe("v1-only shapes fail under v2", () => {
  const v1Only = documented.filter((e) => !e.versions.includes(2));

  // fs/* and terminal/* do not exist in pinned v2 (docs/protocol.md §2); the documents use fs/*.
  const v1Methods = v1Only.filter(
    (e): e is Extract<Example, { kind: "message" }> => e.kind === "message" && e.target.part === "params" && /^(fs|terminal)\//.test(e.target.method),
  );
  it("the v1 examples include fs/* requests", () => {
    expect(v1Methods.length).toBeGreaterThan(0);
  });
  for (const example of v1Methods) {
    it(`${example.label}: ${String(example.message.method)} is not a v2 method`, () => {
      expectRejectedAt(validateExample(example, 2), "");
    });
  }

  it.each([
    ["$/cancel_request", { requestId: 4 }],
    ["terminal/create", { sessionId: "s1", command: "ls" }],
    ["session/set_mode", { sessionId: "s1", modeId: "code" }],
  ])("%s is not a v2 method", (method, params) => {
    expectRejectedAt(validateParams(2, method, params), "");
  });

  // The v1 prompt-turn page is faithful v1 (docs/protocol.md §9): its chunks lack the messageId v2 requires.
  const v1Seed = seedExamples(V1_SEED_TRANSLATION).filter(
    (e): e is Extract<Example, { kind: "message" }> =>
      e.kind === "message" && /_chunk$/.test(String((e.message.params as { update?: { sessionUpdate?: unknown } } | undefined)?.update?.sessionUpdate)),
  );
  it("the v1 prompt-turn page contains v1 message chunks", () => {
    expect(v1Seed.length).toBeGreaterThan(0);
  });
  for (const example of v1Seed) {
    it(`${example.label}: a v1 chunk without messageId is rejected`, () => {
      expectRejectedAt(validateExample(example, 2), "/update/messageId");
    });
  }

  it("a v1 untagged auth method is rejected (type is required in v2)", () => {
    const result = { protocolVersion: 2, authMethods: [{ id: "login", name: "Log in" }] };
    expectRejectedAt(validateResult(2, "initialize", result), "/authMethods/0/type");
  });

  it("a v1 untagged stdio MCP server is rejected (type is required in v2)", () => {
    const params = { cwd: "/home/u/p", mcpServers: [{ name: "fs", command: "/bin/mcp", args: [], env: [] }] };
    expectRejectedAt(validateParams(2, "session/new", params), "/mcpServers/0/type");
  });

  it("v1-style boolean capabilities are rejected (v2 uses object markers)", () => {
    const result = { protocolVersion: 2, capabilities: { session: { load: true, prompt: { image: true } } } };
    expectRejectedAt(validateResult(2, "initialize", result), "/capabilities/session/load");
  });

  // docs/protocol.md §3.4: v1 `tool_call`/`plan` updates and `terminal` tool content match the v2 fallback
  // as unknown variants, so the schema alone accepts them; validateParams layers the legacy-shape
  // check (src/legacy.ts) on top and rejects them there, naming the shape.
  const v1Updates = v1Only.filter((e): e is Extract<Example, { kind: "definition" }> => e.kind === "definition" && e.definition === "SessionUpdate");
  it("the v1 examples include v1-only session updates", () => {
    expect(v1Updates.length).toBeGreaterThan(0);
  });
  for (const example of v1Updates) {
    it(`${example.label}: schema-valid in v2 only as an unknown update, rejected as a legacy shape by session/update`, () => {
      expect(validateDefinition(2, "SessionUpdateUnknown", example.value)).toEqual({ valid: true });
      const result = validateParams(2, "session/update", { sessionId: "s1", update: example.value });
      expectRejectedAt(result, "/update/sessionUpdate");
      expect(!result.valid && result.errors[0]?.legacyShape).toBe((example.value as { sessionUpdate: string }).sessionUpdate);
    });
  }

  it("v1 terminal tool content is an unknown item for the schema and a legacy shape for session/update", () => {
    const terminal = { type: "terminal", terminalId: "term_1" };
    expect(validateDefinition(2, "ToolCallContentUnknown", terminal)).toEqual({ valid: true });
    const result = validateParams(2, "session/update", {
      sessionId: "s1",
      update: { sessionUpdate: "tool_call_update", toolCallId: "t", content: [terminal] },
    });
    expectRejectedAt(result, "/update/content/0/type");
    expect(!result.valid && result.errors[0]?.legacyShape).toBe("terminal");
  });
});

describe("open unions and enums (docs/protocol.md §3.3)", () => {
  const update = (body: Record<string, unknown>) => ({ sessionId: "s1", update: body });

  it.each([
    ["SessionUpdate", { sessionUpdate: "_acme/progress", percent: 40 }],
    ["SessionUpdate", { sessionUpdate: "state_update", state: "idle" }],
    ["ContentBlock", { type: "_acme/widget", payload: [1, 2] }],
    ["ToolCallContent", { type: "_acpkit/terminal", terminalId: "term_1" }],
    ["PlanUpdateContent", { type: "_acme/graph", id: "p2", nodes: [] }],
    ["AuthMethod", { type: "_acme/oauth", id: "oauth", name: "OAuth" }],
    ["AuthMethod", { type: "terminal", id: "tui", name: "Terminal login", args: ["--login"] }],
    ["McpServer", { type: "sse", name: "old", url: "https://x", headers: [] }],
    ["AvailableCommandInput", { type: "_acme/choice", choices: ["a", "b"] }],
    ["StopReason", "_acpkit/budget_exhausted"],
    ["ToolKind", "_acme/deploy"],
    ["ToolCallStatus", "_acme/queued"],
    ["PermissionOptionKind", "_acme/allow_for_session"],
    ["PlanEntryPriority", "_acme/urgent"],
    ["PlanEntryStatus", "_acme/blocked"],
    ["Role", "_acme/reviewer"],
  ])("%s accepts the unknown value %j", (name, value) => {
    expect(validateDefinition(2, name, value)).toEqual({ valid: true });
  });

  it("does not enforce the `_` prefix (reserved unknown values are schema-valid; conformance checks them)", () => {
    expect(validateDefinition(2, "StopReason", "error")).toEqual({ valid: true });
    expect(validateDefinition(2, "ContentBlock", { type: "embedded_resource", resource: {} })).toEqual({ valid: true });
  });

  it("an unknown session update travels inside session/update", () => {
    expect(validateParams(2, "session/update", update({ sessionUpdate: "_acme/progress", percent: 40 }))).toEqual({ valid: true });
  });

  it.each([
    ["a chunk with a non-string text", { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: 5 } }, "/update/content/text"],
    ["a chunk without content", { sessionUpdate: "user_message_chunk", messageId: "m" }, "/update/content"],
    [
      "a message whose content is one block, not an array",
      { sessionUpdate: "agent_message", messageId: "m", content: { type: "text", text: "x" } },
      "/update/content",
    ],
    ["a tool_call_update without toolCallId", { sessionUpdate: "tool_call_update", title: "Run" }, "/update/toolCallId"],
    ["a tool_call_content_chunk whose content is an array", { sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: [] }, "/update/content"],
    ["a diff without newText", { sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: { type: "diff", path: "/a" } }, "/update/content/newText"],
    ["a plan_update with a later-draft planId", { sessionUpdate: "plan_update", plan: { type: "items", planId: "p", entries: [] } }, "/update/plan/id"],
    ["a usage_update with a negative size", { sessionUpdate: "usage_update", used: 1, size: -1 }, "/update/size"],
    [
      "an image block without mimeType",
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "image", data: "AA==" } },
      "/update/content/mimeType",
    ],
  ])("a known tag with a bad body is rejected, not demoted to unknown: %s", (_why, body, path) => {
    expectRejectedAt(validateParams(2, "session/update", update(body)), path);
  });

  it.each(["file", "markdown"])("plan content type %s is reserved and rejected", (type) => {
    const result = validateParams(2, "session/update", update({ sessionUpdate: "plan_update", plan: { type, id: "p1", text: "# plan" } }));
    expectRejectedAt(result, "/update/plan/type");
  });

  it("an unknown plan type must still carry id", () => {
    expectRejectedAt(validateParams(2, "session/update", update({ sessionUpdate: "plan_update", plan: { type: "_acme/graph" } })), "/update/plan/id");
  });

  it("the unknown branch on its own refuses a known tag", () => {
    expectRejectedAt(validateDefinition(2, "SessionUpdateUnknown", { sessionUpdate: "agent_message" }), "/sessionUpdate");
    expectRejectedAt(validateDefinition(2, "ContentBlockUnknown", { type: "text" }), "/type");
  });

  it("a non-string tag is rejected at the tag", () => {
    expectRejectedAt(validateParams(2, "session/update", update({ sessionUpdate: 7 })), "/update/sessionUpdate");
  });

  it("RequestPermissionOutcome stays closed", () => {
    expectRejectedAt(validateResult(2, "session/request_permission", { outcome: { outcome: "_acme/deferred" } }), "/outcome/outcome");
  });
});

describe("patch fields and three-state values (docs/protocol.md §5)", () => {
  it.each([
    ["message content and _meta cleared with null", { sessionUpdate: "user_message", messageId: "m", content: null, _meta: null }],
    ["message _meta patched alone", { sessionUpdate: "agent_thought", messageId: "m", _meta: { k: 1 } }],
    [
      "every tool_call_update patch field null",
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        title: null,
        kind: null,
        status: null,
        content: null,
        locations: null,
        rawInput: null,
        rawOutput: null,
      },
    ],
    ["rawInput/rawOutput of any JSON type", { sessionUpdate: "tool_call_update", toolCallId: "t", rawInput: [1, "a"], rawOutput: "done" }],
    ["session_info_update clearing title", { sessionUpdate: "session_info_update", title: null, updatedAt: null }],
  ])("%s", (_why, body) => {
    expect(validateParams(2, "session/update", { sessionId: "s1", update: body })).toEqual({ valid: true });
  });

  it("a chunk's content is not nullable", () => {
    const body = { sessionUpdate: "agent_message_chunk", messageId: "m", content: null };
    expectRejectedAt(validateParams(2, "session/update", { sessionId: "s1", update: body }), "/update/content");
  });
});

describe("JSON-RPC envelopes and batches", () => {
  it("a batch of a request and a notification is valid", () => {
    const batch = [
      { jsonrpc: "2.0", id: 9, method: "session/request_permission", params: { sessionId: "s1", toolCall: { toolCallId: "t" }, options: [] } },
      { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "usage_update", used: 1, size: 2 } } },
    ];
    expect(validateDefinition(2, "JsonRpcBatch", batch)).toEqual({ valid: true });
  });

  it("an empty batch is rejected", () => {
    expectRejectedAt(validateDefinition(2, "JsonRpcBatch", []), "");
  });

  it("a response carrying both result and error is rejected (E1)", () => {
    expectRejectedAt(validateDefinition(2, "JsonRpcSuccessResponse", { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } }), "/error");
  });

  it("a notification carrying an id is not a notification", () => {
    expectRejectedAt(validateDefinition(2, "JsonRpcNotification", { jsonrpc: "2.0", id: 1, method: "session/cancel" }), "/id");
  });
});
