// The demo turn an ordinary prompt plays: every kind of update once, in a fixed order.
import { afterEach, describe, expect, it } from "vitest";
import { chunkText, CWD, runPrompt, startBuiltinAgent, tagRuns, type StartOptions, type Started } from "./agent-support.js";

const running: Started[] = [];
afterEach(async () => {
  for (const started of running.splice(0)) await started.close();
});

async function start(options: StartOptions): Promise<Started> {
  const started = await startBuiltinAgent(options);
  running.push(started);
  return started;
}

const README = "# Project\n\nHello.\n";
const readme = { readTextFile: () => README };

describe("demo turn", () => {
  it("v1 with a client file system: plan, thought, permission-gated edit, client file read, streamed answer, usage, end_turn", async () => {
    const reads: unknown[] = [];
    const { session, wire, permissionRequests } = await start({
      offer: 1,
      fs: {
        readTextFile: (r) => {
          reads.push(r);
          return README;
        },
      },
    });
    const { updates, stopReason } = await runPrompt(session, "Fix the typo please");
    expect(stopReason).toBe("end_turn");
    // What the v1 client received on the wire (first the command list announced after session/new).
    expect(tagRuns(wire.updates())).toEqual([
      "available_commands_update",
      "plan",
      "agent_thought_chunk",
      "plan",
      "tool_call", // the edit, pending
      "tool_call_update", // in_progress, content, completed
      "plan",
      "tool_call", // the read, in_progress
      "tool_call_update", // completed
      "agent_message_chunk", // the read's report
      "plan",
      "agent_message_chunk", // the answer
      "plan",
      "usage_update",
    ]);
    expect(permissionRequests).toHaveLength(1);
    expect(reads).toEqual([{ sessionId: session.sessionId, path: `${CWD}/README.md` }]);
    // The permission request comes after the tool call it is about, the read after its tool call.
    const methods = wire.received.map((m) => m.method ?? m.params?.update?.sessionUpdate);
    expect(methods.indexOf("session/request_permission")).toBeGreaterThan(methods.indexOf("tool_call"));
    expect(methods.indexOf("fs/read_text_file")).toBeGreaterThan(methods.lastIndexOf("tool_call"));

    const state = session.state;
    expect(state.plans).toHaveLength(1);
    expect((state.plans[0] as { entries: { status: string }[] }).entries.map((e) => e.status)).toEqual(["completed", "completed", "completed", "completed"]);
    expect(state.toolCalls.map((t) => [t.kind, t.status])).toEqual([
      ["edit", "completed"],
      ["read", "completed"],
    ]);
    expect(state.usage).toEqual({ used: 1200 + "Fix the typo please".length, size: 200_000, cost: { amount: 0.0042, currency: "USD" } });
    expect(chunkText(updates, "agent_thought_chunk")).toContain('The user asked: "Fix the typo please".');
    const answer = chunkText(updates, "agent_message_chunk");
    expect(answer).toContain(`Read ${CWD}/README.md: 18 bytes (UTF-8), 3 lines.`);
    expect(answer).toContain("You allowed the edit, so it was applied; README.md has 3 lines.");
  });

  it("v2: the same turn without the client file read (a thought says why), tool content streamed as a chunk", async () => {
    const { session, wire } = await start({ offer: 2 });
    const { updates, stopReason } = await runPrompt(session, "Fix the typo please");
    expect(stopReason).toBe("end_turn");
    expect(tagRuns(updates)).toEqual([
      "plan_update",
      "agent_thought_chunk",
      "plan_update",
      "tool_call_update", // pending
      "tool_call_content_chunk",
      "tool_call_update", // completed
      "plan_update",
      "agent_thought", // read skipped
      "plan_update",
      "agent_message_chunk",
      "plan_update",
      "usage_update",
    ]);
    expect(wire.received.some((m) => m.method === "fs/read_text_file")).toBe(false);
    expect((session.state.plans[0] as { entries: { content: string }[] }).entries[2]!.content).toBe("Read README.md (skipped: no client file system)");
    expect(updates.filter((u) => u.sessionUpdate === "tool_call_update").map((u) => (u as { status?: string }).status)).toEqual([
      "pending",
      "in_progress",
      "completed",
    ]);
    const skipped = updates.find((u) => u.sessionUpdate === "agent_thought") as { content: { text: string }[] };
    expect(skipped.content[0]!.text).toBe("Skipping the file read: the client has no file system on this connection (protocol v2 has no fs/* methods).");
    expect(chunkText(updates, "agent_message_chunk")).toContain("You allowed the edit, so it was applied; no file was read.");
  });

  it("v1 without the fs capability skips the read like v2", async () => {
    const { session, wire } = await start({ offer: 1 });
    const { stopReason } = await runPrompt(session, "hi");
    expect(stopReason).toBe("end_turn");
    expect(wire.received.some((m) => m.method === "fs/read_text_file")).toBe(false);
    expect(session.state.toolCalls.map((t) => t.kind)).toEqual(["edit"]);
  });

  it("is deterministic: the same prompt on two connections gives identical updates", async () => {
    for (const offer of [1, 2] as const) {
      const first = await start({ offer, fs: readme });
      const second = await start({ offer, fs: readme });
      const a = await runPrompt(first.session, "Same prompt");
      const b = await runPrompt(second.session, "Same prompt");
      expect(a.updates.length).toBeGreaterThan(20);
      expect(b.updates).toEqual(a.updates);
    }
  });

  it("a rejected edit is marked failed and the answer says it was skipped", async () => {
    const { session } = await start({ offer: 2, permission: "reject" });
    const { updates, stopReason } = await runPrompt(session, "try");
    expect(stopReason).toBe("end_turn");
    expect(session.state.toolCalls[0]!.status).toBe("failed");
    expect(chunkText(updates, "agent_message_chunk")).toContain("You did not allow the edit, so it was skipped");
  });

  it("a cancel during the permission request ends the turn cancelled with no further updates", async () => {
    for (const offer of [1, 2] as const) {
      const { session, wire } = await start({ offer, permission: "cancel-turn", fs: readme });
      const { stopReason } = await runPrompt(session, "cancel me");
      expect(stopReason).toBe("cancelled");
      const askedAt = wire.received.findIndex((m) => m.method === "session/request_permission");
      expect(wire.received.slice(askedAt + 1).some((m) => m.method === "session/update" || m.method === "fs/read_text_file")).toBe(false);
    }
  });
});
