// pause()/resume(): a paused stdio transport stops reading its input, so the peer's writes back up
// in the pipe (flow control for relays); resume delivers what waited, in order.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { NdjsonStreamTransport } from "../src/index.js";

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
