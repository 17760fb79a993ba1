// The tap's line cutter: whole lines across chunk boundaries, multi-byte characters split between
// chunks, CRLF, and a bounded memory for a line that never ends.
import { describe, expect, it } from "vitest";
import { LineObserver } from "../src/server/line-observer.js";

function observe(chunks: Buffer[], maxLine?: number): { text: string | undefined; bytes: number }[] {
  const lines: { text: string | undefined; bytes: number }[] = [];
  const observer = new LineObserver((text, bytes) => lines.push({ text, bytes }), maxLine);
  for (const chunk of chunks) observer.push(chunk);
  observer.end();
  return lines;
}

describe("LineObserver", () => {
  it("cuts lines across chunks and keeps a split multi-byte character whole", () => {
    const text = Buffer.from('{"a":"é→"}\r\n{"b":2}\n{"c":3}');
    const chunks = [...text].map((byte) => Buffer.from([byte]));
    expect(observe(chunks)).toEqual([
      { text: '{"a":"é→"}', bytes: Buffer.byteLength('{"a":"é→"}\r') },
      { text: '{"b":2}', bytes: 7 },
      { text: '{"c":3}', bytes: 7 },
    ]);
  });

  it("reports an over-long line by its size only, and the next line normally", () => {
    const long = Buffer.alloc(5000, "x");
    const lines = observe([long.subarray(0, 3000), long.subarray(3000), Buffer.from("\nok\n")], 1024);
    expect(lines).toEqual([
      { text: undefined, bytes: 5000 },
      { text: "ok", bytes: 2 },
    ]);
  });

  it("skips empty lines", () => {
    expect(observe([Buffer.from("\n\n{}\n\n")])).toEqual([{ text: "{}", bytes: 2 }]);
  });
});
