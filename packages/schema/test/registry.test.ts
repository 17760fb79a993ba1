// The public validation API over the generated validators (docs/architecture.md §2).
import { describe, expect, it } from "vitest";
import {
  checkOutgoing,
  getMethod,
  isSchemaVersion,
  LATER_V2,
  methods,
  PROTOCOL_VERSIONS,
  SCHEMA_VERSIONS,
  schemaVersionLabel,
  validateDefinition,
  validateParams,
  validateResult,
} from "../src/index.js";

const chunk = (update: Record<string, unknown>) => ({ sessionId: "s1", update });

describe("methods()", () => {
  it("lists each version's methods with direction, kind and types", () => {
    expect(PROTOCOL_VERSIONS).toEqual([1, 2]);
    const v1 = methods(1);
    expect(v1.get("fs/read_text_file")).toMatchObject({ direction: "agent_to_client", kind: "request", paramsType: "ReadTextFileRequest" });
    expect(methods(2).has("fs/read_text_file")).toBe(false);
    expect(getMethod(2, "session/update")).toMatchObject({ kind: "notification", direction: "agent_to_client", paramsType: "SessionNotification" });
    expect(getMethod(2, "session/update")?.validateResult).toBeUndefined();
    expect(getMethod(1, "session/prompt")).toMatchObject({ kind: "request", direction: "client_to_agent", resultType: "PromptResponse" });
  });

  it("refuses a version acpkit does not speak", () => {
    expect(() => methods(3 as 1)).toThrow(/unsupported protocol version 3/);
    expect(validateParams(3 as 1, "session/prompt", {})).toEqual({
      valid: false,
      errors: [{ path: "", message: 'unsupported protocol version 3 (acpkit speaks 1 and 2, and validates the later v2 draft as "v2-later")' }],
    });
  });
});

