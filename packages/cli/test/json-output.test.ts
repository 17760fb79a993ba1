// `--json` output (json-output.ts): the same text as JSON.stringify(value, null, 2), written in
// pieces when it is too long to be one string, and cut at MAX_JSON_DEPTH levels.
import { describe, expect, it } from "vitest";
import { DEPTH_MARKER, writeJsonText } from "../src/json-output.js";

function collect(value: unknown, piecewise: boolean): string[] {
  const pieces: string[] = [];
  writeJsonText(value, (text) => pieces.push(text), piecewise);
  return pieces;
}

describe("writeJsonText", () => {
  it("writes member by member exactly the text JSON.stringify(value, null, 2) makes", () => {
    const value = JSON.parse('{"__proto__":{"status":"completed"},"a":[1,"two\\nlines",{"b":[],"c":{}},[[]],null,true],"é ü":"🙂","n":-0.5}');
    value.dropped = undefined;
    value.list = [undefined, () => 1, 3];
    const expected = `${JSON.stringify(value, null, 2)}\n`;
    expect(collect(value, false)).toEqual([expected]);
    expect(collect(value, true).join("")).toBe(expected);
  });

  // Before: "acpkit: Invalid string length" and an empty stdout, from `acpkit run --json` after an
  // agent had streamed 560 MB of text.
  it("writes output longer than a string can be, in pieces of about 1 Mi characters", { timeout: 60_000 }, () => {
    const chunk = "y".repeat(1024 * 1024);
    const value = { messages: Array.from({ length: 600 }, () => ({ text: chunk })) };
    expect(() => JSON.stringify(value, null, 2)).toThrow(RangeError);
    let total = 0;
    let largest = 0;
    let last = ""; // the output's last 40 characters
    let first = "";
    writeJsonText(value, (text) => {
      if (first === "") first = text.slice(0, 200);
      total += text.length;
      largest = Math.max(largest, text.length);
      last = (last + text).slice(-40);
    });
    const member = JSON.stringify({ text: chunk }, null, 2).replace(/\n/g, "\n    ");
    const expected = '{\n  "messages": [\n'.length + 600 * ("    ".length + member.length + ",\n".length) - 1 + "  ]\n}\n".length;
    expect(total).toBe(expected);
    expect(first.startsWith('{\n  "messages": [\n    {\n      "text": "yyyy')).toBe(true);
    expect(last.endsWith('"\n    }\n  ]\n}\n')).toBe(true);
    expect(largest).toBeLessThan(3 * 1024 * 1024);
  });

  it("still cuts values nested deeper than MAX_JSON_DEPTH when it writes in pieces", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const text = collect({ deep, tail: 1 }, true).join("");
    const parsed = JSON.parse(text);
    expect(parsed.tail).toBe(1);
    expect(text.includes(JSON.stringify(DEPTH_MARKER))).toBe(true);
  });
});
