// `--json` output (json-output.ts): the same text as JSON.stringify(value, null, 2), written in
// pieces when it is too long to be one string, and cut at MAX_JSON_DEPTH levels.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BatchedOutput } from "../src/io.js";
import { DEPTH_MARKER, writeJsonText } from "../src/json-output.js";

/** A stream that hands each write to `onWrite`. */
function sink(onWrite: (text: string) => void): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      onWrite(chunk);
      callback();
    },
  });
}

async function collect(value: unknown, piecewise: boolean): Promise<string[]> {
  const pieces: string[] = [];
  await writeJsonText(
    value,
    sink((text) => pieces.push(text)),
    piecewise,
  );
  return pieces;
}

describe("writeJsonText", () => {
  it("writes member by member exactly the text JSON.stringify(value, null, 2) makes", async () => {
    const value = JSON.parse('{"__proto__":{"status":"completed"},"a":[1,"two\\nlines",{"b":[],"c":{}},[[]],null,true],"é ü":"🙂","n":-0.5}');
    value.dropped = undefined;
    value.list = [undefined, () => 1, 3];
    const expected = `${JSON.stringify(value, null, 2)}\n`;
    expect((await collect(value, false)).join("")).toBe(expected);
    expect((await collect(value, true)).join("")).toBe(expected);
  });

  // Before: "acpkit: Invalid string length" and an empty stdout, from `acpkit run --json` after an
  // agent had streamed 560 MB of text.
  // 600 Mi characters: 24–25 s while CI ran every package's tests at once on two cores.
  it("writes output longer than a string can be, in pieces of about 1 Mi characters", { timeout: 240_000 }, async () => {
    const chunk = "y".repeat(1024 * 1024);
    const value = { messages: Array.from({ length: 600 }, () => ({ text: chunk })) };
    expect(() => JSON.stringify(value, null, 2)).toThrow(RangeError);
    let total = 0;
    let largest = 0;
    let last = ""; // the output's last 40 characters
    let first = "";
    await writeJsonText(
      value,
      sink((text) => {
        if (first === "") first = text.slice(0, 200);
        total += text.length;
        largest = Math.max(largest, text.length);
        last = (last + text).slice(-40);
      }),
    );
    const member = JSON.stringify({ text: chunk }, null, 2).replace(/\n/g, "\n    ");
    const expected = '{\n  "messages": [\n'.length + 600 * ("    ".length + member.length + ",\n".length) - 1 + "  ]\n}\n".length;
    expect(total).toBe(expected);
    expect(first.startsWith('{\n  "messages": [\n    {\n      "text": "yyyy')).toBe(true);
    expect(last.endsWith('"\n    }\n  ]\n}\n')).toBe(true);
    expect(largest).toBeLessThan(3 * 1024 * 1024);
  });

  it("still cuts values nested deeper than MAX_JSON_DEPTH when it writes in pieces", async () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const text = (await collect({ deep, tail: 1 }, true)).join("");
    const parsed = JSON.parse(text);
    expect(parsed.tail).toBe(1);
    expect(text.includes(JSON.stringify(DEPTH_MARKER))).toBe(true);
  });
});

// Before: `acpkit validate` wrote one line per problem; 3 million problems piped to a reader made
// Node's writev fail with ENOBUFS and ended the process.
describe("BatchedOutput", () => {
  it("gathers lines into writes of about 1 Mi characters and waits while the stream asks it to", async () => {
    const writes: number[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      decodeStrings: false,
      highWaterMark: 1024,
      write(chunk: string, _encoding, callback) {
        writes.push(chunk.length);
        release = callback; // finished only when the test says so
      },
    });
    const out = new BatchedOutput(slow);
    const line = `${"p".repeat(99)}\n`;
    let waited: Promise<void> | undefined;
    let added = 0;
    while (waited === undefined) {
      waited = out.add(line);
      added++;
    }
    expect(added).toBe(Math.ceil((1024 * 1024) / line.length));
    expect(writes).toEqual([added * line.length]);
    let drained = false;
    void waited.then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    release!();
    await waited;
    expect(drained).toBe(true);
    expect(out.add(line)).toBeUndefined();
    await out.flush();
    expect(writes).toEqual([added * line.length, line.length]);
  });
});
