// The round trip of `pnpm codegen --check`: turn the generated types.ts back into JSON Schema
// with typescript-json-schema and compare it with the source schema, $def by $def. A type
// emitter bug that drops a required property, widens a const, merges a union or confuses
// optional with nullable shows up here as a named difference.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as TJS from "typescript-json-schema";
import { refName, type SchemaModel, type SchemaNode } from "./schema-model.js";

type Json = Record<string, unknown>;

/** Returns one line per lost constraint (empty when the types kept everything we compare). */
export function checkRoundTrip(model: SchemaModel, typesSource: string, version: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), `acpkit-roundtrip-${version}-`));
  try {
    const file = join(dir, "types.ts");
    writeFileSync(file, typesSource);
    const program = TJS.getProgramFromFiles([file], { strict: true, skipLibCheck: true, noEmit: true });
    const generator = TJS.buildGenerator(program, { required: true, ignoreErrors: true, strictNullChecks: true });
    if (!generator) return ["typescript-json-schema could not load the generated types"];
    const names = model.defNames;
    const generated = generator.getSchemaForSymbols(names) as Json;
    const definitions = (generated["definitions"] ?? {}) as Record<string, Json>;
    return new RoundTrip(model, definitions).compareAll();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

class RoundTrip {
  private readonly problems: string[] = [];

  constructor(
    private readonly model: SchemaModel,
    private readonly definitions: Record<string, Json>,
  ) {}

  compareAll(): string[] {
    for (const name of this.model.defNames) {
      const generated = this.definitions[name];
      if (!generated) {
        this.problems.push(`${name}: no type of that name was generated`);
        continue;
      }
      this.compareDef(name, this.model.def(name), generated);
    }
    return this.problems;
  }

  private compareDef(name: string, source: SchemaNode, generated: Json): void {
    const union = this.model.unions.get(name);
    if (union) {
      const expected = [...union.variants.values(), ...(union.unknown ? [union.unknown] : [])].sort();
      const actual = this.refsOf(generated).sort();
      if (expected.join() !== actual.join()) this.problems.push(`${name}: union members ${actual.join(", ")} ≠ schema variants ${expected.join(", ")}`);
      return;
    }
    if (source["x-open-enum"] === true) {
      const known = (source.anyOf?.[0]?.enum ?? []).map(String).sort();
      const found = this.enumValues(generated).sort();
      if (known.join() !== found.join()) this.problems.push(`${name}: open enum known values ${found.join(", ")} ≠ schema ${known.join(", ")}`);
      if (!this.acceptsAnyString(generated)) this.problems.push(`${name}: open enum lost its string fallback`);
      return;
    }
    if (source.enum) {
      const expected = source.enum.map(String).sort();
      const found = this.enumValues(generated).sort();
      if (expected.join() !== found.join()) this.problems.push(`${name}: enum ${found.join(", ")} ≠ schema ${expected.join(", ")}`);
      return;
    }
    if (source.type === "object" && (source.properties || source.allOf)) this.compareObject(name, source, generated);
  }

  private compareObject(name: string, source: SchemaNode, generated: Json): void {
    const { required, properties } = this.flatten(source);
    const actualRequired = new Set((generated["required"] as string[] | undefined) ?? []);
    const actualProperties = (generated["properties"] ?? {}) as Record<string, Json>;
    for (const key of required) if (!actualRequired.has(key)) this.problems.push(`${name}.${key}: required in the schema, optional in the type`);
    for (const key of actualRequired) if (!required.has(key)) this.problems.push(`${name}.${key}: optional in the schema, required in the type`);
    for (const [key, property] of properties) {
      const actual = actualProperties[key];
      if ((property as unknown) === false) {
        // A forbidden property (`"result": false`) is typed `?: never`, which has no JSON Schema form.
        if (actual) this.problems.push(`${name}.${key}: forbidden in the schema, allowed by the type`);
        continue;
      }
      if (!actual) {
        this.problems.push(`${name}.${key}: missing from the type`);
        continue;
      }
      if (
        property.const !== undefined &&
        actual["const"] !== property.const &&
        !(this.enumValues(actual).length === 1 && this.enumValues(actual)[0] === property.const)
      ) {
        this.problems.push(`${name}.${key}: const ${JSON.stringify(property.const)} became ${JSON.stringify(actual)}`);
      }
      const nullableInSchema = this.sourceAllowsNull(property);
      const nullableInType = this.generatedAllowsNull(actual);
      if (nullableInSchema !== nullableInType) {
        this.problems.push(
          `${name}.${key}: ${nullableInSchema ? "nullable in the schema, not in the type" : "not nullable in the schema, nullable in the type"}`,
        );
      }
    }
  }

  /** Own and inherited (allOf $ref) properties and required names of an object $def. */
  private flatten(node: SchemaNode): { required: Set<string>; properties: Map<string, SchemaNode> } {
    const required = new Set(node.required ?? []);
    const properties = new Map<string, SchemaNode>();
    for (const part of node.allOf ?? []) {
      const base = this.flatten(part.$ref ? this.model.def(refName(part.$ref)) : part);
      for (const key of base.required) required.add(key);
      for (const [key, value] of base.properties) properties.set(key, value);
    }
    for (const [key, value] of Object.entries(node.properties ?? {})) {
      // A variant narrows an inherited property (a tag const): the narrower one is what the type says.
      properties.set(key, value);
    }
    return { required, properties };
  }

  private sourceAllowsNull(node: SchemaNode, seen = new Set<string>()): boolean {
    if (node.$ref) {
      const target = refName(node.$ref);
      if (seen.has(target)) return false;
      seen.add(target);
      if (this.model.unions.has(target)) return false;
      return this.sourceAllowsNull(this.model.def(target), seen);
    }
    if (node.type === "null" || (Array.isArray(node.type) && node.type.includes("null"))) return true;
    if (node.const === null || node.enum?.includes(null)) return true;
    return (node.anyOf ?? node.oneOf ?? []).some((branch) => this.sourceAllowsNull(branch, seen));
  }

  private generatedAllowsNull(node: Json, seen = new Set<string>()): boolean {
    const ref = node["$ref"];
    if (typeof ref === "string") {
      const target = ref.replace("#/definitions/", "");
      if (seen.has(target)) return false;
      seen.add(target);
      const definition = this.definitions[target];
      return definition ? this.generatedAllowsNull(definition, seen) : false;
    }
    const type = node["type"];
    if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
    const enumValues = node["enum"];
    if (Array.isArray(enumValues) && enumValues.includes(null)) return true;
    return ((node["anyOf"] ?? node["oneOf"] ?? []) as Json[]).some((branch) => this.generatedAllowsNull(branch, seen));
  }

  private refsOf(node: Json): string[] {
    return ((node["anyOf"] ?? node["oneOf"] ?? []) as Json[])
      .map((branch) => branch["$ref"])
      .filter((ref): ref is string => typeof ref === "string")
      .map((ref) => ref.replace("#/definitions/", ""));
  }

  private enumValues(node: Json): unknown[] {
    if (Array.isArray(node["enum"])) return node["enum"] as unknown[];
    if (node["const"] !== undefined) return [node["const"]];
    return ((node["anyOf"] ?? []) as Json[]).flatMap((branch) => this.enumValues(branch));
  }

  /** typescript-json-schema renders `string & {}` as allOf [object, string]; any string branch counts. */
  private acceptsAnyString(node: Json): boolean {
    if (node["type"] === "string" && node["enum"] === undefined && node["const"] === undefined) return true;
    return ((node["anyOf"] ?? node["allOf"] ?? []) as Json[]).some((branch) => this.acceptsAnyString(branch));
  }
}
