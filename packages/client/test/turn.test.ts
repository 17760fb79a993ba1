// The Turn's buffering rule (README "Sessions and turns"): updates are kept for iteration from the
// start until the turn is awaited before any iterator was created; after that an iterator sees the
// updates that arrive once it exists.
import { describe, expect, it } from "vitest";
import { isAcpError, type AcpError } from "@acpkit/core";
import { MAX_KEPT_TURN_UPDATES, Turn } from "../src/turn.js";
import type { SessionUpdate } from "../src/types.js";

function chunk(n: number): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: `t${n}` } } as SessionUpdate;
}

async function drain(iterable: AsyncIterable<SessionUpdate>): Promise<string[]> {
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

/** How many updates the turn holds right now (what the cap bounds). */
function keptCount(turn: Turn): number {
  const inside = turn as unknown as { kept: unknown[] | undefined; head: number };
  return inside.kept === undefined ? 0 : inside.kept.length - inside.head;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("Turn: what it keeps is bounded (MAX_KEPT_TURN_UPDATES)", () => {
  it("an iterator that keeps up sees every update of a turn longer than the cap, and the turn holds at most the cap", async () => {
    expect(MAX_KEPT_TURN_UPDATES).toBeGreaterThan(1000);
    const turn = newTurn();
    const iterator = turn[Symbol.asyncIterator]();
    const total = MAX_KEPT_TURN_UPDATES * 2 + 17;
    let read = 0;
    let largest = 0;
    for (let n = 0; n < total; n++) {
      turn.push(chunk(n));
      largest = Math.max(largest, keptCount(turn));
      const next = await iterator.next();
      // Plain checks: this loop runs 131,089 times.
      if (next.done || (next.value as { content: { text: string } }).content.text !== `t${n}`) throw new Error(`update ${n} missing or out of order`);
      read++;
    }
    turn.resolve({ stopReason: "end_turn" });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(read).toBe(total);
    expect(largest).toBe(MAX_KEPT_TURN_UPDATES);
    expect(keptCount(turn)).toBeLessThanOrEqual(MAX_KEPT_TURN_UPDATES);
    // The turn's start is gone, so an iterator made now cannot replay it: it says so.
    const late = await caught(drain(turn));
    expect(isAcpError(late, "UpdatesDropped")).toBe(true);
    expect((late as AcpError).message).toMatch(/first \d+ updates for this iterator are no longer kept/);
  });

  it("an iterator may fall exactly the cap behind; one update more and it throws UpdatesDropped naming what it missed", async () => {
    const exact = newTurn();
    const patient = exact[Symbol.asyncIterator]();
    for (let n = 0; n < MAX_KEPT_TURN_UPDATES; n++) exact.push(chunk(n));
    exact.resolve({ stopReason: "end_turn" });
    let count = 0;
    for (let next = await patient.next(); !next.done; next = await patient.next()) count++;
    expect(count).toBe(MAX_KEPT_TURN_UPDATES);

    const turn = newTurn();
    const slow = turn[Symbol.asyncIterator]();
    turn.push(chunk(0));
    expect((await slow.next()).done).toBe(false); // read update 0, then stalls
    for (let n = 1; n <= MAX_KEPT_TURN_UPDATES + 5; n++) turn.push(chunk(n));
    expect(keptCount(turn)).toBe(MAX_KEPT_TURN_UPDATES);
    const error = await caught(slow.next());
    expect(isAcpError(error, "UpdatesDropped")).toBe(true);
    expect((error as AcpError).message).toContain(`fell more than ${MAX_KEPT_TURN_UPDATES} updates behind`);
    expect((error as AcpError).message).toContain("session.state");
    expect((error as AcpError).data).toEqual({ dropped: 5, from: 1, to: 6 });
    // The iterator is finished after saying so; the turn itself still resolves.
    expect(await slow.next()).toEqual({ value: undefined, done: true });
    turn.resolve({ stopReason: "end_turn" });
    await expect(turn).resolves.toEqual({ stopReason: "end_turn" });
  });

  it("a turn nobody iterates or awaits holds at most the cap; an iterator made afterwards throws instead of skipping", async () => {
    const turn = newTurn();
    for (let n = 0; n < MAX_KEPT_TURN_UPDATES * 3; n++) {
      turn.push(chunk(n));
      if (keptCount(turn) > MAX_KEPT_TURN_UPDATES) throw new Error(`kept ${keptCount(turn)} updates after ${n + 1}`);
    }
    turn.resolve({ stopReason: "end_turn" });
    const error = await caught(drain(turn));
    expect(isAcpError(error, "UpdatesDropped")).toBe(true);
    expect((error as AcpError).message).toContain(`a turn keeps at most ${MAX_KEPT_TURN_UPDATES}`);
    // It would start at update 0; the oldest still kept is later than that.
    const { dropped, from, to } = (error as AcpError).data as { dropped: number; from: number; to: number };
    expect({ from, dropped }).toEqual({ from: 0, dropped: to });
    expect(to).toBeGreaterThan(MAX_KEPT_TURN_UPDATES);
  });

  it("a second iterator after an early await starts where the first did", async () => {
    const turn = newTurn();
    turn.push(chunk(1));
    const outcome = turn.then((result) => result.stopReason);
    turn.push(chunk(2));
    const first = drain(turn);
    turn.push(chunk(3));
    const second = drain(turn);
    turn.push(chunk(4));
    turn.resolve({ stopReason: "end_turn" });
    expect(await outcome).toBe("end_turn");
    expect(await first).toEqual(["t3", "t4"]);
    expect(await second).toEqual(["t3", "t4"]);
  });

  it("break (the iterator's return) stops an iterator without ending the others", async () => {
    const turn = newTurn();
    turn.push(chunk(1));
    turn.push(chunk(2));
    const early: string[] = [];
    for await (const update of turn) {
      early.push((update as { content: { text: string } }).content.text);
      break;
    }
    const rest = drain(turn);
    turn.push(chunk(3));
    turn.resolve({ stopReason: "end_turn" });
    expect(early).toEqual(["t1"]);
    expect(await rest).toEqual(["t1", "t2", "t3"]);
  });
});
