// findMalformedUtf8 names where a file stops being UTF-8 (acpkit validate's error).
import { describe, expect, it } from "vitest";
import { findMalformedUtf8 } from "../src/malformed-utf8.js";

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));

describe("findMalformedUtf8", () => {
  it("finds nothing in well-formed text, whatever its characters", () => {
    expect(findMalformedUtf8(bytes("plain\né — 世界 🙂 \u{10ffff}\n"))).toBeUndefined();
    expect(findMalformedUtf8(new Uint8Array())).toBeUndefined();
  });

  it("names the line, the byte within it and the byte's value", () => {
    expect(findMalformedUtf8(bytes("one\ntwo\nab", [0xff], "c"))).toEqual({ line: 3, byte: 3, value: 0xff });
    expect(findMalformedUtf8(bytes("🙂", [0x80]))).toEqual({ line: 1, byte: 5, value: 0x80 });
  });

  it("refuses what strict decoders refuse: overlong forms, surrogates, code points above U+10FFFF, cut sequences", () => {
    for (const [name, bad] of [
      ["overlong two-byte", [0xc0, 0x80]],
      ["overlong three-byte", [0xe0, 0x80, 0x80]],
      ["overlong four-byte", [0xf0, 0x80, 0x80, 0x80]],
      ["surrogate", [0xed, 0xa0, 0x80]],
      ["above U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
      ["lead byte 0xf5", [0xf5, 0x80, 0x80, 0x80]],
      ["cut at the end", [0xe4, 0xb8]],
      ["continuation missing", [0xe4, 0x41, 0x80]],
    ] as const) {
      const input = bytes("x\n", [...bad]);
      expect(() => new TextDecoder("utf-8", { fatal: true }).decode(input), name).toThrow();
      expect(findMalformedUtf8(input), name).toEqual({ line: 2, byte: 1, value: bad[0] });
    }
  });
});
