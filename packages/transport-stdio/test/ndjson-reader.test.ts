import { describe, expect, it } from "vitest";
import { NdjsonReader } from "../src/ndjson-reader.js";

function collect(limit = 1024) {
  const lines: string[] = [];
  const oversized: { lineNumber: number; bytesSeen: number; limit: number }[] = [];
  const invalidUtf8: number[] = [];
  const reader = new NdjsonReader(limit, {
    onLine: (text) => lines.push(text),
    onOversizedLine: (lineNumber, bytesSeen, max) => oversized.push({ lineNumber, bytesSeen, limit: max }),
    onInvalidUtf8: (lineNumber) => invalidUtf8.push(lineNumber),
  });
  return { reader, lines, oversized, invalidUtf8 };
}

describe("NdjsonReader", () => {
  const text = '{"t":"naïve € 😀 世界"}\n{"t":"second"}\n';
  const bytes = Buffer.from(text, "utf8");

  it("decodes a multi-byte character split across chunks, at every possible cut", () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const { reader, lines } = collect();
      reader.push(bytes.subarray(0, cut));
      reader.push(bytes.subarray(cut));
      expect(lines, `cut at byte ${cut}`).toEqual(['{"t":"naïve € 😀 世界"}', '{"t":"second"}']);
    }
  });

  it("reports bytes that are not UTF-8 with their line, and still delivers the line with U+FFFD (S2)", () => {
    const { reader, lines, invalidUtf8 } = collect();
    reader.push(Buffer.concat([Buffer.from('{"ok":1}\n{"bad":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]));
    expect(lines).toEqual(['{"ok":1}', '{"bad":"\uFFFD\uFFFD"}']);
    expect(invalidUtf8).toEqual([1]);
    // In a line that spans chunks the exact line is known.
    reader.push(Buffer.from('{"a":"'));
    reader.push(Buffer.concat([Buffer.from([0xc3]), Buffer.from('"}\n')]));
    expect(lines.at(-1)).toBe('{"a":"\uFFFD"}');
    expect(invalidUtf8).toEqual([1, 3]);
  });

  it("never reports valid multi-byte text as invalid, wherever the chunks are cut", () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const { reader, invalidUtf8 } = collect();
      reader.push(bytes.subarray(0, cut));
      reader.push(bytes.subarray(cut));
      expect(invalidUtf8, `cut at byte ${cut}`).toEqual([]);
    }
  });

  it("handles one byte per chunk", () => {
    const { reader, lines } = collect();
    for (const byte of bytes) reader.push(Buffer.from([byte]));
    expect(lines).toEqual(['{"t":"naïve € 😀 世界"}', '{"t":"second"}']);
  });

  it("strips one trailing \\r (also when it ends a chunk) and skips empty lines", () => {
    const { reader, lines } = collect();
    reader.push(Buffer.from('\n\r\n{"a":1}\r'));
    reader.push(Buffer.from('\n{"b":2}\r\r\n\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}\r']);
  });

  it("delivers a final line without newline at end of stream, and says it was unterminated", () => {
    const unterminated: [number, number][] = [];
    const lines: string[] = [];
    const reader = new NdjsonReader(1024, {
      onLine: (text) => lines.push(text),
      onOversizedLine() {},
      onUnterminatedLine: (lineNumber, bytes) => unterminated.push([lineNumber, bytes]),
    });
    reader.push(Buffer.from('{"a":1}\n{"b"'));
    reader.push(Buffer.from(":2}"));
    expect(lines).toEqual(['{"a":1}']);
    reader.end();
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(unterminated).toEqual([[2, 7]]);
  });

  it("keepEmptyLines delivers empty lines (a lone \\r too) where they are, in every path", () => {
    const input = Buffer.from('{"a":1}\n\n\r\n{"b":2}\n\n');
    // Whole chunk (the fast path), byte by byte (pending lines) and a run after a pending line.
    for (const cuts of [[], [...Array(input.length).keys()].slice(1), [3]]) {
      const lines: string[] = [];
      const reader = new NdjsonReader(1024, { onLine: (text) => lines.push(text), onOversizedLine() {} }, { keepEmptyLines: true });
      let from = 0;
      for (const cut of [...cuts, input.length]) {
        reader.push(input.subarray(from, cut));
        from = cut;
      }
      reader.end();
      expect(lines, `cut at ${cuts.length} places`).toEqual(['{"a":1}', "", "", '{"b":2}', ""]);
    }
  });

  it("deliverUnterminatedLine: false reports the unframed tail with its first 200 bytes and delivers nothing of it", () => {
    const lines: string[] = [];
    const unterminated: [number, number, string][] = [];
    const reader = new NdjsonReader(
      1 << 20,
      { onLine: (text) => lines.push(text), onOversizedLine() {}, onUnterminatedLine: (...args) => unterminated.push(args) },
      { deliverUnterminatedLine: false },
    );
    reader.push(Buffer.from('{"a":1}\n{"b":"'));
    reader.push(Buffer.from("é".repeat(150)));
    reader.end();
    expect(lines).toEqual(['{"a":1}']);
    expect(unterminated).toEqual([[2, 6 + 300, `{"b":"${"é".repeat(97)}`]]);
  });

  it("reports no unterminated line when the stream ends after a newline, or inside a discarded oversized line", () => {
    const unterminated: number[] = [];
    const events = { onLine() {}, onOversizedLine() {}, onUnterminatedLine: (lineNumber: number) => unterminated.push(lineNumber) };
    const framed = new NdjsonReader(1024, events);
    framed.push(Buffer.from('{"a":1}\n'));
    framed.end();
    const oversized = new NdjsonReader(10, events);
    oversized.push(Buffer.from("x".repeat(20)));
    oversized.end();
    expect(unterminated).toEqual([]);
  });

  it("discards an oversized line inside one chunk and goes on with the next", () => {
    const { reader, lines, oversized } = collect(10);
    reader.push(Buffer.from('{"a":1}\n' + "x".repeat(11) + '\n{"b":2}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(oversized).toEqual([{ lineNumber: 2, bytesSeen: 11, limit: 10 }]);
  });

  it("reports an oversized line spanning chunks as soon as it passes the limit, then skips to its newline", () => {
    const { reader, lines, oversized } = collect(10);
    reader.push(Buffer.from("123456"));
    expect(oversized).toEqual([]);
    reader.push(Buffer.from("7890ab"));
    expect(oversized).toEqual([{ lineNumber: 1, bytesSeen: 12, limit: 10 }]);
    reader.push(Buffer.from("more bytes of the same line"));
    reader.push(Buffer.from('still\n{"ok":1}\n'));
    expect(lines).toEqual(['{"ok":1}']);
    expect(oversized).toHaveLength(1);
  });

  it("accepts a line of exactly the limit", () => {
    const { reader, lines, oversized } = collect(10);
    reader.push(Buffer.from("12345"));
    reader.push(Buffer.from("67890\n"));
    expect(lines).toEqual(["1234567890"]);
    expect(oversized).toEqual([]);
  });

  it("gives the same lines for every split into three chunks (runs of lines decoded at once)", () => {
    const source = '{"a":"é"}\n\n{"b":"😀"}\r\n{"c":3}\n{"d":"世"}\n{"e"';
    const input = Buffer.from(source, "utf8");
    const expected = ['{"a":"é"}', '{"b":"😀"}', '{"c":3}', '{"d":"世"}', '{"e"'];
    for (let first = 0; first <= input.length; first++) {
      for (let second = first; second <= input.length; second++) {
        const { reader, lines } = collect();
        reader.push(input.subarray(0, first));
        reader.push(input.subarray(first, second));
        reader.push(input.subarray(second));
        reader.end();
        expect(lines, `cuts at ${first} and ${second}`).toEqual(expected);
      }
    }
  });

  it("numbers lines across decoded runs, pending lines and empty lines", () => {
    const { reader, lines, oversized } = collect(10);
    reader.push(Buffer.from('{"a":1}\n\n{"b"'));
    reader.push(Buffer.from(':2}\n{"c":3}\n' + "x".repeat(11) + "\n"));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(oversized).toEqual([{ lineNumber: 5, bytesSeen: 11, limit: 10 }]);

    const run = collect(10);
    run.reader.push(Buffer.from('{"a":1}\n\n')); // short enough to be decoded as one run
    run.reader.push(Buffer.from("x".repeat(11) + '\n{"b":2}\n'));
    expect(run.lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(run.oversized).toEqual([{ lineNumber: 3, bytesSeen: 11, limit: 10 }]);
  });

  it("reads chunks of whole lines the same whether the chunk as a whole is within the limit or not", () => {
    const chunk = Buffer.from('{"a":1}\n\n{"bbb":2}\n', "utf8");
    for (const limit of [chunk.length - 1, chunk.length - 2, 9]) {
      const { reader, lines, oversized } = collect(limit);
      reader.push(chunk);
      reader.push(Buffer.from('{"c":3}\n'));
      expect(lines, `limit ${limit}`).toEqual(['{"a":1}', '{"bbb":2}', '{"c":3}']);
      expect(oversized).toEqual([]);
    }
    const { reader, lines, oversized } = collect(8);
    reader.push(chunk); // the third line is 9 bytes: over the limit
    expect(lines).toEqual(['{"a":1}']);
    expect(oversized).toEqual([{ lineNumber: 3, bytesSeen: 9, limit: 8 }]);
  });

  it("does not hold on to bytes of a discarded line", () => {
    const { reader, lines } = collect(4);
    reader.push(Buffer.from("abcdefgh"));
    reader.end();
    expect(lines).toEqual([]);
  });
});
