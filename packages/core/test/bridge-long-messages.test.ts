// The agent-side v1 bridge on long streamed messages: it keeps the chunks it sent compactly
// (plain texts joined in runs), and an upsert after hundreds of chunks is still compared with
// every one of them exactly (B3), whichever side of a run boundary it differs on.
import type { v1, v2 } from "@acpkit/schema";
import { describe, expect, it } from "vitest";
import { AgentSideV1Bridge, type LossyEvent } from "../src/bridge/index.js";

const text = (t: string) => ({ type: "text", text: t }) as v2.ContentBlock;
const annotated = (t: string) => ({ type: "text", text: t, annotations: { priority: 1 } }) as v2.ContentBlock;
const M = (u: Record<string, unknown>) => u as unknown as v2.SessionUpdate;

function streamed(count: number, blockAt: (i: number) => v2.ContentBlock) {
  const events: LossyEvent[] = [];
  const bridge = new AgentSideV1Bridge({ sessionId: "s1", onLossy: (e) => events.push(e) });
  const blocks: v2.ContentBlock[] = [];
  for (let i = 0; i < count; i++) {
    const block = blockAt(i);
    blocks.push(block);
    const sent: v1.SessionUpdate[] = [];
    bridge.forEachToV1(M({ sessionUpdate: "agent_message_chunk", messageId: "m", content: block }), undefined, (u) => sent.push(u));
    expect(sent).toHaveLength(1);
  }
  const upsert = (content: v2.ContentBlock[]) => bridge.toV1(M({ sessionUpdate: "agent_message", messageId: "m", content }));
  return { blocks, upsert, codes: () => events.map((e) => e.code) };
}

describe("agent side: long streamed messages (B3)", () => {
  // 600 chunks: two full runs of 256 plain texts and a tail; every 100th block is annotated, so
  // runs are also cut short by blocks that are kept as they are.
  const blockAt = (i: number) => (i % 100 === 99 ? annotated(`<${i}>`) : text(`t${i} é😀`));

  it("sends only what an upsert adds after hundreds of chunks", () => {
    const { blocks, upsert, codes } = streamed(600, blockAt);
    expect(upsert([...blocks, text("new")])).toEqual([{ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("new") }]);
    expect(upsert([...blocks, text("new"), text("more")])).toEqual([{ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("more") }]);
    expect(codes()).toEqual([]);
  });

  it("extends the last text block by its remainder", () => {
    const { blocks, upsert } = streamed(300, (i) => text(`t${i}`));
    const last = blocks.length - 1;
    const extended = [...blocks.slice(0, last), text(`t${last} and more`)];
    expect(upsert(extended)).toEqual([{ sessionUpdate: "agent_message_chunk", messageId: "m", content: text(" and more") }]);
  });

  it.each([0, 255, 256, 299, 511, 512, 598])("refuses an upsert that changes block %i", (changed) => {
    const { blocks, upsert, codes } = streamed(600, blockAt);
    const altered = blocks.slice();
    altered[changed] = text(`changed ${changed}`);
    expect(upsert([...altered, text("new")])).toEqual([]);
    expect(codes()).toEqual(["message_replace"]);
  });

  it("does not take an annotated block for the plain one with the same text", () => {
    const { blocks, upsert, codes } = streamed(300, (i) => text(`t${i}`));
    const altered = blocks.slice();
    altered[10] = annotated("t10");
    expect(upsert([...altered, text("new")])).toEqual([]);
    expect(codes()).toEqual(["message_replace"]);
  });
});
