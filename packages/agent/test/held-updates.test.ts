// An agent that streams without awaiting turn.flush(): past a burst of HOLD_AFTER updates in one
// tick, updates are held; appends to the same message or tool call join (same text, fewer
// chunks), distinct updates keep their order and are all delivered, a backlog is reported once,
// and nothing a request or the response sends overtakes them.
import { Connection } from "@acpkit/core";
import { RecordingTransport } from "@acpkit/test-support/recording-transport";
import { createMemoryPair } from "@acpkit/transport-memory";
import { describe, expect, it } from "vitest";
import { serveAgent, type AgentDefinition, type Turn } from "../src/index.js";
import { HELD_HIGH_WATER, HOLD_AFTER, HeldUpdates, MAX_JOINED_TEXT } from "../src/held-updates.js";
import type { ModelUpdate } from "../src/types.js";

async function run(promptHandler: (turn: Turn) => Promise<"end_turn"> | "end_turn", answerPermission = false) {
  const [clientSide, agentSide] = createMemoryPair();
  const diagnostics: { code: string; message: string }[] = [];
  const agent: AgentDefinition = { prompt: promptHandler };
  serveAgent(agentSide, agent, { onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) });
  const wire = new RecordingTransport(clientSide);
  const client = new Connection(wire, { side: "client" });
  if (answerPermission) client.onRequest("session/request_permission" as never, (() => ({ outcome: { outcome: "selected", optionId: "ok" } })) as never);
  const init: any = await client.request("initialize", { protocolVersion: 2, capabilities: {} });
  client.setVersion(init.protocolVersion);
  const { sessionId }: any = await client.request("session/new", { cwd: "/work", mcpServers: [] });
  const result: any = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
  await client.close("done");
  return { wire, sessionId, result, diagnostics };
}

const piece = (i: number) => `${i},`;
const expected = (count: number) => Array.from({ length: count }, (_, i) => piece(i)).join("");

describe("held updates (an agent that never awaits turn.flush())", () => {
  it("joins appends to one message once a tick's burst is past HOLD_AFTER: same text, far fewer chunks", async () => {
    const count = HOLD_AFTER * 20;
    const { wire, sessionId, result, diagnostics } = await run((turn) => {
      const message = turn.message();
      for (let i = 0; i < count; i++) message.append(piece(i));
      return "end_turn";
    });
    expect(result.stopReason).toBe("end_turn");
    const chunks = wire.updates(sessionId).filter((update: any) => update.sessionUpdate === "agent_message_chunk");
    expect(chunks.length).toBeGreaterThan(HOLD_AFTER);
    expect(chunks.length).toBeLessThanOrEqual(HOLD_AFTER + 2);
    expect(chunks.map((chunk: any) => chunk.content.text).join("")).toBe(expected(count));
    expect(new Set(chunks.map((chunk: any) => chunk.messageId)).size).toBe(1);
    expect(diagnostics.filter((d) => d.code === "updates_backlog")).toEqual([]);
  });

  it("keeps distinct updates apart and in order, and reports a backlog once, naming turn.flush()", async () => {
    const count = HELD_HIGH_WATER + HOLD_AFTER + 500;
    const { wire, sessionId, diagnostics } = await run((turn) => {
      for (let i = 0; i < count; i++) turn.message(piece(i));
      return "end_turn";
    });
    const texts = wire
      .updates(sessionId)
      .filter((update: any) => update.sessionUpdate === "agent_message" || update.sessionUpdate === "agent_message_chunk")
      .map((update: any) => (Array.isArray(update.content) ? update.content.map((block: any) => block.text).join("") : update.content.text));
    expect(texts).toHaveLength(count);
    expect(texts.join("")).toBe(expected(count));
    const backlog = diagnostics.filter((d) => d.code === "updates_backlog");
    expect(backlog).toHaveLength(1);
    expect(backlog[0]!.message).toContain("turn.flush()");
  });

  it("sends held updates before a permission request and before the response", async () => {
    const count = HOLD_AFTER * 3;
    const { wire, sessionId } = await run(async (turn): Promise<"end_turn"> => {
      const tool = turn.toolCall({ title: "Edit", kind: "edit", status: "pending" });
      for (let i = 0; i < count; i++) tool.appendContent(piece(i));
      await tool.requestPermission([{ optionId: "ok", name: "OK", kind: "allow_once" }]);
      const message = turn.message();
      for (let i = 0; i < count; i++) message.append(piece(i));
      return "end_turn";
    }, true);
    const received = wire.received;
    const permissionAt = received.findIndex((message: any) => message.method === "session/request_permission");
    const responseAt = received.findIndex((message: any) => message.result?.stopReason !== undefined);
    expect(permissionAt).toBeGreaterThan(0);
    const toolText = received
      .slice(0, permissionAt)
      .filter((message: any) => message.params?.update?.sessionUpdate === "tool_call_content_chunk")
      .map((message: any) => message.params.update.content.content.text)
      .join("");
    expect(toolText).toBe(expected(count));
    const answer = received
      .slice(permissionAt, responseAt)
      .filter((message: any) => message.params?.update?.sessionUpdate === "agent_message_chunk")
      .map((message: any) => message.params.update.content.text)
      .join("");
    expect(answer).toBe(expected(count));
    expect(received.slice(responseAt + 1).filter((message: any) => message.params?.sessionId === sessionId)).toEqual([]);
  });
});

describe("HeldUpdates", () => {
  const chunk = (messageId: string, text: string, extra: object = {}) =>
    ({ sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text }, ...extra }) as unknown as ModelUpdate;

  it("joins only plain text appends to the same target, and never changes the caller's objects", () => {
    const held = new HeldUpdates();
    const first = chunk("m1", "a");
    held.push(first);
    held.push(chunk("m1", "b"));
    held.push(chunk("m1", "c"));
    held.push(chunk("m2", "d"));
    held.push(chunk("m2", "e", { _meta: { k: 1 } }));
    held.push({
      sessionUpdate: "agent_message_chunk",
      messageId: "m2",
      content: { type: "text", text: "f", annotations: { priority: 1 } },
    } as unknown as ModelUpdate);
    held.push({
      sessionUpdate: "tool_call_content_chunk",
      toolCallId: "t",
      content: { type: "content", content: { type: "text", text: "x" } },
    } as unknown as ModelUpdate);
    held.push({
      sessionUpdate: "tool_call_content_chunk",
      toolCallId: "t",
      content: { type: "content", content: { type: "text", text: "y" } },
    } as unknown as ModelUpdate);
    expect(held.size).toBe(5);
    expect(held.joined).toBe(3);
    expect(first).toEqual(chunk("m1", "a"));
    const all = held.take(10) as any[];
    expect(all.map((update) => update.content.text ?? update.content.content.text)).toEqual(["abc", "d", "e", "f", "xy"]);
    expect(held.size).toBe(0);
  });

  it("starts a new update once a joined text would pass MAX_JOINED_TEXT", () => {
    const held = new HeldUpdates();
    const piece = "x".repeat(1000);
    const count = Math.ceil((MAX_JOINED_TEXT * 2.5) / piece.length);
    for (let i = 0; i < count; i++) held.push(chunk("m1", piece));
    const all = held.take(held.size) as any[];
    expect(all).toHaveLength(3);
    for (const update of all) expect(update.content.text.length).toBeLessThanOrEqual(MAX_JOINED_TEXT);
    expect(all.map((update) => update.content.text).join("")).toBe(piece.repeat(count));
  });
});
