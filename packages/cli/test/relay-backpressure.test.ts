// The relay behind `acpkit bridge` honours backpressure: while too many messages wait to be written
// to one side, it stops reading the other side (pause), and reads again once they drained.
import type { JsonRpcMessage, Transport, TransportReceiver } from "@acpkit/core";
import { describe, expect, it } from "vitest";
import { forwardMessages as forward, RELAY_HIGH_WATER, RELAY_HIGH_WATER_CHARS, RELAY_LOW_WATER, RELAY_LOW_WATER_CHARS } from "@acpkit/transport-stdio";

/** The side the relay reads from: records pause/resume. */
function source() {
  const events: string[] = [];
  let receiver: TransportReceiver | undefined;
  const transport = {
    start: (r: TransportReceiver) => void (receiver = r),
    pause: () => events.push("pause"),
    resume: () => events.push("resume"),
  } as unknown as Transport;
  return { transport, events, deliver: (message: unknown) => receiver!.onMessage(JSON.stringify(message)) };
}

/** The side the relay writes to: a congested socket whose sends settle only when told to. */
function congestedSink() {
  const sent: JsonRpcMessage[] = [];
  const waiting: (() => void)[] = [];
  const transport = {
    send(message: JsonRpcMessage) {
      sent.push(message);
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
  } as unknown as Transport;
  return {
    transport,
    sent,
    drain: (count: number) => {
      for (const resolve of waiting.splice(0, count)) resolve();
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("relay backpressure", () => {
  it("pauses the source at the high-water mark and resumes it below the low-water mark, losing nothing", async () => {
    const from = source();
    const to = congestedSink();
    forward(from.transport, to.transport, "agent", () => {});
    for (let i = 0; i < RELAY_HIGH_WATER - 1; i++) from.deliver({ jsonrpc: "2.0", method: "session/update", params: { i } });
    expect(from.events).toEqual([]);
    from.deliver({ jsonrpc: "2.0", method: "session/update", params: { i: RELAY_HIGH_WATER - 1 } });
    expect(from.events).toEqual(["pause"]);
    // What was already read when the pause came is still passed on, in order.
    from.deliver({ jsonrpc: "2.0", method: "session/update", params: { i: RELAY_HIGH_WATER } });
    expect(to.sent).toHaveLength(RELAY_HIGH_WATER + 1);
    expect(to.sent.map((message: any) => message.params.i)).toEqual([...Array(RELAY_HIGH_WATER + 1).keys()]);

    to.drain(RELAY_HIGH_WATER + 1 - RELAY_LOW_WATER - 1);
    await settle();
    expect(from.events).toEqual(["pause"]);
    to.drain(1);
    await settle();
    expect(from.events).toEqual(["pause", "resume"]);
  });

  // Counting messages alone let a few large ones through: 1,023 messages of 60 MiB each stayed
  // under the count while the relay held 60 GiB for an agent that did not read its stdin.
  it("also pauses once the pending messages' text passes RELAY_HIGH_WATER_CHARS, and resumes below RELAY_LOW_WATER_CHARS", async () => {
    const from = source();
    const to = congestedSink();
    forward(from.transport, to.transport, "client", () => {});
    // 5 Mi characters each: three stay under the 16 Mi mark, the fourth passes it.
    const text = "x".repeat(5 * 1024 * 1024);
    expect(RELAY_HIGH_WATER_CHARS).toBe(16 * 1024 * 1024);
    expect(RELAY_LOW_WATER_CHARS).toBe(8 * 1024 * 1024);
    for (let i = 0; i < 3; i++) from.deliver({ jsonrpc: "2.0", method: "_big", params: { i, text } });
    expect(from.events).toEqual([]);
    from.deliver({ jsonrpc: "2.0", method: "_big", params: { i: 3, text } });
    expect(from.events).toEqual(["pause"]);
    expect(to.sent).toHaveLength(4);
    // Two of four written: 10 Mi characters still pending, above the 8 Mi low-water mark.
    to.drain(2);
    await settle();
    expect(from.events).toEqual(["pause"]);
    to.drain(1);
    await settle();
    expect(from.events).toEqual(["pause", "resume"]);
    expect(to.sent.map((message: any) => message.params.i)).toEqual([0, 1, 2, 3]);
  });

  it("a source that cannot pause is still relayed (a browser-side transport)", async () => {
    const from = source();
    (from.transport as { pause?: unknown }).pause = undefined;
    const to = congestedSink();
    forward(from.transport, to.transport, "client", () => {});
    for (let i = 0; i < RELAY_HIGH_WATER * 2; i++) from.deliver({ jsonrpc: "2.0", method: "x", params: { i } });
    expect(to.sent).toHaveLength(RELAY_HIGH_WATER * 2);
    expect(from.events).toEqual([]);
  });
});
