// The generated constants (generated/vN/constants.ts) agree with the validators built from the
// same schema: every stop reason listed ends a turn, and on v1 (closed lists) a made-up stop
// reason or update tag is refused while every listed tag is one the validator knows.
import { describe, expect, it } from "vitest";
import { loadProtocolVersion, SESSION_UPDATE_TAGS, STOP_REASONS, validateParams, validateResult } from "../src/index.js";

describe("generated constants", () => {
  it.each([1, 2] as const)("every v%i stop reason listed ends a turn", async (version) => {
    await loadProtocolVersion(version);
    for (const stopReason of STOP_REASONS[version]) expect(validateResult(version, "session/prompt", { stopReason }).valid, stopReason).toBe(true);
    expect(STOP_REASONS[version]).toEqual(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]);
  });

  it("v1's lists are closed: a made-up stop reason or update tag is refused, every listed tag is known", async () => {
    await loadProtocolVersion(1);
    expect(validateResult(1, "session/prompt", { stopReason: "finished" }).valid).toBe(false);
    const tagError = (tag: string) => {
      const result = validateParams(1, "session/update", { sessionId: "s", update: { sessionUpdate: tag } });
      return result.valid ? undefined : result.errors.find((error) => error.path === "/update/sessionUpdate");
    };
    expect(tagError("made_up_update")).toBeDefined();
    for (const tag of SESSION_UPDATE_TAGS[1]) expect(tagError(tag), tag).toBeUndefined();
  });

  it("v2 lists the v2-only update kinds and none of v1's retired ones", () => {
    expect(SESSION_UPDATE_TAGS[2]).toEqual(expect.arrayContaining(["agent_message", "tool_call_content_chunk", "plan_update"]));
    expect(SESSION_UPDATE_TAGS[2]).not.toContain("tool_call");
    expect(SESSION_UPDATE_TAGS[2]).not.toContain("plan");
  });
});
