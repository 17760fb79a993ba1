// Pulls every JSON example out of ../shared/PROTOCOL.md and the seed documents, so the schema
// tests check the documents themselves instead of hand-copied (and silently drifting) samples.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

export type Version = 1 | 2;

/** The monorepo root (this file is packages/schema/test/support/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** `repoRoot/../shared`, where PROTOCOL.md and seeds/ live. */
export const sharedDir = resolve(repoRoot, "../shared");

/** One example: a bare definition value, or a whole JSON-RPC message. */
export type Example =
  | { kind: "definition"; label: string; versions: Version[]; definition: string; value: unknown }
  | { kind: "message"; label: string; versions: Version[]; message: Record<string, unknown>; target: MessageTarget };

/**
 * What a message's payload is checked against: the params of `method`, the result of `method`
 * (the request it answers is known), the result definition named in the info string, or nothing
 * beyond the envelope (an error response).
 */
export type MessageTarget =
  | { part: "params"; method: string }
  | { part: "result"; method: string }
  | { part: "result-definition"; definition: string }
  | { part: "envelope" };

const FENCE = /^```(json|text) (v1\+v2|v1|v2) ?(.*?)\s*$/;

function versionsOf(tag: string): Version[] {
  return tag === "v1+v2" ? [1, 2] : tag === "v1" ? [1] : [2];
}

/** Remembers which method each request id belongs to, per direction, to map responses. */
class RequestLedger {
  private readonly byId = new Map<string, string>();
  record(direction: string, message: Record<string, unknown>) {
    if (typeof message.method === "string" && "id" in message) {
      this.byId.set(`${direction}:${JSON.stringify(message.id)}`, message.method);
    }
  }
  /** The method of the request this response answers (sent in the opposite direction). */
  methodFor(direction: string, id: unknown): string | undefined {
    const requestDirection = direction === "→" ? "←" : direction === "←" ? "→" : direction;
    return this.byId.get(`${requestDirection}:${JSON.stringify(id)}`);
  }
}

function targetOf(message: Record<string, unknown>, ledger: RequestLedger, direction: string, resultDefinition?: string): MessageTarget {
  if (typeof message.method === "string") return { part: "params", method: message.method };
  if ("result" in message) {
    if (resultDefinition) return { part: "result-definition", definition: resultDefinition };
    const method = ledger.methodFor(direction, message.id);
    if (method) return { part: "result", method };
  }
  return { part: "envelope" };
}

/** Every fenced example of PROTOCOL.md whose info string names a version (`json v2 …`, `text v1+v2 trace`). */
export function protocolExamples(): Example[] {
  const lines = readFileSync(resolve(sharedDir, "PROTOCOL.md"), "utf8").split("\n");
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]!);
    if (!fence) continue;
    const [, lang, versionTag, rest] = fence;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) body.push(lines[i]!);
    const versions = versionsOf(versionTag!);
    const where = `PROTOCOL.md:${start}`;
    if (lang === "text" && rest === "trace") {
      const ledger = new RequestLedger();
      body.forEach((line, n) => {
        const direction = line.slice(0, 1);
        const message = JSON.parse(line.slice(1).trim()) as Record<string, unknown>;
        ledger.record(direction, message);
        examples.push({ kind: "message", label: `${where} ${versionTag} trace line ${n + 1}`, versions, message, target: targetOf(message, ledger, direction) });
      });
    } else if (lang === "json" && rest?.startsWith("message")) {
      const message = JSON.parse(body.join("\n")) as Record<string, unknown>;
      const resultDefinition = rest.slice("message".length).trim() || undefined;
      const target = targetOf(message, new RequestLedger(), "", resultDefinition);
      examples.push({ kind: "message", label: `${where} ${versionTag} message`, versions, message, target });
    } else if (lang === "json" && rest) {
      const value: unknown = JSON.parse(body.join("\n"));
      examples.push({ kind: "definition", label: `${where} ${versionTag} ${rest}`, versions, definition: rest, value });
    }
  }
  return examples;
}

/**
 * The JSON messages of a seed document. Seeds are prose pages; each example starts on an
 * unindented line that is exactly `{` and runs until the braces balance. Responses are matched to the request with the
 * same id seen earlier in the page.
 */
export function seedExamples(file: string, versions: Version[]): Example[] {
  const lines = readFileSync(resolve(sharedDir, "seeds", file), "utf8").split("\n");
  const ledger = new RequestLedger();
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "{") continue;
    const start = i + 1;
    let text = "";
    for (; i < lines.length; i++) {
      text += lines[i] + "\n";
      if (lines[i]!.startsWith("}") && balanced(text)) break;
    }
    const message = JSON.parse(text) as Record<string, unknown>;
    ledger.record("", message);
    examples.push({ kind: "message", label: `seeds/${file}:${start}`, versions, message, target: targetOf(message, ledger, "") });
  }
  return examples;
}

/** Brace balance outside string literals. */
function balanced(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
  }
  return depth === 0;
}

/** The pinned-v2 seed (PROTOCOL §9): every JSON in it validates against v2. */
export const V2_SEED = "000_d2c6c8d7dfc46d65.txt";
