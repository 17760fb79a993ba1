// The small JSON Schema subset our canonical schemas use (docs/architecture.md §1), and the
// questions every emitter asks about it: which $def is a tagged union, which is an open enum,
// which methods exist. Loading also lints the conventions, so a schema that strays from them
// fails here with the $def named instead of producing subtly wrong code further down.

import { readFileSync } from "node:fs";

/** One JSON Schema node, typed loosely: we only read the keywords listed here. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode | boolean;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  if?: SchemaNode;
  then?: SchemaNode;
  else?: SchemaNode;
  not?: SchemaNode;
  discriminator?: { propertyName: string };
  description?: string;
  title?: string;
  format?: string;
  "x-discriminator"?: string;
  "x-open-enum"?: boolean;
  "x-unknown"?: boolean;
  "x-method"?: string;
  "x-direction"?: Direction;
  "x-kind"?: MethodKind;
  "x-result-of"?: string;
  [keyword: string]: unknown;
}

export type Direction = "client_to_agent" | "agent_to_client" | "both";
export type MethodKind = "request" | "notification";

export interface SchemaDocument {
  $defs: Record<string, SchemaNode>;
  [keyword: string]: unknown;
}

/** A tagged union: closed (`oneOf` + discriminator) or open (`if`/`then`/`else` with an unknown branch). */
export interface TaggedUnion {
  tag: string;
  /** Known tag value → variant $def name, in schema order. */
  variants: Map<string, string>;
  /** The `x-unknown` $def taking every other tag (open unions only). */
  unknown?: string;
}

export interface MethodSpec {
  method: string;
  direction: Direction;
  kind: MethodKind;
  paramsType: string;
  resultType?: string;
}

const REF_PREFIX = "#/$defs/";
const DIRECTIONS: readonly Direction[] = ["client_to_agent", "agent_to_client", "both"];
const KINDS: readonly MethodKind[] = ["request", "notification"];

export class SchemaConventionError extends Error {
  constructor(
    readonly problems: string[],
    source: string,
  ) {
    super(`${source} breaks the schema conventions (docs/architecture.md §1):\n  - ${problems.join("\n  - ")}`);
    this.name = "SchemaConventionError";
  }
}

export function refName(ref: string): string {
  if (!ref.startsWith(REF_PREFIX)) throw new Error(`unsupported $ref "${ref}" (only "${REF_PREFIX}Name" is allowed)`);
  return ref.slice(REF_PREFIX.length);
}

/** The parsed schema plus the facts derived from its annotations. */
export class SchemaModel {
  readonly defs: Record<string, SchemaNode>;
  readonly defNames: string[];
  readonly unions = new Map<string, TaggedUnion>();
  /** x-unknown $def → the tag property its union dispatches on. */
  readonly unknownTag = new Map<string, string>();
  readonly methods: MethodSpec[] = [];

  constructor(
    readonly document: SchemaDocument,
    readonly source: string,
  ) {
    if (!document || typeof document !== "object" || !document.$defs || typeof document.$defs !== "object") {
      throw new SchemaConventionError(["the document has no $defs object"], source);
    }
    this.defs = document.$defs;
    // Sorted so the output does not depend on how the author ordered the file.
    this.defNames = Object.keys(this.defs).sort();
    const problems: string[] = [];
    for (const name of this.defNames) this.collectUnion(name, this.defs[name]!, problems);
    this.collectMethods(problems);
    this.lint(problems);
    if (problems.length > 0) throw new SchemaConventionError(problems, source);
  }

