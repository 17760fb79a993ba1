// The codegen pipeline (scripts/codegen): the committed output is what the schemas generate,
// generation is deterministic, the round trip keeps constraints, conventions are enforced, and
// the generated validators report JSON-pointer paths. Runs the pipeline in-process.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { diffGenerated, writeGenerated } from "../../../scripts/codegen/generated-files.js";
import { CORE_GENERATED_DIR, generateAll, generateVersion, GENERATED_DIR, REPO_ROOT } from "../../../scripts/codegen/pipeline.js";
import { compactErrorObjects, ERROR_BUILDERS } from "../../../scripts/codegen/compact-errors.js";
import { pruneSchemaObjects } from "../../../scripts/codegen/prune-schema-objects.js";
import { checkRoundTrip } from "../../../scripts/codegen/roundtrip.js";
import { SchemaConventionError, SchemaModel, type SchemaDocument } from "../../../scripts/codegen/schema-model.js";
import { toValidationErrors } from "../src/ajv-errors.js";
import type { CompiledValidator } from "../src/compiled-validator.js";

const FIXTURE = join(REPO_ROOT, "scripts", "codegen", "fixtures", "fixture.schema.json");
const scratch = mkdtempSync(join(tmpdir(), "acpkit-codegen-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const fixtureDocument = (): SchemaDocument => JSON.parse(readFileSync(FIXTURE, "utf8")) as SchemaDocument;

describe("committed output (the --check comparison)", () => {
  const { files, coreFiles, models } = generateAll();

  it("matches what the schemas generate", () => {
    expect(diffGenerated(files)).toEqual({ changed: [], missing: [], extra: [] });
    // @acpkit/core's copy of the method tables and closed lists, too.
    expect(diffGenerated(coreFiles, CORE_GENERATED_DIR)).toEqual({ changed: [], missing: [], extra: [] });
  });

  it("is deterministic", () => {
    const again = generateAll().files;
    expect([...again.keys()]).toEqual([...files.keys()]);
    for (const [path, text] of files) expect(again.get(path), path).toBe(text);
  });

  it("reports a changed, a missing and a stale file", () => {
    const dir = join(scratch, "committed");
    writeGenerated(files, dir);
    writeFileSync(join(dir, "v1/types.ts"), "// edited by hand\n");
    rmSync(join(dir, "v2/methods.ts"));
    writeFileSync(join(dir, "v2/old.ts"), "");
    expect(diffGenerated(files, dir)).toEqual({ changed: ["v1/types.ts"], missing: ["v2/methods.ts"], extra: ["v2/old.ts"] });
  });

  // Two full TypeScript programs (one per version): ~15 s alone, and over 30 s on two cores shared
  // with the other packages' tests.
  it("round-trips the real types through typescript-json-schema without losing a constraint", { timeout: 180_000 }, () => {
    for (const [version, model] of models) expect(checkRoundTrip(model, files.get(`${version}/types.ts`)!, version)).toEqual([]);
  });

  it("leaves no require() in the generated validators", () => {
    for (const version of ["v1", "v2"]) {
      const code = readFileSync(join(GENERATED_DIR, version, "validators.ts"), "utf8");
      expect(code).not.toMatch(/\brequire\s*\(/);
      expect(code).not.toMatch(/module\.exports/);
    }
  });
});

// Each check compiles a TypeScript program: 11–14 s each with every package's tests running at once in CI.
describe("round trip", { timeout: 120_000 }, () => {
  const model = new SchemaModel(fixtureDocument(), "fixture");
  const types = generateVersion(model, "fixture").get("fixture/types.ts")!;

  it("passes on the fixture's own types", () => {
    expect(checkRoundTrip(model, types, "fixture")).toEqual([]);
  });

  it("catches a type that made a required property optional, a nullable field non-nullable and dropped a variant", () => {
    const broken = types
      .replace("  messageId: string;\n  content: ContentBlock;", "  messageId?: string;\n  content: ContentBlock;")
      .replace("  uri?: string | null;", "  uri?: string;")
      .replace("  | ContentBlockImage\n", "");
    expect(checkRoundTrip(model, broken, "fixture")).toEqual([
      "ContentBlock: union members ContentBlockText, ContentBlockUnknown ≠ schema variants ContentBlockImage, ContentBlockText, ContentBlockUnknown",
      "ContentBlockImage.uri: nullable in the schema, not in the type",
      "SessionUpdateAgentMessageChunk.messageId: required in the schema, optional in the type",
    ]);
  });
});

describe("types emitted for the fixture", () => {
  const types = generateVersion(new SchemaModel(fixtureDocument(), "fixture"), "fixture").get("fixture/types.ts")!;

  it("keeps open enums open and closed enums closed", () => {
    expect(types).toContain('export type StopReason = "end_turn" | "cancelled" | (string & {});');
    expect(types).toContain('export type Role = "assistant" | "user";');
  });

  it("keeps optional, nullable and both apart", () => {
    expect(types).toMatch(/export interface SessionUpdateUsageUpdate \{[^}]*\n {2}used: number;\n {2}size: number;\n {2}cost\?: Cost \| null;/);
    expect(types).toContain("  audience?: Role[] | null;");
    expect(types).toMatch(/interface RequestPermissionOutcomeSelected \{\n {2}outcome: "selected";\n {2}optionId: string;/);
  });

  it("emits unions of named variants, allOf as extends, and a MethodMap", () => {
    expect(types).toContain("export type SessionUpdate =\n  | SessionUpdateAgentMessageChunk\n  | SessionUpdateUsageUpdate\n  | SessionUpdateUnknown;");
    expect(types).toContain("export interface ContentBlockText extends ContentBase {");
    expect(types).toContain("  sessionUpdate: UnknownTag;");
    expect(types).toContain('"session/update": { params: SessionNotification; result: never; kind: "notification"; direction: "agent_to_client" };');
  });
});

describe("validators generated for the fixture", async () => {
  const dir = join(scratch, "fixture-validators");
  writeGenerated(generateVersion(new SchemaModel(fixtureDocument(), "fixture"), "fixture"), dir);
  const validators = (await import(pathToFileURL(join(dir, "fixture", "validators.ts")).href)) as Record<string, CompiledValidator>;
  const check = (name: string, value: unknown) => {
    const validate = validators[name]!;
    return validate(value) ? "valid" : toValidationErrors(validate.errors);
  };

  it("accepts known variants, unknown tags and nulls where the schema allows them", () => {
    expect(
      check("SessionNotification", { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "hi" } } }),
    ).toBe("valid");
    expect(check("SessionNotification", { sessionId: "s", update: { sessionUpdate: "_x/custom", anything: [1] } })).toBe("valid");
    expect(check("SessionUpdateUsageUpdate", { sessionUpdate: "usage_update", used: 1, size: 2, cost: null })).toBe("valid");
  });

  it("points at a missing property inside a known variant (never demoted to unknown)", () => {
    expect(check("SessionNotification", { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", messageId: "m" } })).toEqual([
      { path: "/update/content", message: "must have required property 'content'" },
    ]);
  });

  it("names the allowed tags of a closed union", () => {
    expect(check("RequestPermissionResponse", { outcome: { outcome: "maybe" } })).toEqual([
      { path: "/outcome/outcome", message: 'must be one of the known "outcome" values: "cancelled", "selected" (got "maybe")' },
    ]);
  });

  it("lists enum values, counts code points for minLength and checks integer formats", () => {
    expect(check("Annotations", { audience: ["robot"] })).toEqual([{ path: "/audience/0", message: 'must be one of "assistant", "user"' }]);
    expect(check("ContentBlockText", { type: "text", text: "" })).toEqual([{ path: "/text", message: "must NOT have fewer than 1 characters" }]);
    expect(check("ContentBlockText", { type: "text", text: "😀" })).toBe("valid");
    expect(check("SessionUpdateUsageUpdate", { sessionUpdate: "usage_update", used: 1.5, size: 2 })).toEqual([{ path: "/used", message: "must be integer" }]);
    expect(check("ProtocolVersion", 70000)).toEqual([{ path: "", message: "must be <= 65535" }]);
  });

  it("escapes property names in paths (RFC 6901)", () => {
    expect(check("Annotations", { _meta: "x" })).toEqual([{ path: "/_meta", message: "must be object or null" }]);
  });
});

describe("schema conventions", () => {
  const broken = (edit: (document: SchemaDocument) => void): string => {
    const document = fixtureDocument();
    edit(document);
    try {
      new SchemaModel(document, "edited fixture");
      return "accepted";
    } catch (error) {
      expect(error).toBeInstanceOf(SchemaConventionError);
      return (error as Error).message;
    }
  };

  it("accepts the fixture", () => {
    expect(broken(() => {})).toBe("accepted");
  });

  it("rejects a $ref to a missing $def", () => {
    expect(broken((d) => (d.$defs["PromptRequest"]!.properties!["sessionId"] = { $ref: "#/$defs/Nope" }))).toContain(
      '#/$defs/PromptRequest/properties/sessionId: $ref to missing $def "Nope"',
    );
  });

  it("rejects a request without a result $def", () => {
    expect(broken((d) => delete d.$defs["PromptResponse"]!["x-result-of"])).toContain(
      'PromptRequest: request "session/prompt" has no $def with "x-result-of": "session/prompt"',
    );
  });

  it("rejects an open union whose if-enum does not list its variants", () => {
    expect(broken((d) => (d.$defs["SessionUpdate"]!.if = { properties: { sessionUpdate: { enum: ["agent_message_chunk"] } } }))).toContain(
      'SessionUpdate: the "if" enum must list exactly the known tags (missing: usage_update; extra: none)',
    );
  });

  it("rejects additionalProperties: false", () => {
    expect(broken((d) => (d.$defs["Cost"]!.additionalProperties = false))).toContain("#/$defs/Cost: objects must not set additionalProperties: false");
  });
});

describe("rewrites of Ajv's output (compact-errors.ts, prune-schema-objects.ts)", () => {
  it("turns each error literal into the builder that rebuilds it, and says which builders it used", () => {
    const code = [
      'return validate1.errors=[{instancePath:instancePath+"/a",schemaPath:"#/properties/a/type",keyword:"type",params:{type: "string"},message:"must be string"}],false;',
      `const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"};`,
      'const err1 = {instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};',
    ].join("\n");
    const { code: out, builders } = compactErrorObjects(code, "test.json");
    expect(out).toContain('typeError(instancePath+"/a","#/properties/a/type","string")');
    expect(out).toContain('requiredError(instancePath,"#/required",missing0)');
    expect(out).toContain('ajvError(instancePath,"#/minimum","minimum",{comparison: ">=", limit: 0},"must be >= 0")');
    expect(out).not.toContain("{instancePath");
    expect(builders).toEqual(["ajvError", "typeError", "requiredError"]);
    for (const name of builders) expect(ERROR_BUILDERS[name]).toContain(`function ${name}(`);
  });

  it("keeps Ajv's message when it is not the one a builder would write", () => {
    const code = 'const e = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"is not text"};';
    expect(compactErrorObjects(code, "test.json").code).toContain('ajvError(instancePath,"#/type","type",{type: "string"},"is not text")');
  });

  it("fails, quoting the literal, on an error object of another shape", () => {
    const code = 'const e = {instancePath,schemaPath:"#/type",keyword:"type",params:{},message:"m",schema:1};';
    expect(() => compactErrorObjects(code, "test.json")).toThrow(
      /test\.json: an Ajv error object of a shape the codegen does not rewrite: \{instancePath,schemaPath/,
    );
  });

  it("replaces a schema object by the parts the code reads, keeps one used whole, drops one never read", () => {
    const code = [
      'const schema1 = {"$id":"x","properties":{"a":{"type":["string","null"]}},"anyOf":[{"enum":["p","q"]}]};',
      'const schema2 = {"$id":"y","type":"object"};',
      'const schema3 = {"$id":"z"};',
      "f(schema1.properties.a.type, schema1.anyOf[0].enum, schema1.properties.a.type);",
      "g(schema2);",
    ].join("\n");
    const out = pruneSchemaObjects(code, "test.json");
    expect(out).toContain('const schema1_properties_a_type = ["string","null"];');
    expect(out).toContain('const schema1_anyOf_0_enum = ["p","q"];');
    expect(out).toContain("f(schema1_properties_a_type, schema1_anyOf_0_enum, schema1_properties_a_type);");
    expect(out).toContain('const schema2 = {"$id":"y","type":"object"};');
    expect(out).not.toContain("schema3");
    expect(out).not.toMatch(/const schema1 = /);
  });

  it("fails on a read that is not a value of the schema object", () => {
    const code = ['const schema1 = {"enum":["a"]};', "h(schema1.properties.missing);"].join("\n");
    expect(() => pruneSchemaObjects(code, "test.json")).toThrow("test.json: schema1.properties.missing is not a value of the schema object");
  });
});
