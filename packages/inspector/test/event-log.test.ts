// The tap's record stays bounded for late pages and for slow ones.
import { describe, expect, it } from "vitest";
import { EventLog } from "../src/server/event-log.js";

function collector(backlog = () => 0) {
  const received: Record<string, unknown>[] = [];
  return { received, subscriber: { send: (text: string) => received.push(JSON.parse(text)), backlog } };
}

describe("EventLog", () => {
  it("hands a late page the kept record, with the count of what was let go", () => {
    const log = new EventLog({ maxEvents: 3 });
    for (let i = 0; i < 5; i++) log.message("client_to_agent", 2, `{"n":${i}}`);
    expect(log.size).toBe(3);
    const { received, subscriber } = collector();
    log.follow(subscriber);
    expect(received[0]).toEqual({ type: "gap", missed: 2 });
    expect(received.slice(1).map((event) => event.text)).toEqual(['{"n":2}', '{"n":3}', '{"n":4}']);
    log.status("agent ended");
    expect(received.at(-1)).toMatchObject({ type: "status", message: "agent ended", seq: 6 });
  });

  it("keeps within its byte budget", () => {
    const log = new EventLog({ maxBytes: 2000 });
    for (let i = 0; i < 100; i++) log.message("agent_to_client", 100, "x".repeat(100));
    expect(log.size).toBeGreaterThan(0);
    expect(log.size).toBeLessThan(20);
  });

  it("skips a page that reads too slowly and tells it how much it missed once it caught up", () => {
    const log = new EventLog({ maxBacklog: 10 });
    let backlog = 0;
    const { received, subscriber } = collector(() => backlog);
    log.follow(subscriber);
    log.message("client_to_agent", 1, "1");
    backlog = 100;
    log.message("client_to_agent", 1, "2");
    log.message("client_to_agent", 1, "3");
    backlog = 0;
    log.message("client_to_agent", 1, "4");
    expect(received.map((event) => (event.type === "gap" ? `gap ${event.missed}` : event.text))).toEqual(["1", "gap 2", "4"]);
  });
});
