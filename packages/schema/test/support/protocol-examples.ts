// Pulls every JSON example out of docs/protocol.md and out of the example fixtures recorded from
// older protocol documents (test/fixtures/examples/), so the schema tests check the documents
// themselves instead of hand-copied (and silently drifting) samples.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

export type Version = 1 | 2;

/** The monorepo root (this file is packages/schema/test/support/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** The protocol reference whose fenced examples the tests validate. */
export const protocolDoc = resolve(repoRoot, "docs/protocol.md");

/** JSON examples recorded from other protocol documents, one file per document. */
export const exampleFixturesDir = resolve(repoRoot, "packages/schema/test/fixtures/examples");

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

/** Every fenced example of docs/protocol.md whose info string names a version (`json v2 …`, `text v1+v2 trace`). */
export function protocolExamples(): Example[] {
  const lines = readFileSync(protocolDoc, "utf8").split("\n");
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]!);
    if (!fence) continue;
    const [, lang, versionTag, rest] = fence;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) body.push(lines[i]!);
    const versions = versionsOf(versionTag!);
    const where = `protocol.md:${start}`;
    if (lang === "text" && rest === "trace") {
      const ledger = new RequestLedger();
      body.forEach((line, n) => {
        const direction = line.slice(0, 1);
        const message = JSON.parse(line.slice(1).trim()) as Record<string, unknown>;
        ledger.record(direction, message);
        examples.push({
          kind: "message",
          label: `${where} ${versionTag} trace line ${n + 1}`,
          versions,
          message,
          target: targetOf(message, ledger, direction),
        });
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
 * A fixture file of test/fixtures/examples/: what one document shows, in page order, with the
 * document's name and each entry's section.
 */
export interface ExampleFixture<Entry> {
  document: string;
  versions: Version[];
  entries: Entry[];
}

/** Reads a fixture file (name without `.json`); fails loudly when it is missing or empty. */
export function readExampleFixture<Entry>(name: string, key: "examples" | "literals"): ExampleFixture<Entry> {
  const path = resolve(exampleFixturesDir, `${name}.json`);
  const fixture = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const entries = fixture[key];
  if (typeof fixture.document !== "string" || !Array.isArray(fixture.versions) || !Array.isArray(entries) || entries.length === 0) {
    throw new Error(`${path}: expected "document", "versions" and a non-empty "${key}" array`);
  }
  return { document: fixture.document, versions: fixture.versions as Version[], entries: entries as Entry[] };
}

/**
 * The JSON messages of a recorded document. Responses are matched to the request with the same id
 * seen earlier in the document.
 */
export function seedExamples(name: string): Example[] {
  const { versions, entries } = readExampleFixture<{ section: string; message: Record<string, unknown> }>(name, "examples");
  const ledger = new RequestLedger();
  return entries.map(({ section, message }, n) => {
    ledger.record("", message);
    return { kind: "message", label: `${name} § ${section} #${n + 1}`, versions, message, target: targetOf(message, ledger, "") };
  });
}

/** The pinned-v2 prompt-turn page: every JSON in it validates against v2. */
export const V2_SEED = "v2-prompt-turn-pinned";
/** The v1 prompt-turn page (a faithful translation): every JSON in it validates against v1. */
export const V1_SEED_TRANSLATION = "v1-prompt-turn-translation";
/** An older TypeScript SDK's docs: its object literals, recorded as JSON. */
export const V1_SEED_OLD_SDK = "v1-old-typescript-sdk-docs";
/** The first pre-release draft of the v1 prompt-turn page (obsolete shapes, docs/protocol.md §9). */
export const PRE_1_0_SEED = "v1-prompt-turn-first-draft";
