// The terminal output buffer on its own: what a read returns (the newest `limit` bytes, from a
// whole character), and that a flood of chunks past the limit is not re-encoded chunk by chunk.
import { afterEach, describe, expect, it, vi } from "vitest";
import { OutputBuffer } from "../src/node/output-buffer.js";

/** What a read must return: the newest `limit` bytes of everything appended, from a whole character. */
function expected(all: string, limit: number): string {
  const encoded = Buffer.from(all, "utf8");
  let start = Math.max(0, encoded.length - limit);
  while (start < encoded.length && (encoded[start]! & 0xc0) === 0x80) start++;
  return encoded.subarray(start).toString("utf8");
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("OutputBuffer", () => {
  it("returns the newest bytes within the limit, from a whole character, whenever it is read", () => {
    const limit = 100;
    const buffer = new OutputBuffer(limit);
    let all = "";
    const pieces = ["plain ", "é".repeat(7), "日本語", "🙂 ", "x".repeat(37)];
    for (let i = 0; i < 200; i++) {
      const piece = pieces[i % pieces.length]!;
      buffer.append(piece);
      all += piece;
      if (i % 7 === 0 || i > 190) {
        expect(buffer.output, `after ${i + 1} appends`).toBe(expected(all, limit));
        expect(Buffer.byteLength(buffer.output)).toBeLessThanOrEqual(limit);
        expect(buffer.truncated).toBe(Buffer.byteLength(all) > limit);
      }
    }
  });

  it("is not truncated until the limit is passed", () => {
    const buffer = new OutputBuffer(10);
    buffer.append("0123456789");
    expect(buffer.truncated).toBe(false);
    expect(buffer.output).toBe("0123456789");
    buffer.append("a");
    expect(buffer.truncated).toBe(true);
    expect(buffer.output).toBe("123456789a");
  });

  // Before, every chunk past the limit re-encoded the whole kept text: 1,000 encodings here.
  it("encodes its text about once per limit's worth of output, not once per chunk", () => {
    const buffer = new OutputBuffer(16 * 1024);
    const encode = vi.spyOn(Buffer, "from");
    const chunk = "y\n".repeat(512);
    for (let i = 0; i < 1000; i++) buffer.append(chunk);
    const calls = encode.mock.calls.length;
    encode.mockRestore();
    // 1,000 chunks of 1 KiB through a 16 KiB buffer: a cut every 16 chunks.
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(70);
    expect(buffer.output).toBe(expected(chunk.repeat(1000), 16 * 1024));
  });
});