describe("validateParams / validateResult", () => {
  it("returns one shared frozen success", () => {
    const a = validateParams(2, "session/cancel", { sessionId: "s1" });
    const b = validateResult(1, "session/prompt", { stopReason: "end_turn" });
    expect(a).toEqual({ valid: true });
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it("says an unknown method is unknown, with a hint for legacy names", () => {
    expect(validateParams(2, "fs/read_text_file", {})).toEqual({
      valid: false,
      errors: [{ path: "", message: 'unknown method "fs/read_text_file" in protocol v2' }],
    });
    const legacy = validateParams(1, "acp/prompt", {});
    expect(legacy.valid).toBe(false);
    if (!legacy.valid)
      expect(legacy.errors[0]).toMatchObject({ path: "", legacyShape: "acp/prompt", message: expect.stringContaining('use "session/prompt"') });
  });

  it("points into the value with JSON Pointers", () => {
    expect(validateParams(2, "session/update", chunk({ sessionUpdate: "agent_message_chunk", messageId: "m" }))).toEqual({
      valid: false,
      errors: [{ path: "/update/content", message: "must have required property 'content'" }],
    });
    expect(validateParams(2, "session/prompt", { sessionId: "s", prompt: [{ type: "text" }] })).toEqual({
      valid: false,
      errors: [{ path: "/prompt/0/text", message: "must have required property 'text'" }],
    });
    expect(validateParams(1, "session/update", chunk({ sessionUpdate: "tool_call_update", toolCallId: "c", status: "done" }))).toEqual({
      valid: false,
      errors: [{ path: "/update/status", message: 'must be one of "pending", "in_progress", "completed", "failed"' }],
    });
  });

  it("rejects a known v2 tag with a bad body instead of demoting it to unknown (U3)", () => {
    const result = validateParams(2, "session/update", chunk({ sessionUpdate: "plan_update", plan: { type: "items", entries: [] } }));
    expect(result).toEqual({ valid: false, errors: [{ path: "/update/plan/id", message: "must have required property 'id'" }] });
  });

  it("names the known tags of a closed union", () => {
    const result = validateParams(1, "session/update", chunk({ sessionUpdate: "plan_update" }));
    expect(result.valid).toBe(false);
    if (!result.valid)
      expect(result.errors.at(-1)).toMatchObject({ path: "/update/sessionUpdate", message: expect.stringContaining('"plan", "available_commands_update"') });
  });

  it("accepts unknown v2 updates but flags v1 shapes that v2 would take as unknown", () => {
    expect(validateParams(2, "session/update", chunk({ sessionUpdate: "_acme/progress", percent: 4 }))).toEqual({ valid: true });
    const v1Shape = validateParams(2, "session/update", chunk({ sessionUpdate: "tool_call", toolCallId: "c", title: "t" }));
    expect(v1Shape.valid).toBe(false);
    if (!v1Shape.valid) expect(v1Shape.errors[0]).toMatchObject({ path: "/update/sessionUpdate", legacyShape: "tool_call" });
  });

  it("has no result for a notification", () => {
    expect(validateResult(2, "session/cancel", {})).toEqual({
      valid: false,
      errors: [{ path: "", message: '"session/cancel" is a notification in protocol v2; it has no result' }],
    });
  });
});

describe("validateDefinition", () => {
  it("validates any $def by name and refuses unknown names", () => {
    expect(validateDefinition(2, "ContentBlock", { type: "_acme/sticker", id: 1 })).toEqual({ valid: true });
    expect(validateDefinition(1, "ContentBlock", { type: "_acme/sticker" }).valid).toBe(false);
    expect(validateDefinition(2, "toString", {})).toEqual({ valid: false, errors: [{ path: "", message: 'unknown definition "toString" in protocol v2' }] });
  });
});

describe("checkOutgoing", () => {
  it("requires `_` on unknown open values we send on v2, wherever they sit (U1)", () => {
    expect(checkOutgoing(2, "session/prompt", "result", { stopReason: "_acme/budget" })).toEqual({ valid: true });
    const result = checkOutgoing(
      2,
      "session/update",
      "params",
      chunk({ sessionUpdate: "tool_call_update", toolCallId: "c", kind: "weird", content: [{ type: "video" }] }),
    );
    expect(result.valid).toBe(false);
    if (!result.valid) {
      expect(result.errors.map((e) => e.path)).toEqual(["/update/kind", "/update/content/0/type"]);
      expect(result.errors[0]!.message).toContain('custom values must start with "_"');
    }
    const tag = checkOutgoing(2, "session/update", "params", chunk({ sessionUpdate: "progress" }));
    expect(tag.valid ? [] : tag.errors.map((e) => e.path)).toEqual(["/update/sessionUpdate"]);
    const priority = checkOutgoing(
      2,
      "session/update",
      "params",
      chunk({ sessionUpdate: "plan_update", plan: { type: "items", id: "p", entries: [{ content: "x", priority: "urgent", status: "pending" }] } }),
    );
    expect(priority.valid ? [] : priority.errors.map((e) => e.path)).toEqual(["/update/plan/entries/0/priority"]);
  });

  it("accepts what validates on v1 (no `_` rule there) and lets extension methods through", () => {
    expect(checkOutgoing(1, "session/prompt", "result", { stopReason: "end_turn" })).toEqual({ valid: true });
    expect(checkOutgoing(2, "_acme/ping", "params", { anything: true })).toEqual({ valid: true });
    expect(checkOutgoing(2, "session/prompt", "result", { stopReason: 7 }).valid).toBe(false);
  });
});

describe("the later v2 draft in the registry", () => {
  it("is a schema version of its own, named in prose apart from the pinned v2", () => {
    expect(SCHEMA_VERSIONS).toEqual([1, 2, LATER_V2]);
    expect(SCHEMA_VERSIONS.map(isSchemaVersion)).toEqual([true, true, true]);
    expect([3, "2", "v2", null].map(isSchemaVersion)).toEqual([false, false, false, false]);
    expect(SCHEMA_VERSIONS.map(schemaVersionLabel)).toEqual(["protocol v1", "protocol v2", "the later v2 draft"]);
  });

  it("has its own methods: the later names, no session/load", () => {
    expect(getMethod(LATER_V2, "auth/login")?.direction).toBe("client_to_agent");
    expect(getMethod(LATER_V2, "session/load")).toBeUndefined();
    expect(validateParams(LATER_V2, "authenticate", { methodId: "x" })).toMatchObject({
      valid: false,
      errors: [{ message: expect.stringContaining('unknown method "authenticate" in the later v2 draft') }],
    });
  });
});
