// Seed 003 documents an old TypeScript SDK: its protocol shapes are JavaScript object literals
// inside code (`connection.sessionUpdate({...})`, `requestPermission({...})`,
// `return { stopReason: "..." }`), not JSON. This pulls those literals out and evaluates them,
// with `params.sessionId` bound to a fixed id, so the v1 tests can validate what the page shows.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { sharedDir } from "./protocol-examples.js";

export interface SdkDocLiteral {
  label: string;
  /** What the literal is: the params of a method, or a session/prompt result. */
  target: { part: "params" | "result"; method: string };
  value: unknown;
}

const CALLS: { pattern: RegExp; method: string; part: "params" | "result" }[] = [
  { pattern: /\.sessionUpdate\(\{/g, method: "session/update", part: "params" },
  { pattern: /\.requestPermission\(\{/g, method: "session/request_permission", part: "params" },
  { pattern: /return \{ stopReason/g, method: "session/prompt", part: "result" },
];

/** Index just past the object literal that opens at `start` (a "{"), skipping strings. */
function literalEnd(text: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error(`unbalanced object literal at offset ${start}`);
}

export function sdkDocLiterals(file: string): SdkDocLiteral[] {
  const text = readFileSync(resolve(sharedDir, "seeds", file), "utf8");
  const found: (SdkDocLiteral & { offset: number })[] = [];
  for (const { pattern, method, part } of CALLS) {
    for (const match of text.matchAll(pattern)) {
      const start = text.indexOf("{", match.index);
      const source = text.slice(start, literalEnd(text, start));
      // The page is a fixed local document; evaluating its literals is how JS reads them.
      const value: unknown = new Function("params", `return (${source});`)({ sessionId: "sess_seed" });
      const line = text.slice(0, match.index).split("\n").length;
      found.push({ label: `seeds/${file}:${line} ${method} ${part}`, target: { part, method }, value, offset: match.index! });
    }
  }
  return found.sort((a, b) => a.offset - b.offset).map(({ offset: _offset, ...literal }) => literal);
}
