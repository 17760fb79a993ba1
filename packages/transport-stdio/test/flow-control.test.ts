// pause()/resume(): a paused stdio transport stops reading its input, so the peer's writes back up
// in the pipe (flow control for relays); resume delivers what waited, in order. And the same
// without a caller: a transport whose unread output passed its high-water mark stops reading.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";
import { OUTPUT_HIGH_WATER } from "@acpkit/core/transport-kit";
import { ensureBuilt, fixturesDir } from "@acpkit/test-support/build-once";
import { beforeAll, describe, expect, it } from "vitest";
import { NdjsonStreamTransport } from "../src/index.js";

const STDIO_PEER = join(fixturesDir, "stdio-peer.mjs");

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("stdio flow control", () => {
  it("holds input while paused and delivers it in order after resume", async () => {
    const input = new PassThrough();
    const transport = new NdjsonStreamTransport(input, new PassThrough());
    const got: string[] = [];
    transport.start({ onMessage: (text) => got.push(String(text)), onTransportError() {} });
    input.write('{"n":1}\n');
    await tick();
    transport.pause();
    input.write('{"n":2}\n{"n":3}\n');
    await tick();
    expect(got).toEqual(['{"n":1}']);
    expect(input.readableLength).toBeGreaterThan(0);
    transport.resume();
    await tick();
    expect(got).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });
});

// Before: one message over the high-water mark stopped input at once, until the stream drained. A
// peer that writes and reads in turn (blocked writing to us, so not reading) would never drain it.
describe("one large message sent", () => {
  it("keeps input flowing while the stream takes it, and tells the receiver its output is congested", async () => {
    const input = new PassThrough();
    const output = new Writable({ write: () => {} }); // takes nothing: never drains
    const transport = new NdjsonStreamTransport(input, output);
    const got: string[] = [];
    const congestion: boolean[] = [];
    transport.start({ onMessage: (text) => got.push(String(text)), onTransportError() {}, onOutputCongestion: (value) => congestion.push(value) });
    void transport.send({ jsonrpc: "2.0", method: "big", params: { pad: "x".repeat(OUTPUT_HIGH_WATER + 1) } }).catch(() => {});
    expect(congestion).toEqual([true]);
    await tick();
    input.write('{"n":1}\n');
    await tick();
    expect(got).toEqual(['{"n":1}']);
    // What waits behind the full stream past the mark does stop input.
    void transport.send({ jsonrpc: "2.0", method: "more", params: { pad: "y".repeat(OUTPUT_HIGH_WATER + 1) } }).catch(() => {});
    await tick();
    input.write('{"n":2}\n');
    await tick();
    expect(got).toEqual(['{"n":1}']);
    await transport.close();
  });
});

describe("a peer that sends requests and never reads the answers", () => {
  beforeAll(() => {
    ensureBuilt("transport-stdio");
  });

  it("stops being read once the unread answers pass the high-water mark, and loses none of them", async () => {
    expect(existsSync(STDIO_PEER)).toBe(true);
    const child = spawn(process.execPath, [STDIO_PEER], { stdio: ["pipe", "pipe", "inherit"] });
    child.stdout.pause(); // the hostile part: nothing the peer answers is read
    const padding = "p".repeat(1000);
    let written = 0;
    let blocked = false;
    // Without the limit the peer reads (and queues answers) forever; 40 MB is ten times what the
    // limit lets through.
    while (written * padding.length < 40_000_000) {
      let chunk = "";
      for (let i = 0; i < 100; i++) chunk += `${JSON.stringify({ jsonrpc: "2.0", id: ++written, method: "echo", params: { padding } })}\n`;
      if (child.stdin.write(chunk)) continue;
      const drained = await Promise.race([once(child.stdin, "drain").then(() => true), delay(1000).then(() => false)]);
      if (!drained) {
        blocked = true;
        break;
      }
    }
    expect(blocked).toBe(true);
    // Requests written ≈ answers queued (4 Mi characters, ~1 KB each) plus what the pipes hold.
    expect(written * padding.length).toBeLessThan(OUTPUT_HIGH_WATER * 3);
    // Now read: every request written is answered exactly once, in order.
    const ids: number[] = [];
    let buffered = "";
    const all = new Promise<void>((resolve) => {
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        buffered += text;
        let newline: number;
        while ((newline = buffered.indexOf("\n")) >= 0) {
          ids.push(JSON.parse(buffered.slice(0, newline)).id);
          buffered = buffered.slice(newline + 1);
        }
        if (ids.length === written) resolve();
      });
    });
    child.stdout.resume();
    await all;
    expect(ids).toEqual(Array.from({ length: written }, (_, i) => i + 1));
    child.stdin.end();
    expect((await once(child, "exit"))[0]).toBe(0);
  });
});
