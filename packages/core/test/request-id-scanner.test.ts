// The scanner that lets an over-limit request still be answered: it must find the top-level id
// wherever it sits and whatever the line nests, and nothing else.
import { describe, expect, it } from "vitest";
import { oversizedRequestId, RequestIdScanner } from "../src/request-id-scanner.js";

function scan(text: string, pieces = 1): RequestIdScanner {
  const bytes = Buffer.from(text, "utf8");
  const scanner = new RequestIdScanner();
  const step = Math.ceil(bytes.length / pieces);
  for (let at = 0; at < bytes.length; at += step) scanner.feed(bytes, at, Math.min(bytes.length, at + step));
  scanner.finish();
  return scanner;
}

describe("RequestIdScanner", () => {
  const big = "x".repeat(5000);
  it.each([
    [`{"jsonrpc":"2.0","id":42,"method":"session/prompt","params":{"text":"${big}"}}`, 42, true],
    [`{"jsonrpc":"2.0","method":"session/prompt","params":{"id":7,"text":"${big}","deep":[[[{"id":9}]]]},"id":"req-1"}`, "req-1", true],
    [`{"params":{"text":"say \\"id\\": 3"},"id" : -5 ,"method":"x"}`, -5, true],
    [`{"jsonrpc":"2.0","id":"a\\"b","result":{"text":"${big}"}}`, 'a"b', false],
    [`{"jsonrpc":"2.0","method":"session/update","params":{"text":"${big}"}}`, undefined, true],
    [`{"jsonrpc":"2.0","id":null,"method":"x"}`, undefined, true],
    [`{"jsonrpc":"2.0","id":1e309,"method":"x"}`, undefined, true],
    [`{"jsonrpc":"2.0","method":"x","id":12`, 12, true],
    [`{"jsonrpc":"2.0","method":"über","params":{"t":"日本語 😀 ${big}"},"id":"ключ-😀"}`, "ключ-😀", true],
  ] as const)("case %#", (text, id, hasMethod) => {
    for (const pieces of [1, 3, 97]) {
      const scanner = scan(text, pieces);
      expect(scanner.id, `${pieces} pieces`).toBe(id);
      expect(scanner.hasMethod, `${pieces} pieces`).toBe(hasMethod);
    }
    // The text form (WebSocket frames, the memory pair) finds the same, answering requests only.
    const fromText = new RequestIdScanner();
    fromText.feedText(text);
    fromText.finish();
    expect(fromText.id).toBe(id);
    expect(fromText.hasMethod).toBe(hasMethod);
    expect(oversizedRequestId(text)).toBe(hasMethod ? id : undefined);
  });
});
