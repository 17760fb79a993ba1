// The generated validators give the errors Ajv gives. The codegen rewrites Ajv's standalone output
// (error literals become builder calls, schema objects are cut down to the parts errors point at:
// scripts/codegen/compact-errors.ts, prune-schema-objects.ts); this compares what the committed
// validators leave in `.errors` with what Ajv, compiling the same schemas at run time, leaves,
// over many wrong values made from the agreement corpus and docs/protocol.md's examples: same verdict, same error objects with
// the same keys in the same order.
import { describe, expect, it } from "vitest";
import { ajvWithDefs } from "../../../scripts/codegen/emit-validators.js";
import { schemaPath, VERSIONS } from "../../../scripts/codegen/pipeline.js";
import { SchemaModel } from "../../../scripts/codegen/schema-model.js";
import type { CompiledValidator } from "../src/compiled-validator.js";
import type { CorpusRow } from "./support/agreement-corpus.js";
import * as v1 from "../src/generated/v1/validators.js";
import * as v2 from "../src/generated/v2/validators.js";
import * as laterV2 from "../src/generated/v2-later/validators.js";
import { getMethod, type SchemaVersion } from "../src/index.js";
import { V1_CORPUS, V2_SESSION_CORPUS } from "./support/agreement-corpus.js";
import { LATER_V2_CORPUS } from "./support/later-corpus.js";
import { protocolExamples } from "./support/protocol-examples.js";

const generated: Record<SchemaVersion, Record<string, CompiledValidator>> = {
  1: v1 as unknown as Record<string, CompiledValidator>,
  2: v2 as unknown as Record<string, CompiledValidator>,
  "v2-later": laterV2 as unknown as Record<string, CompiledValidator>,
};

const CORPUS: Record<SchemaVersion, readonly CorpusRow[]> = { 1: V1_CORPUS, 2: V2_SESSION_CORPUS, "v2-later": LATER_V2_CORPUS };

/** A value and the $def it is checked against. */
interface Case {
  def: string;
  value: unknown;
  from: string;
}

function defOf(version: SchemaVersion, method: string, part: "params" | "result"): string | undefined {
  const info = getMethod(version, method);
  return part === "params" ? info?.paramsType : info?.resultType;
}

/** The agreement corpus's payloads and docs/protocol.md's examples of `version`, each with its $def. */
function casesOf(version: SchemaVersion): Case[] {
  const cases: Case[] = [];
  for (const row of CORPUS[version]) {
    const def = defOf(version, row.method, row.part);
    if (def !== undefined) cases.push({ def, value: row.value, from: `${row.method} ${row.part}: ${row.note}` });
  }
  for (const example of protocolExamples()) {
    if (typeof version !== "number" || !example.versions.includes(version)) continue;
    if (example.kind === "definition") cases.push({ def: example.definition, value: example.value, from: example.label });
    else if (example.target.part === "params" || example.target.part === "result") {
      const def = defOf(version, example.target.method, example.target.part);
      const value = example.message[example.target.part];
      if (def !== undefined) cases.push({ def, value, from: example.label });
    } else if (example.target.part === "result-definition") cases.push({ def: example.target.definition, value: example.message.result, from: example.label });
  }
  return cases;
}

/** Wrong values for a node: each of another JSON type, and for an object each key removed. */
function replacements(node: unknown): unknown[] {
  const others: unknown[] = [42, -1, 1.5, "x", "", true, null, [], {}, ["x"], { unexpected: 1 }];
  const out = others.filter((other) => JSON.stringify(other) !== JSON.stringify(node));
  if (node && typeof node === "object" && !Array.isArray(node)) {
    for (const key of Object.keys(node)) {
      const { [key]: _removed, ...rest } = node as Record<string, unknown>;
      out.push(rest);
    }
  }
  return out;
}

/** `value` with the node at `path` replaced by each of its wrong values (and `value` itself first). */
function* mutations(value: unknown, path: (string | number)[] = []): Generator<unknown> {
  if (path.length === 0) yield value;
  const node = path.reduce<unknown>((at, step) => (at as Record<string | number, unknown>)[step], value);
  for (const replacement of replacements(node)) yield withNode(value, path, replacement);
  if (node && typeof node === "object") {
    for (const key of Object.keys(node)) yield* mutations(value, [...path, Array.isArray(node) ? Number(key) : key]);
  }
}

function withNode(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [step, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[step!] = withNode(copy[step!], rest, replacement);
  return copy;
}

/** Ajv's own discriminator message says only "must be in oneOf"; the codegen names the tags (tested in codegen.test.ts). */
function comparable(errors: CompiledValidator["errors"]): unknown {
  return (errors ?? []).map((error) =>
    error.keyword === "discriminator" && (error.params as { error?: string }).error === "mapping" ? { ...error, message: "(named tags)" } : error,
  );
}

/** The registry's name of a schema folder: v1 → 1, v2 → 2, v2-later → "v2-later". */
const schemaVersionOf = (folder: string): SchemaVersion => (folder === "v2-later" ? "v2-later" : (Number(folder.slice(1)) as 1 | 2));

describe.each(VERSIONS.map((name) => [name, schemaVersionOf(name)] as const))("%s: generated validators and Ajv at run time", (name, version) => {
  const { ajv, ids } = ajvWithDefs(SchemaModel.load(schemaPath(name)), name);

  it("give the same verdict and the same errors, keys in the same order, on wrong values", () => {
    const cases = casesOf(version);
    expect(cases.length).toBeGreaterThan(20);
    let compared = 0;
    let invalid = 0;
    const keywords = new Set<string>();
    for (const { def, value: start, from } of cases) {
      const ours = generated[version][def];
      const theirs = ajv.getSchema(ids[def] ?? "");
      expect(ours, `generated ${def} (${from})`).toBeTypeOf("function");
      expect(theirs, `Ajv's ${def} (${from})`).toBeTypeOf("function");
      for (const value of mutations(start)) {
        const valid = ours!(value);
        const expected = theirs!(value);
        if (valid !== expected || JSON.stringify(comparable(ours!.errors)) !== JSON.stringify(comparable(theirs!.errors))) {
          expect({ from, def, value, valid, errors: ours!.errors }).toEqual({ from, def, value, valid: expected, errors: theirs!.errors });
        }
        compared++;
        if (!valid) invalid++;
        for (const error of ours!.errors ?? []) keywords.add(error.keyword);
      }
    }
    // The wrong values reach every builder (v1's corpus reaches const and enum checks; v2's wrong
    // tags stop at the discriminator first) and the generic one (discriminator, minimum, …).
    expect(compared).toBeGreaterThan(2000);
    expect(invalid).toBeGreaterThan(compared / 2);
    const reached = version === 1 ? ["type", "required", "const", "enum", "anyOf", "discriminator", "minimum"] : ["type", "required", "anyOf", "discriminator"];
    for (const keyword of reached) expect(keywords).toContain(keyword);
  });
});
