// acpkit's hand-written schemas against the official ones, as independent oracles: the official
// v1 schema of the @agentclientprotocol/sdk 2.4.0 devDependency, the official v2 schema of
// spec commit bae0a2a7 (vendored in ./oracles with its license), and the SDK's own v2 schema for
// the later v2 draft. Every corpus row must get the
// same verdict from both, and that verdict must be the one the row expects. A coverage check
// walks acpkit's schema along the valid rows, so a $def the corpus never reaches fails here.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv/dist/2020.js";
// By path: @acpkit/schema cannot depend on test-support, which depends on core, which depends on schema.
import { officialAjv } from "../../../test-support/official-ajv.js";
import { describe, expect, it } from "vitest";
import { type SchemaVersion, validateDefinition, validateParams, validateResult } from "../src/index.js";
import { type CorpusRow, V1_CORPUS, V2_SESSION_CORPUS } from "./support/agreement-corpus.js";
import { LATER_V2_CORPUS } from "./support/later-corpus.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = resolve(here, "../../..");
const require = createRequire(import.meta.url);

interface OfficialSchema {
  $defs: Record<string, { "x-method"?: string; "x-side"?: string }>;
}

const officialV1Path = require.resolve("@agentclientprotocol/sdk/schema/v1/schema.json");
const officialV2Path = resolve(here, "oracles/v2-bae0a2a7.schema.json");
const officialLaterPath = require.resolve("@agentclientprotocol/sdk/schema/v2/schema.json");

/** The official file's method → validator table, compiled with the shared oracle Ajv. */
function officialValidators(path: string, key: string) {
  const schema = JSON.parse(readFileSync(path, "utf8")) as OfficialSchema;
  const ajv = officialAjv();
  ajv.addSchema(schema, key);
  // x-method names the method on both its params and its result $def; the result's name ends in Response.
  const byMethod = new Map<string, ValidateFunction>();
  for (const [name, definition] of Object.entries(schema.$defs)) {
    const method = definition["x-method"];
    if (method === undefined) continue;
    const part = name.endsWith("Response") ? "result" : "params";
    byMethod.set(`${method} ${part}`, ajv.compile({ $ref: `${key}#/$defs/${name}` }));
  }
  return (method: string, part: CorpusRow["part"], value: unknown): boolean => {
    const validate = byMethod.get(`${method} ${part}`);
    if (validate === undefined) throw new Error(`${path} has no ${part} definition for ${method}`);
    return validate(value) === true;
  };
}

const official: Record<SchemaVersion, ReturnType<typeof officialValidators>> = {
  1: officialValidators(officialV1Path, "official-v1"),
  2: officialValidators(officialV2Path, "official-v2"),
  "v2-later": officialValidators(officialLaterPath, "official-v2-later"),
};

function ours(version: SchemaVersion, row: CorpusRow): boolean {
  return (row.part === "params" ? validateParams(version, row.method, row.value) : validateResult(version, row.method, row.value)).valid;
}

type Node = Record<string, unknown>;

/**
 * Every $def of `schema` that `value` reaches when validated as `start`: a $ref counts when the
 * value at that point validates against it, and the walk follows properties, items, map values
 * and every branch of anyOf/oneOf/allOf/if-then-else.
 */
function reachedDefinitions(version: SchemaVersion, defs: Record<string, Node>, start: string, value: unknown, reached: Set<string>): void {
  const enterDef = (name: string, at: unknown) => {
    if (!validateDefinition(version, name, at).valid) return;
    reached.add(name);
    visit(defs[name]!, at);
  };
  const visit = (node: Node | boolean, at: unknown): void => {
    if (typeof node === "boolean") return;
    if (typeof node.$ref === "string") enterDef(node.$ref.slice("#/$defs/".length), at);
    for (const key of ["anyOf", "oneOf", "allOf"] as const) for (const branch of (node[key] as Node[] | undefined) ?? []) visit(branch, at);
    for (const key of ["then", "else"] as const) if (node[key]) visit(node[key] as Node, at);
    if (at !== null && typeof at === "object") {
      if (Array.isArray(at)) {
        if (node.items) for (const item of at) visit(node.items as Node, item);
        return;
      }
      const properties = (node.properties ?? {}) as Record<string, Node>;
      for (const [key, child] of Object.entries(at)) {
        if (properties[key]) visit(properties[key], child);
        else if (node.additionalProperties && typeof node.additionalProperties === "object") visit(node.additionalProperties as Node, child);
      }
    }
  };
  enterDef(start, value);
}

function loadDefs(version: SchemaVersion): Record<string, Node & { "x-method"?: string; "x-result-of"?: string; "x-unknown"?: boolean }> {
  const folder = typeof version === "number" ? `v${version}` : version;
  return (JSON.parse(readFileSync(resolve(repoRoot, `schema/${folder}/acp.schema.json`), "utf8")) as { $defs: Record<string, Node> }).$defs;
}

function definitionFor(defs: ReturnType<typeof loadDefs>, row: CorpusRow): string {
  const key = row.part === "params" ? "x-method" : "x-result-of";
  const found = Object.entries(defs).find(([, def]) => def[key] === row.method);
  if (!found) throw new Error(`acpkit's schema has no ${row.part} $def for ${row.method}`);
  return found[0];
}

// Envelope $defs describe JSON-RPC framing, which the official schemas do not define as $defs;
// they are covered by the v1/v2 example and rejection suites instead.
const ENVELOPE = [
  "RequestId",
  "ErrorCode",
  "Error",
  "JsonRpcRequest",
  "JsonRpcNotification",
  "JsonRpcSuccessResponse",
  "JsonRpcErrorResponse",
  "JsonRpcMessage",
];

