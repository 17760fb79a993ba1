// ClientSideV1Bridge.forEachFromV1 (the client's per-update path) converts exactly as fromV1 does.
import { describe, expect, it } from "vitest";
import { ClientSideV1Bridge } from "../src/bridge/index.js";

const updates = [
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "a" } },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "b" }, _meta: { k: 1 } },
  { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "t" } },
  { sessionUpdate: "user_message_chunk", messageId: "u1", content: { type: "text", text: "u" } },
  { sessionUpdate: "tool_call", toolCallId: "c1", title: "Run", status: "pending" },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "c" } },
  { sessionUpdate: "plan", entries: [] },
  { sessionUpdate: "not_a_v1_update" },
];

describe("ClientSideV1Bridge.forEachFromV1", () => {
  it("hands over the same model updates, in order, as fromV1 returns", () => {
    const viaArray = new ClientSideV1Bridge({ sessionId: "s" });
    const viaCallback = new ClientSideV1Bridge({ sessionId: "s" });
    const expected = updates.flatMap((update) => viaArray.fromV1(update as never));
    const seen: unknown[] = [];
    for (const update of updates) viaCallback.forEachFromV1(update as never, (model) => seen.push(model));
    expect(seen).toEqual(expected);
    expect(seen.map((u) => (u as { messageId?: string }).messageId)).toEqual([
      "acpkit-synth-1",
      "acpkit-synth-1",
      "acpkit-synth-2",
      "u1",
      undefined,
      "acpkit-synth-3",
      undefined,
    ]);
  });
});
