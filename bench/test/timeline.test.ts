// The cold-start timeline (timeline.ts, coldstart/timeline-hooks.mjs) must see every step of a real
// cold start in both processes, in the order the steps can happen, for acpkit and the raw pair.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EVENTS, timelineOnce, type TimelineImpl } from "../timeline.js";

const HOOKS = fileURLToPath(new URL("../coldstart/timeline-hooks.mjs", import.meta.url));

/** The index of an event in EVENTS, by its process and mark. */
function indexOf(side: "client" | "agent", mark: string): number {
  const index = EVENTS.findIndex(([eventSide, eventMark]) => eventSide === side && eventMark === mark);
  expect(index, `${side} ${mark} is one of the timeline's events`).toBeGreaterThanOrEqual(0);
  return index;
}

describe.each<TimelineImpl>(["acpkit", "raw"])("cold-start timeline: %s", (impl) => {
  it("marks every step once, each process's steps in order, and the cross-process ones causally", async () => {
    expect(existsSync(HOOKS)).toBe(true);
    const times = await timelineOnce(impl);
    expect(times).toHaveLength(EVENTS.length);
    for (const [index, [side, mark]] of EVENTS.entries()) expect(times[index], `${side} ${mark}`).toBeTypeOf("number");
    const at = (side: "client" | "agent", mark: string): number => times[indexOf(side, mark)]!;
    // Within one process, marks come from one clock: they must be in the listed order.
    for (const side of ["client", "agent"] as const) {
      const own = EVENTS.flatMap(([eventSide], index) => (eventSide === side ? [times[index]!] : []));
      expect(own, `${side} marks in order`).toEqual([...own].sort((a, b) => a - b));
    }
    // Across processes (both clocks are the system's): a message is read after it was written.
    expect(at("agent", "start")).toBeGreaterThan(at("client", "spawn"));
    expect(at("client", "read answer initialize")).toBeGreaterThanOrEqual(at("agent", "wrote answer initialize"));
    expect(at("agent", "wrote answer session/new")).toBeGreaterThanOrEqual(at("client", "sent session/new"));
    expect(at("client", "agent exited")).toBeGreaterThanOrEqual(at("agent", "exit"));
  });
});
