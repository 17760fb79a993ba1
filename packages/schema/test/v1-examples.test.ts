// Every example of docs/protocol.md and of the recorded v1 documents (test/fixtures/examples/),
// validated against schema/v1: one test per example, named after its file and line or section. v1 examples must pass; v2-only examples must
// fail under v1 exactly when they use a shape v1 does not have.
import { describe, expect, it } from "vitest";
import { PRE_1_0_SEED, protocolExamples, seedExamples, V1_SEED_OLD_SDK, V1_SEED_TRANSLATION, type Example } from "./support/protocol-examples.js";
import { sdkDocLiterals } from "./support/sdk-doc-literals.js";
import { validateDefinition, validateParams, validateResult } from "./support/v1-api.js";
import type { ValidationResult } from "../src/validation-result.js";

/** Validates an example the way a v1 peer would: the envelope, then the payload by method. */
function validateExample(example: Example): ValidationResult {
  if (example.kind === "definition") return validateDefinition(1, example.definition, example.value);
  const envelope = validateDefinition(1, "JsonRpcMessage", example.message);
  if (!envelope.valid) return envelope;
  const { target, message } = example;
  switch (target.part) {
    case "params":
      return validateParams(1, target.method, message.params);
    case "result":
      return validateResult(1, target.method, message.result);
    case "result-definition":
      return validateDefinition(1, target.definition, message.result);
    case "envelope":
      return envelope;
  }
}

function describeErrors(result: ValidationResult): string {
  return result.valid ? "valid" : result.errors.map((e) => `${e.path || "(root)"}: ${e.message}`).join("; ");
}

const examples = protocolExamples();
const v1Examples = examples.filter((example) => example.versions.includes(1));
const v2OnlyExamples = examples.filter((example) => !example.versions.includes(1));

describe("docs/protocol.md examples tagged v1 or v1+v2 validate against v1", () => {
  it("finds the examples (the extraction did not silently break)", () => {
    // 19 fenced v1/v1+v2 blocks plus four traces of 2 + 6 + 15 + 7 lines.
    expect(v1Examples.length).toBe(49);
  });

  it.each(v1Examples.map((example) => [example.label, example] as const))("%s", (_label, example) => {
    const result = validateExample(example);
    expect(result.valid, describeErrors(result)).toBe(true);
  });
});

/**
 * Shapes that exist only in pinned v2. A v2 example containing one must fail under v1; any other
 * v2 example uses the common subset and must pass (so a too-strict v1 schema shows up too).
 */
const V2_ONLY_SHAPES: { name: string; pattern: RegExp }[] = [
  { name: "v2-only session update", pattern: /"sessionUpdate":"(plan_update|user_message|agent_message|agent_thought|tool_call_content_chunk)"/ },
  { name: "custom stop reason", pattern: /"stopReason":"_/ },
  { name: "custom union tag", pattern: /"type":"_/ },
];

function v2OnlyShapeOf(example: Example): string | undefined {
  const text = JSON.stringify(example.kind === "definition" ? example.value : example.message);
  return V2_ONLY_SHAPES.find((shape) => shape.pattern.test(text))?.name;
}

describe("docs/protocol.md examples tagged v2 only, under v1", () => {
  it("include v2-only shapes (the classification below is not vacuous)", () => {
    expect(v2OnlyExamples.filter(v2OnlyShapeOf).length).toBeGreaterThanOrEqual(8);
  });

  it.each(v2OnlyExamples.map((example) => [example.label, v2OnlyShapeOf(example) ?? "common shape", example] as const))("%s (%s)", (_label, shape, example) => {
    const result = validateExample(example);
    if (shape === "common shape") expect(result.valid, describeErrors(result)).toBe(true);
    else expect(result.valid, `${shape} must be rejected by v1`).toBe(false);
  });
});

describe(`${V1_SEED_TRANSLATION} (v1 prompt-turn page) validates against v1`, () => {
  const seed = seedExamples(V1_SEED_TRANSLATION);
  it("finds the page's 8 JSON messages", () => expect(seed.length).toBe(8));
  it.each(seed.map((example) => [example.label, example] as const))("%s", (_label, example) => {
    const result = validateExample(example);
    expect(result.valid, describeErrors(result)).toBe(true);
  });
});

describe(`${V1_SEED_OLD_SDK} (old TypeScript SDK docs): its code's v1 shapes validate`, () => {
  const literals = sdkDocLiterals(V1_SEED_OLD_SDK);
  it("finds the update, permission and stop-reason literals", () => {
    expect(literals.map((literal) => literal.target.method)).toEqual([
      "session/update",
      "session/update",
      "session/update",
      "session/update",
      "session/request_permission",
      "session/prompt",
      "session/prompt",
      "session/prompt",
      "session/update",
      "session/update",
      "session/update",
      "session/prompt",
      "session/prompt",
    ]);
  });
  it.each(literals.map((literal) => [literal.label, literal] as const))("%s", (_label, literal) => {
    const { part, method } = literal.target;
    const result = part === "params" ? validateParams(1, method, literal.value) : validateResult(1, method, literal.value);
    expect(result.valid, describeErrors(result)).toBe(true);
  });
});

describe(`${V1_SEED_OLD_SDK}: the shapes docs/protocol.md §9 calls wrong are rejected`, () => {
  it("params.messages instead of prompt", () => {
    const result = validateParams(1, "session/prompt", { sessionId: "sess_seed", messages: [{ role: "user", content: "hi" }] });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors[0]).toMatchObject({ path: "/messages", legacyShape: "messages", expected: '"prompt": ContentBlock[]' });
    expect(result.errors.map((e) => e.path)).toContain("/prompt");
  });

  it('stop reason "error"', () => {
    const result = validateResult(1, "session/prompt", { stopReason: "error" });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors[0]).toMatchObject({ path: "/stopReason", legacyShape: "error" });
    expect(result.errors[0]!.expected).toMatch(/JSON-RPC error response/);
  });
});

