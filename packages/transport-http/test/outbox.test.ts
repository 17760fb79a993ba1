// The outbox behind every SSE stream (docs/remote.md RT9, RT11, RT26, RT27), on its own: one reader
// at a time, messages in order, the size it reports, and with retention the window it keeps, the
// replay after an event id and the gap past the window.
import { describe, expect, it } from "vitest";
import { Outbox } from "../src/server/outbox.js";

async function drain(outbox: Outbox, lastEventId?: number) {
  const reader = outbox.acquire(lastEventId)!;
  const batch = await reader.nextBatch(1 << 20);
  reader.release();
  return { gap: reader.gap, firstId: batch?.firstId, texts: batch?.texts ?? [] };
}

describe("Outbox", () => {
  it("has one reader at a time, hands messages out in order, and reports its size as they come and go", async () => {
    let size = 0;
    const outbox = new Outbox((delta) => (size += delta));
    outbox.push("a");
    outbox.push("bb");
    expect(size).toBe(3);
    const reader = outbox.acquire()!;
    expect(outbox.acquire()).toBeUndefined();
    expect(await reader.nextBatch(1)).toEqual({ firstId: 1, texts: ["a"] });
    expect(await reader.nextBatch(100)).toEqual({ firstId: 2, texts: ["bb"] });
    expect(size).toBe(0);
    const waiting = reader.nextBatch(100);
    outbox.push("c");
    expect(await waiting).toEqual({ firstId: 3, texts: ["c"] });
    reader.release();
    expect(outbox.acquire()).toBeDefined();
  });

  it("ends after what it holds was read, with the reason; discard drops the rest and its size", async () => {
    let size = 0;
    const outbox = new Outbox((delta) => (size += delta));
    outbox.push("last");
    outbox.end("the server is shutting down");
    expect(outbox.acquire()).toBeUndefined(); // an ended outbox takes no new reader
    const other = new Outbox((delta) => (size += delta));
    other.push("x");
    const attached = other.acquire()!;
    other.push("y");
    other.end("bye");
    expect(await attached.nextBatch(100)).toEqual({ firstId: 1, texts: ["x", "y"] });
    expect(await attached.nextBatch(100)).toBeUndefined();
    expect(attached.endReason).toBe("bye");
    outbox.discard();
    expect(size).toBe(0);
  });

  it("without retention, ids are ignored: nothing is kept to give again", async () => {
    const outbox = new Outbox(() => {});
    outbox.push("a");
    expect((await drain(outbox)).texts).toEqual(["a"]);
    outbox.push("b");
    expect(await drain(outbox, 0)).toMatchObject({ gap: undefined, texts: ["b"] });
  });

  it("with retention, keeps the last maxEvents handed out and gives back everything after an id, in order", async () => {
    const outbox = new Outbox(() => {}, { maxEvents: 3, maxChars: 1000 });
    for (const text of ["1", "2", "3", "4", "5"]) outbox.push(text);
    expect((await drain(outbox)).texts).toEqual(["1", "2", "3", "4", "5"]);
    expect(await drain(outbox, 3)).toEqual({ gap: undefined, firstId: 4, texts: ["4", "5"] });
    // 1 and 2 fell out of the window of 3: a gap, then 3–5.
    expect(await drain(outbox, 0)).toEqual({ gap: { from: 1, to: 2 }, firstId: 3, texts: ["3", "4", "5"] });
    // The last id, an id never handed out, and a negative one give nothing again.
    for (const id of [5, 99, -1]) {
      outbox.push(`n${id}`);
      expect(await drain(outbox, id)).toMatchObject({ gap: undefined, texts: [`n${id}`] });
    }
  });

  it("keeps at most maxChars characters, but always the newest event", async () => {
    const outbox = new Outbox(() => {}, { maxEvents: 100, maxChars: 5 });
    for (const text of ["aaa", "bbb", "cccccccc"]) outbox.push(text);
    await drain(outbox);
    expect(await drain(outbox, 0)).toEqual({ gap: { from: 1, to: 2 }, firstId: 3, texts: ["cccccccc"] });
  });
});
