// readTranscriptLines: a byte stream cut into lines wherever its chunks happen to end, with a
// bound on one line and the first malformed UTF-8 byte named by line and position.
import { describe, expect, it } from "vitest";
import { MAX_TRANSCRIPT_LINE_BYTES, readTranscriptLines } from "../src/transcript-reader.js";

type Event = ["line", string] | ["unreadable", string];

async function read(chunks: readonly (string | Buffer)[], maxLineBytes?: number) {
  const events: Event[] = [];
  let calls = 0;
  async function* stream() {
    for (const chunk of chunks) yield typeof chunk === "string" ? Buffer.from(chunk) : chunk;
  }
  const malformed = await readTranscriptLines(
    stream(),
    { line: (text) => events.push(["line", text]), unreadable: (reason) => events.push(["unreadable", reason]) },
    () => {
      calls++;
      return undefined;
    },
    { maxLineBytes },
  );
  return { events, malformed, backpressureCalls: calls };
}

describe("readTranscriptLines", () => {
  it("hands over every line, blank ones and a last one without a newline included, wherever chunks end", async () => {
    const { events, malformed, backpressureCalls } = await read(['{"a"', ':1}\n\n{"b":2}\n{"c"', ":3}"]);
    expect(malformed).toBeUndefined();
    expect(events).toEqual([
      ["line", '{"a":1}'],
      ["line", ""],
      ["line", '{"b":2}'],
      ["line", '{"c":3}'],
    ]);
    expect(backpressureCalls).toBe(3); // after each line that ended in a newline
  });

  it("drops a byte order mark at the start of the first line only", async () => {
    const { events } = await read([Buffer.from([0xef, 0xbb, 0xbf]), '{"a":1}\n\ufeff{"b":2}\n']);
    expect(events).toEqual([
      ["line", '{"a":1}'],
      ["line", '\ufeff{"b":2}'],
    ]);
  });

  it("decodes a character whose bytes fall into two chunks", async () => {
    const text = Buffer.from('{"t":"é→"}\n');
    const arrow = text.indexOf(0xe2); // the first byte of →
    const { events } = await read([text.subarray(0, arrow + 1), text.subarray(arrow + 1)]);
    expect(events).toEqual([["line", '{"t":"é→"}']]);
  });

  it("skips a line over the bound, within one chunk or grown over several, and says how long it was", async () => {
    const { events } = await read(["0123456789\nok\n01234", "56789", "0\nlast"], 8);
    expect(events).toEqual([
      ["unreadable", "not checked: the line is 10 bytes, longer than the 8 bytes a line may have"],
      ["line", "ok"],
      ["unreadable", "not checked: the line is 11 bytes, longer than the 8 bytes a line may have"],
      ["line", "last"],
    ]);
  });

  it("reports a last line over the bound that never got its newline", async () => {
    const { events } = await read(["ok\n0123", "456789"], 8);
    expect(events).toEqual([
      ["line", "ok"],
      ["unreadable", "not checked: the line is 10 bytes, longer than the 8 bytes a line may have"],
    ]);
  });

  it("stops at the first malformed UTF-8 byte and names its line and position in the line", async () => {
    const { events, malformed } = await read([Buffer.from("{}\n\nab"), Buffer.from([0xc3, 0x28, 0x0a]), Buffer.from("never read\n")]);
    expect(events).toEqual([
      ["line", "{}"],
      ["line", ""],
    ]);
    expect(malformed).toEqual({ line: 3, byte: 3, value: 0xc3 });
  });

  it("waits for the caller's output before it reads on", async () => {
    const order: string[] = [];
    let release: (() => void) | undefined;
    async function* stream() {
      yield Buffer.from("a\nb\n");
    }
    const reading = readTranscriptLines(stream(), { line: (text) => order.push(text), unreadable: () => {} }, () =>
      order.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(["a"]);
    release!();
    await reading;
    expect(order).toEqual(["a", "b"]);
  });

  it("stops before the next line once its signal is aborted, and ends the stream", async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    let finished = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) yield Buffer.from(`line ${i}\nline ${i}b\n`);
      } finally {
        finished = true;
      }
    }
    const malformed = await readTranscriptLines(
      endless(),
      {
        line: (text) => {
          seen.push(text);
          if (seen.length === 3) controller.abort();
        },
        unreadable: () => {},
      },
      () => undefined,
      { signal: controller.signal },
    );
    expect(malformed).toBeUndefined();
    expect(seen).toEqual(["line 0", "line 0b", "line 1"]);
    expect(finished).toBe(true);
  });

  it("bounds a line at 64 MiB by default", () => {
    expect(MAX_TRANSCRIPT_LINE_BYTES).toBe(64 * 1024 * 1024);
  });
});