describe(`${PRE_1_0_SEED} (pre-1.0 draft) under v1`, () => {
  const seed = seedExamples(PRE_1_0_SEED);
  // In page order: what docs/protocol.md §9 says about each JSON block (undefined = still a valid shape).
  const expectedLegacy: (string | undefined)[] = ["embedded_resource", undefined, "tool_call with id/name/arguments", undefined, "id"];

  it("finds the page's 5 JSON messages", () => expect(seed.length).toBe(expectedLegacy.length));

  it.each(seed.map((example, index) => [example.label, expectedLegacy[index], example] as const))("%s → %s", (_label, legacyShape, example) => {
    const result = validateExample(example);
    if (legacyShape === undefined) {
      expect(result.valid, describeErrors(result)).toBe(true);
      return;
    }
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors[0]?.legacyShape).toBe(legacyShape);
    expect(result.errors[0]?.message).toMatch(/^legacy pre-1\.0 shape/);
  });
});

describe("v2-only shapes are rejected by v1 at the right place", () => {
  const update = (u: Record<string, unknown>) => ({ sessionId: "s1", update: u });
  it.each([
    ["plan_update", update({ sessionUpdate: "plan_update", plan: { type: "items", id: "p1", entries: [] } }), "/update/sessionUpdate"],
    ["agent_message", update({ sessionUpdate: "agent_message", messageId: "m1", content: [] }), "/update/sessionUpdate"],
    ["user_message", update({ sessionUpdate: "user_message", messageId: "m1" }), "/update/sessionUpdate"],
    ["agent_thought", update({ sessionUpdate: "agent_thought", messageId: "m1" }), "/update/sessionUpdate"],
    [
      "tool_call_content_chunk",
      update({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: { type: "content", content: { type: "text", text: "x" } } }),
      "/update/sessionUpdate",
    ],
    ["custom update", update({ sessionUpdate: "_acpkit/current_mode_update", currentModeId: "m" }), "/update/sessionUpdate"],
    ["custom content block", update({ sessionUpdate: "agent_message_chunk", content: { type: "_acpkit/widget" } }), "/update/content/type"],
    [
      "custom tool content",
      update({ sessionUpdate: "tool_call_update", toolCallId: "t", content: [{ type: "_acpkit/terminal", terminalId: "x" }] }),
      "/update/content/0/type",
    ],
    ["custom tool kind", update({ sessionUpdate: "tool_call", toolCallId: "t", title: "x", kind: "_acpkit/deploy" }), "/update/kind"],
    [
      "custom plan priority",
      update({ sessionUpdate: "plan", entries: [{ content: "x", priority: "_urgent", status: "pending" }] }),
      "/update/entries/0/priority",
    ],
    ["v2 message clear (content: null on a chunk)", update({ sessionUpdate: "agent_message_chunk", messageId: "m", content: null }), "/update/content"],
  ] as const)("session/update with %s", (_what, params, path) => {
    const result = validateParams(1, "session/update", params);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors.map((e) => e.path)).toContain(path);
  });

  it("a custom stop reason", () => {
    const result = validateResult(1, "session/prompt", { stopReason: "_acpkit/budget_exhausted" });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors.map((e) => e.path)).toContain("/stopReason");
  });

  it("a custom permission option kind", () => {
    const params = { sessionId: "s", toolCall: { toolCallId: "t" }, options: [{ optionId: "o", name: "Maybe", kind: "_ask_later" }] };
    const result = validateParams(1, "session/request_permission", params);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors[0]!.path).toBe("/options/0/kind");
  });
});
