// The Turn's buffering rule (README "Sessions and turns"): updates are kept for iteration from the
// start until the turn is awaited before any iterator was created; after that an iterator sees the
// updates that arrive once it exists.
import { describe, expect, it } from "vitest";
import { Turn } from "../src/turn.js";
import type { ModelUpdate } from "../src/types.js";

function chunk(n: number): ModelUpdate {
  return { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: `t${n}` } } as ModelUpdate;
}

async function drain(iterable: AsyncIterable<ModelUpdate>): Promise<string[]> {
  const texts: string[] = [];
  for await (const update of iterable) texts.push((update as { content: { text: string } }).content.text);
  return texts;
}

function newTurn(): Turn {
  return new Turn([{ type: "text", text: "go" }], async () => {});
}

describe("Turn buffering", () => {
  it("gives an iterator every update, also those that arrived before it was created", async () => {
    const turn = newTurn();
    turn.push(chunk(1));
    turn.push(chunk(2));
    const first = drain(turn);
    turn.push(chunk(3));
    const second = drain(turn); // a second iterator still starts from the beginning
    turn.push(chunk(4));
    turn.resolve({ stopReason: "end_turn" });
    expect(await first).toEqual(["t1", "t2", "t3", "t4"]);
    expect(await second).toEqual(["t1", "t2", "t3", "t4"]);
    await expect(turn).resolves.toEqual({ stopReason: "end_turn" });
  });

  it("keeps updates while the turn is awaited after an iterator was created", async () => {
    const turn = newTurn();
    const iterated = drain(turn);
    const outcome = turn.then((result) => result.stopReason);
    turn.push(chunk(1));
    turn.push(chunk(2));
    turn.resolve({ stopReason: "end_turn" });
    expect(await outcome).toBe("end_turn");
    expect(await iterated).toEqual(["t1", "t2"]);
    expect(await drain(turn)).toEqual(["t1", "t2"]);
  });

  it("stops keeping updates once awaited before any iteration; a later iterator sees only what follows", async () => {
    const turn = newTurn();
    turn.push(chunk(1));
    const outcome = turn.then((result) => result.stopReason);
    turn.push(chunk(2));
    const late = drain(turn);
    turn.push(chunk(3));
    turn.resolve({ stopReason: "end_turn" });
    expect(await outcome).toBe("end_turn");
    expect(await late).toEqual(["t3"]);
  });

  it("ends a late iterator on a finished turn at once, and rethrows a failure", async () => {
    const done = newTurn();
    void done.then(() => undefined);
    done.push(chunk(1));
    done.resolve({ stopReason: "end_turn" });
    expect(await drain(done)).toEqual([]);

    const failed = newTurn();
    void failed.then(undefined, () => undefined);
    failed.reject(new Error("connection closed"));
    await expect(drain(failed)).rejects.toThrow("connection closed");
  });
});
