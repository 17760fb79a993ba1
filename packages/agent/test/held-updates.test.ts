// An agent that streams without awaiting turn.flush(): past a burst of HOLD_AFTER updates in one
// tick, updates are held; appends to the same message or tool call join (same text, fewer
// chunks), distinct updates keep their order and are all delivered, a backlog is reported once,
// and nothing a request or the response sends overtakes them.
import { Connection } from "@acpkit/core";
import { RecordingTransport } from "@acpkit/test-support/recording-transport";
import { createMemoryPair } from "@acpkit/transport-memory";
import { describe, expect, it } from "vitest";
import { serveAgent, type AgentDefinition, type AgentTurn } from "../src/index.js";
import { HELD_HIGH_WATER, HOLD_AFTER, HeldUpdates, MAX_JOINED_TEXT } from "../src/held-updates.js";
import { messageIdFor, messageNumberOf } from "../src/message-ids.js";
import type { SessionUpdate } from "../src/types.js";

async function run(promptHandler: (turn: AgentTurn) => Promise<"end_turn"> | "end_turn", answerPermission = false) {
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
    ({ sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text }, ...extra }) as unknown as SessionUpdate;

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
    } as unknown as SessionUpdate);
    held.push({
      sessionUpdate: "tool_call_content_chunk",
      toolCallId: "t",
      content: { type: "content", content: { type: "text", text: "x" } },
    } as unknown as SessionUpdate);
    held.push({
      sessionUpdate: "tool_call_content_chunk",
      toolCallId: "t",
      content: { type: "content", content: { type: "text", text: "y" } },
    } as unknown as SessionUpdate);
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

  it("holds consecutive whole messages as a run and gives back the same updates, in order, across partial takes", () => {
    const held = new HeldUpdates();
    const whole = (id: string, text: string) => ({ sessionUpdate: "agent_message", messageId: id, content: [{ type: "text", text }] });
    // msg_1…msg_3 (a run), a custom id, msg_4…msg_5 (a new run: the custom id broke the first),
    // a thought msg_6 (another kind), msg_8 (not consecutive), and a non-canonical spelling.
    const pushed = [
      ["agent_message", "msg_1", "a"],
      ["agent_message", "msg_2", "b"],
      ["agent_message", "msg_3", "c"],
      ["agent_message", "greeting", "d"],
      ["agent_message", "msg_4", "e"],
      ["agent_message", "msg_5", "f"],
      ["agent_thought", "msg_6", "g"],
      ["agent_message", "msg_8", "h"],
      ["agent_message", "msg_09", "i"],
    ] as const;
    for (const [kind, id, text] of pushed) held.pushWholeText(kind, id, text);
    expect(held.size).toBe(pushed.length);
    const taken = [...held.take(2), ...held.take(3), ...held.take(100)];
    expect(held.size).toBe(0);
    expect(taken).toEqual(pushed.map(([kind, id, text]) => ({ ...whole(id, text), sessionUpdate: kind })));
  });

  it("a run that grows while it drains keeps every message, and a chunk append after it is held apart", () => {
    const held = new HeldUpdates();
    let next = 1;
    const push = (count: number) => {
      for (let i = 0; i < count; i++, next++) held.pushWholeText("agent_message", messageIdFor(next), `t${next}`);
    };
    const out: any[] = [];
    push(10_000);
    out.push(...held.take(6_000));
    push(5_000);
    out.push(...held.take(6_000));
    push(3);
    held.push(chunk(messageIdFor(next - 1), "+"));
    expect(held.size).toBe(10_000 + 5_000 + 3 + 1 - 12_000);
    out.push(...held.take(held.size));
    expect(out).toHaveLength(15_004);
    expect(out.slice(0, -1).map((update) => update.messageId)).toEqual(Array.from({ length: 15_003 }, (_, i) => messageIdFor(i + 1)));
    expect(out.slice(0, -1).map((update) => update.content[0].text)).toEqual(Array.from({ length: 15_003 }, (_, i) => `t${i + 1}`));
    expect(out.at(-1)).toEqual(chunk(messageIdFor(15_003), "+"));
  });

  it("a run joins its texts into blocks and gives each back whole, whatever its length or characters", () => {
    // Lengths around the block limits (256 texts, 16 Ki units, a text longer than that stands
    // alone), empty texts, two-byte text and lone surrogates; takes interleaved with pushes.
    let seed = 7;
    const random = (n: number) => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const alphabet = ["a", "é", "\u{1F600}", "\ud800", '"', "\n", "z"];
    const textOf = (i: number) => {
      const length = [0, 1, 12, 13, 40, 16 * 1024, 16 * 1024 + 1, 40_000][random(8)]!;
      const filler = alphabet[i % alphabet.length]!.repeat(Math.ceil(length / 2) + 1).slice(0, length);
      return `${i}:${filler}`;
    };
    const held = new HeldUpdates();
    const sent: string[] = [];
    const received: string[] = [];
    let next = 1;
    for (let round = 0; round < 40; round++) {
      const pushes = random(700);
      for (let i = 0; i < pushes; i++) {
        const text = textOf(sent.length);
        sent.push(text);
        held.pushNumberedWholeText("agent_message", next++, text);
      }
      const budget = 1 + random(300_000);
      for (const update of held.take(1 + random(600), budget) as any[]) received.push(update.content[0].text);
    }
    for (const update of held.take(held.size) as any[]) received.push(update.content[0].text);
    expect(sent.length).toBeGreaterThan(5_000);
    expect(received).toHaveLength(sent.length);
    for (let i = 0; i < sent.length; i++) if (received[i] !== sent[i]) expect({ i, text: received[i] }).toEqual({ i, text: sent[i] });
  });

  it("a text budget stops a take at the text that reaches it, counting each text's own length", () => {
    const held = new HeldUpdates();
    const texts = Array.from({ length: 600 }, (_, i) => "x".repeat(i % 50));
    for (const [i, text] of texts.entries()) held.pushNumberedWholeText("agent_message", i + 1, text);
    const first = held.take(1000, 2_000) as any[];
    const units = first.reduce((sum, update) => sum + update.content[0].text.length, 0);
    // It stops at the first text that brings the total to the budget or past it.
    expect(units).toBeGreaterThanOrEqual(2_000);
    expect(units - first.at(-1).content[0].text.length).toBeLessThan(2_000);
    expect(first.map((update) => update.content[0].text)).toEqual(texts.slice(0, first.length));
    expect(first.map((update) => update.messageId)).toEqual(texts.slice(0, first.length).map((_, i) => messageIdFor(i + 1)));
  });

  it("reads back only the canonical message ids it hands out", () => {
    expect(messageIdFor(42)).toBe("msg_42");
    expect(messageNumberOf("msg_42")).toBe(42);
    expect(messageNumberOf("msg_9007199254740991")).toBe(Number.MAX_SAFE_INTEGER);
    for (const n of [1, 9, 10, 1234567]) expect(messageNumberOf(messageIdFor(n))).toBe(n);
    for (const id of [
      "msg_042",
      "msg_0",
      "msg_1e3",
      "msg_",
      "msg_-1",
      "msg_1.5",
      "message_1",
      "msg_99999999999999999999",
      "msg_9007199254740993",
      "msg_1 ",
      "msg_+1",
      "msg_1:",
    ]) {
      expect(messageNumberOf(id), id).toBeUndefined();
    }
  });
});
