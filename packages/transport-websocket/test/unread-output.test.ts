// A peer that sends requests and never reads the answers, over a real WebSocket on 127.0.0.1: the
// server transport stops reading frames once its unread output passes OUTPUT_HIGH_WATER, so its
// memory stays bounded, and every request is answered, in order, once the peer reads again.
import { OUTPUT_HIGH_WATER } from "@acpkit/core/transport-kit";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { listen, type WebSocketListener } from "../src/index.js";

let listener: WebSocketListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

describe("a WebSocket peer that never reads", () => {
  it("is no longer read once the answers it owes pass the high-water mark, and loses none", async () => {
    let frames = 0;
    const congestion: boolean[] = [];
    listener = await listen({
      onConnection(transport) {
        // Answers every request at once, without waiting: as a Connection does.
        transport.start({
          onMessage(text) {
            frames++;
            const { id, params } = JSON.parse(String(text));
            transport.send({ jsonrpc: "2.0", id, result: params }).catch(() => {});
          },
          onTransportError() {},
          // A Connection holds further answers back while this says true.
          onOutputCongestion: (congested) => congestion.push(congested),
        });
      },
    });
    const ws = new WebSocket(listener.url, { perMessageDeflate: false });
    await new Promise((resolve) => ws.once("open", resolve));
    const socket = (ws as unknown as { _socket: import("node:net").Socket })._socket;
    expect(socket).toBeDefined();
    socket.pause(); // the hostile part: nothing the server sends is read
    const padding = "p".repeat(1000);
    let sent = 0;
    let stalled = false;
    // Without the limit the server reads (and queues answers) forever; 40 MB is ten times what
    // the limit lets through.
    while (sent * padding.length < 40_000_000) {
      for (let i = 0; i < 100; i++) ws.send(JSON.stringify({ jsonrpc: "2.0", id: ++sent, method: "echo", params: { padding } }));
      await delay(5);
      if (ws.bufferedAmount > 2_000_000) {
        const readBefore = frames;
        await delay(500);
        if (frames === readBefore) {
          stalled = true;
          break;
        }
      }
    }
    expect(stalled).toBe(true);
    expect(congestion).toEqual([true]);
    expect(frames * padding.length).toBeLessThan(OUTPUT_HIGH_WATER * 3);
    // Now read: every request is answered exactly once, in order.
    const ids: number[] = [];
    const all = new Promise<void>((resolve) => {
      ws.on("message", (data) => {
        ids.push(JSON.parse(String(data)).id);
        if (ids.length === sent) resolve();
      });
    });
    socket.resume();
    await all;
    expect(ids).toEqual(Array.from({ length: sent }, (_, i) => i + 1));
    expect(congestion.at(-1)).toBe(false);
    ws.close();
  });
});
