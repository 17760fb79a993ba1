// The proxy's editor side collects sends until the next macrotask: one hand-over per burst, in
// order, each send settling as the transport's own, and a close handing over what was collected.
import type { JsonRpcMessage, Transport, TransportReceiver } from "@acpkit/core";
import { describe, expect, it } from "vitest";
import { coalescedSends } from "../src/proxy/coalesced-sends.js";

/** A transport that records each send with the macrotask it came in, and rejects the ones it is told to. */
function recordingTransport(refuse: (message: JsonRpcMessage) => boolean = () => false) {
  let tick = 0;
  const timer = setInterval(() => tick++, 0);
  const sent: { tick: number; id: unknown }[] = [];
  const events: string[] = [];
  const inner: Transport = {
    start(_receiver: TransportReceiver) {},
    send(message) {
      const one = message as JsonRpcMessage;
      sent.push({ tick, id: one.id });
      return refuse(one) ? Promise.reject(new Error(`refused ${String(one.id)}`)) : Promise.resolve();
    },
    close() {
      events.push("close");
      return Promise.resolve();
    },
    closed: new Promise(() => {}),
  };
  return { inner, sent, events, stop: () => clearInterval(timer) };
}

const message = (id: number): JsonRpcMessage => ({ jsonrpc: "2.0", id, result: {} });

describe("coalescedSends", () => {
  it("hands a burst of sends from separate microtasks over in one macrotask, in order", async () => {
    const { inner, sent, stop } = recordingTransport();
    const wrapped = coalescedSends(inner);
    const sends: Promise<void>[] = [];
    for (let id = 1; id <= 5; id++) {
      sends.push(wrapped.send(message(id)));
      await Promise.resolve();
    }
    expect(sent).toEqual([]);
    await Promise.all(sends);
    stop();
    expect(sent.map((entry) => entry.id)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(sent.map((entry) => entry.tick)).size).toBe(1);
  });

  it("settles each send as the transport's own send settles", async () => {
    const { inner, stop } = recordingTransport((m) => m.id === 2);
    const wrapped = coalescedSends(inner);
    const results = await Promise.allSettled([wrapped.send(message(1)), wrapped.send(message(2)), wrapped.send(message(3))]);
    stop();
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe("refused 2");
  });

  it("hands over what was collected before it closes", async () => {
    const { inner, sent, events, stop } = recordingTransport();
    const wrapped = coalescedSends(inner);
    const sending = wrapped.send(message(7));
    await wrapped.close("done");
    stop();
    expect(sent.map((entry) => entry.id)).toEqual([7]);
    expect(events).toEqual(["close"]);
    await expect(sending).resolves.toBeUndefined();
  });
});