describe("acpkit v1 and the official v1 schema (sdk 2.4.0)", () => {
  it("the oracle file is there and is the stable v1 schema", () => {
    const schema = JSON.parse(readFileSync(officialV1Path, "utf8")) as OfficialSchema;
    expect(Object.keys(schema.$defs).length).toBeGreaterThan(150);
    expect(schema.$defs["SetSessionModeRequest"]?.["x-method"]).toBe("session/set_mode");
  });

  it.each(V1_CORPUS.map((row) => [`${row.method} ${row.part}: ${row.note}`, row] as const))("%s", (_name, row) => {
    expect(official[1](row.method, row.part, row.value), "official verdict").toBe(row.valid);
    expect(ours(1, row), "acpkit verdict").toBe(row.valid);
  });

  it("the corpus covers all 25 methods and reaches every $def", () => {
    const defs = loadDefs(1);
    const methods = new Set(V1_CORPUS.map((row) => row.method));
    expect(methods.size).toBe(25);
    const reached = new Set<string>();
    for (const row of V1_CORPUS.filter((r) => r.valid)) reachedDefinitions(1, defs, definitionFor(defs, row), row.value, reached);
    const missing = Object.keys(defs).filter((name) => !reached.has(name) && !ENVELOPE.includes(name));
    // Unknown branches of open unions are reached only by values the official schema also accepts
    // under a different tag; they are pinned by the rejection suite instead.
    expect(missing.filter((name) => defs[name]!["x-unknown"] !== true && name !== "OtherMultiSelectItems")).toEqual([]);
  });
});

describe("acpkit pinned v2 and the official v2 schema at bae0a2a7 (session methods)", () => {
  it("the vendored oracle is there with its provenance", () => {
    const readme = readFileSync(resolve(here, "oracles/README.md"), "utf8");
    expect(readme).toContain("bae0a2a742b76068773f3cee823bea505528306f");
    expect(readFileSync(resolve(here, "oracles/LICENSE-agent-client-protocol"), "utf8")).toContain("Apache License");
  });

  it.each(V2_SESSION_CORPUS.map((row) => [`${row.method} ${row.part}: ${row.note}`, row] as const))("%s", (_name, row) => {
    expect(official[2](row.method, row.part, row.value), "official verdict").toBe(row.valid);
    expect(ours(2, row), "acpkit verdict").toBe(row.valid);
  });

  it("the corpus reaches every $def acpkit added from that revision", () => {
    const defs = loadDefs(2);
    const reached = new Set<string>();
    for (const row of V2_SESSION_CORPUS.filter((r) => r.valid)) reachedDefinitions(2, defs, definitionFor(defs, row), row.value, reached);
    const added = [
      "LogoutRequest",
      "LogoutResponse",
      "ListSessionsRequest",
      "ListSessionsResponse",
      "SessionInfo",
      "ResumeSessionRequest",
      "ResumeSessionResponse",
    ]
      .concat([
        "CloseSessionRequest",
        "CloseSessionResponse",
        "DeleteSessionRequest",
        "DeleteSessionResponse",
        "SetSessionConfigOptionRequest",
        "SetSessionConfigOptionResponse",
      ])
      .concat([
        "SessionConfigOption",
        "SessionConfigOptionSelect",
        "SessionConfigOptionBoolean",
        "SessionConfigSelectGroup",
        "AgentAuthCapabilities",
        "SessionCapabilities",
      ]);
    expect(added.filter((name) => !reached.has(name))).toEqual([]);
  });
});

describe("acpkit's later v2 draft and the official SDK 2.4.0's v2 schema", () => {
  it("the oracle file is the later draft (info in initialize, tool_call/cancel, no session/load)", () => {
    const schema = JSON.parse(readFileSync(officialLaterPath, "utf8")) as OfficialSchema & { $defs: Record<string, { required?: string[] }> };
    expect(schema.$defs["InitializeRequest"]?.required).toContain("info");
    expect(schema.$defs["CancelToolCallRequest"]?.["x-method"]).toBe("tool_call/cancel");
    expect(Object.values(schema.$defs).some((def) => def["x-method"] === "session/load")).toBe(false);
  });

  it.each(LATER_V2_CORPUS.map((row) => [`${row.method} ${row.part}: ${row.note}`, row] as const))("%s", (_name, row) => {
    expect(official["v2-later"](row.method, row.part, row.value), "official verdict").toBe(row.valid);
    expect(ours("v2-later", row), "acpkit verdict").toBe(row.valid);
  });

  it("the corpus covers every method of the draft and reaches every $def", () => {
    const defs = loadDefs("v2-later");
    const declared = new Set(Object.values(defs).flatMap((def) => (def["x-method"] === undefined ? [] : [def["x-method"]])));
    expect(new Set(LATER_V2_CORPUS.map((row) => row.method))).toEqual(declared);
    expect(declared.size).toBe(18);
    const reached = new Set<string>();
    for (const row of LATER_V2_CORPUS.filter((r) => r.valid)) reachedDefinitions("v2-later", defs, definitionFor(defs, row), row.value, reached);
    const missing = Object.keys(defs).filter((name) => !reached.has(name) && !ENVELOPE.includes(name) && defs[name]!["x-unknown"] !== true);
    expect(missing).toEqual([]);
  });
});