  static load(path: string): SchemaModel {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw new Error(`cannot read schema ${path}: ${(error as Error).message}`);
    }
    let document: SchemaDocument;
    try {
      document = JSON.parse(text) as SchemaDocument;
    } catch (error) {
      throw new Error(`schema ${path} is not valid JSON: ${(error as Error).message}`);
    }
    return new SchemaModel(document, path);
  }

  def(name: string): SchemaNode {
    const node = this.defs[name];
    if (!node) throw new Error(`${this.source}: $ref to missing $def "${name}"`);
    return node;
  }

  /** The const value a variant $def gives its tag property (top level, as Ajv's discriminator needs). */
  tagValueOf(variant: string, tag: string): string | undefined {
    const property = this.defs[variant]?.properties?.[tag];
    if (property && typeof property.const === "string") return property.const;
    if (property?.enum?.length === 1 && typeof property.enum[0] === "string") return property.enum[0];
    return undefined;
  }

  private collectUnion(name: string, node: SchemaNode, problems: string[]): void {
    const tag = node["x-discriminator"];
    if (tag === undefined) return;
    const open = node.if !== undefined;
    const dispatch = open ? node.then : node;
    if (!dispatch?.oneOf) {
      problems.push(`${name}: x-discriminator "${tag}" without a oneOf of variants${open ? " in `then`" : ""}`);
      return;
    }
    if (dispatch.discriminator?.propertyName !== tag) {
      problems.push(`${name}: "discriminator.propertyName" must equal x-discriminator "${tag}"`);
    }
    const variants = new Map<string, string>();
    for (const branch of dispatch.oneOf) {
      if (!branch.$ref) {
        problems.push(`${name}: every oneOf branch must be a $ref to a variant $def`);
        continue;
      }
      const variant = refName(branch.$ref);
      const value = this.tagValueOf(variant, tag);
      if (value === undefined) {
        problems.push(`${name}: variant ${variant} has no top-level "${tag}": {"const": …}`);
        continue;
      }
      if (!this.defs[variant]?.required?.includes(tag)) problems.push(`${variant}: the tag "${tag}" must be required`);
      if (variants.has(value)) problems.push(`${name}: tag value "${value}" is used by two variants`);
      variants.set(value, variant);
    }
    const union: TaggedUnion = { tag, variants };
    if (open) {
      const known = node.if?.properties?.[tag]?.enum;
      const listed = new Set((known ?? []).map(String));
      const missing = [...variants.keys()].filter((value) => !listed.has(value));
      const extra = [...listed].filter((value) => !variants.has(value));
      if (missing.length || extra.length) {
        problems.push(
          `${name}: the "if" enum must list exactly the known tags (missing: ${missing.join(", ") || "none"}; extra: ${extra.join(", ") || "none"})`,
        );
      }
      if (!node.else?.$ref) {
        problems.push(`${name}: an open union's "else" must be a $ref to its x-unknown $def`);
      } else {
        const unknown = refName(node.else.$ref);
        if (this.defs[unknown]?.["x-unknown"] !== true) problems.push(`${unknown}: the unknown branch of ${name} must carry "x-unknown": true`);
        union.unknown = unknown;
        this.unknownTag.set(unknown, tag);
      }
    }
    this.unions.set(name, union);
  }

  private collectMethods(problems: string[]): void {
    const results = new Map<string, string>();
    for (const name of this.defNames) {
      const resultOf = this.defs[name]!["x-result-of"];
      if (resultOf === undefined) continue;
      if (results.has(resultOf)) problems.push(`${name}: "${resultOf}" already has a result $def (${results.get(resultOf)})`);
      results.set(resultOf, name);
    }
    const seen = new Set<string>();
    for (const name of this.defNames) {
      const node = this.defs[name]!;
      const method = node["x-method"];
      if (method === undefined) continue;
      const direction = node["x-direction"];
      const kind = node["x-kind"];
      if (seen.has(method)) problems.push(`${name}: method "${method}" is declared twice`);
      seen.add(method);
      if (!direction || !DIRECTIONS.includes(direction))
        problems.push(`${name}: x-direction must be one of ${DIRECTIONS.join(", ")} (got ${JSON.stringify(direction)})`);
      if (!kind || !KINDS.includes(kind)) problems.push(`${name}: x-kind must be one of ${KINDS.join(", ")} (got ${JSON.stringify(kind)})`);
      const resultType = results.get(method);
      if (kind === "request" && !resultType) problems.push(`${name}: request "${method}" has no $def with "x-result-of": "${method}"`);
      if (kind === "notification" && resultType) problems.push(`${resultType}: "${method}" is a notification and cannot have a result`);
      this.methods.push({ method, direction: direction!, kind: kind!, paramsType: name, ...(resultType ? { resultType } : {}) });
    }
    for (const [method, name] of results) {
      if (!seen.has(method)) problems.push(`${name}: x-result-of names "${method}", which no $def declares with x-method`);
    }
    this.methods.sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
  }

  /** Conventions the emitters rely on: local refs only, open enums shaped as documented. */
  private lint(problems: string[]): void {
    const visit = (node: unknown, where: string): void => {
      if (Array.isArray(node)) {
        node.forEach((item, index) => {
          visit(item, `${where}/${index}`);
        });
        return;
      }
      if (!node || typeof node !== "object") return;
      const schema = node as SchemaNode;
      if (schema.$ref !== undefined) {
        if (typeof schema.$ref !== "string" || !schema.$ref.startsWith(REF_PREFIX)) {
          problems.push(`${where}: $ref ${JSON.stringify(schema.$ref)} is not of the form "${REF_PREFIX}Name"`);
        } else if (!this.defs[refName(schema.$ref)]) {
          problems.push(`${where}: $ref to missing $def "${refName(schema.$ref)}"`);
        }
      }
      if (schema.additionalProperties === false) problems.push(`${where}: objects must not set additionalProperties: false (docs/protocol.md §3.1)`);
      if (schema["x-open-enum"] === true) {
        const [known, fallback] = schema.anyOf ?? [];
        if (schema.anyOf?.length !== 2 || !Array.isArray(known?.enum) || fallback?.type !== "string" || fallback.enum) {
          problems.push(`${where}: x-open-enum must be {"anyOf": [{"type": "string", "enum": [...]}, {"type": "string"}]}`);
        }
      }
      for (const [key, value] of Object.entries(schema)) {
        if (key === "enum" || key === "const" || key === "examples" || key === "default") continue;
        if (key === "properties" && value && typeof value === "object") {
          for (const [prop, sub] of Object.entries(value)) visit(sub, `${where}/properties/${prop}`);
        } else if (value && typeof value === "object") {
          visit(value, `${where}/${key}`);
        }
      }
    };
    for (const name of this.defNames) visit(this.defs[name], `#/$defs/${name}`);
  }
}
