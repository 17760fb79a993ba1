// Batched application (state/batched-state.ts, applyUpdates): applying updates in batches gives
// exactly the state that applying them one by one gives — chunk runs, unseen ids, kind
// mismatches, malformed chunks, the prompt echo (M11) and states read in between.
import type { v2 } from "@acpkit/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BatchedState } from "../src/state/batched-state.js";
import { beginTurn } from "../src/state/client-actions.js";
import { applyUpdate, applyUpdates } from "../src/state/reducer.js";
import { type SessionState, createSessionState, sessionStateToJSON } from "../src/state/session-state.js";

const U = (update: Record<string, unknown>) => update as unknown as v2.SessionUpdate;
const text = (t: string) => ({ type: "text", text: t });

const messageId = fc.constantFrom("m1", "m2", "acpkit-prompt-1", "echo");
const chunkTag = fc.constantFrom("agent_message_chunk", "agent_message_chunk", "agent_thought_chunk", "user_message_chunk");
const update: fc.Arbitrary<v2.SessionUpdate> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ sessionUpdate: chunkTag, messageId, content: fc.constantFrom("a", "b", "hi").map(text) }).map(U) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        sessionUpdate: fc.constant("tool_call_content_chunk"),
        toolCallId: fc.constantFrom("c1", "c2"),
        content: fc.constant({ type: "content", content: text("out") }),
      })
      .map(U),
  },
  { weight: 1, arbitrary: fc.record({ sessionUpdate: fc.constant("agent_message"), messageId, content: fc.constantFrom([text("r")], null) }).map(U) },
  {
    weight: 1,
    arbitrary: fc
      .record({ sessionUpdate: fc.constant("tool_call_update"), toolCallId: fc.constantFrom("c1", "c2"), status: fc.constantFrom("in_progress", "completed") })
      .map(U),
  },
  // Malformed chunks (no id, content of the wrong shape) are diagnosed, never appended.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      U({ sessionUpdate: "agent_message_chunk", content: text("x") }),
      U({ sessionUpdate: "agent_message_chunk", messageId: "m1", content: "x" }),
      U({ sessionUpdate: "agent_message_chunk", messageId: "m1", content: [text("x")] }),
      U({ sessionUpdate: "agent_thought_chunk", messageId: "m2", content: null }),
      U({ sessionUpdate: "tool_call_content_chunk", toolCallId: "c1", content: "out" }),
      U({ sessionUpdate: "tool_call_content_chunk", toolCallId: "c2", content: [{ type: "content", content: text("out") }] }),
    ),
  },
);

function oneByOne(state: SessionState, updates: readonly v2.SessionUpdate[]): SessionState {
  return updates.reduce(applyUpdate, state);
}

function view(state: SessionState) {
  return { json: sessionStateToJSON(state), diagnostics: state.diagnostics.map((d) => d.code) };
}

/** A state in a live turn whose prompt is "hi", "a", so user chunks can echo it (M11). */
function inTurn(): SessionState {
  return beginTurn(createSessionState("s", 2), [text("hi"), text("a")] as v2.ContentBlock[]);
}

describe("applyUpdates", () => {
  it("equals applying the updates one by one", () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 60 }), fc.boolean(), (updates, live) => {
        const start = live ? inTurn() : createSessionState("s", 2);
        expect(view(applyUpdates(start, updates))).toEqual(view(oneByOne(start, updates)));
      }),
      { numRuns: 400 },
    );
  });

  it("keeps matching the prompt echo (M11) inside a run of user chunks", () => {
    const echo = ["hi", "a", "more", "end"].map((t) => U({ sessionUpdate: "user_message_chunk", messageId: "u-1", content: text(t) }));
    const batched = applyUpdates(inTurn(), echo);
    expect(view(batched)).toEqual(view(oneByOne(inTurn(), echo)));
    expect(batched.message("u-1")?.content.map((b) => (b as { text: string }).text)).toEqual(["hi", "a", "more", "end"]);
  });

  it("appends a run of chunks with one new record, and leaves the older state as it was", () => {
    let state = applyUpdate(createSessionState("s", 2), U({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("0") }));
    const before = state;
    const run = Array.from({ length: 5 }, (_, i) => U({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text(String(i + 1)) }));
    state = applyUpdates(state, run);
    expect(state.message("m")?.content.map((b) => (b as { text: string }).text)).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect(before.message("m")?.content).toHaveLength(1);
    // A branch from the older state does not see the run.
    expect(applyUpdate(before, U({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("b") })).message("m")?.content).toHaveLength(2);
  });
});

describe("BatchedState", () => {
  it("shows every queued update on each read, whatever the batch boundaries", () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 5 }), (updates, reads) => {
        const cell = new BatchedState(createSessionState("s", 2));
        let expected = createSessionState("s", 2);
        updates.forEach((u, index) => {
          cell.add(u);
          expected = applyUpdate(expected, u);
          if (reads.includes(index)) expect(view(cell.current)).toEqual(view(expected));
        });
        expect(view(cell.current)).toEqual(view(expected));
      }),
      { numRuns: 100 },
    );
  });

  it("refuses a replacement that was not derived from the current state", () => {
    const cell = new BatchedState(createSessionState("s", 2));
    cell.add(U({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("a") }));
    expect(() => {
      cell.current = createSessionState("s", 2);
    }).toThrow(/without reading it first/);
    cell.current = beginTurn(cell.current);
    expect(cell.current.messages).toHaveLength(1);
  });
});
