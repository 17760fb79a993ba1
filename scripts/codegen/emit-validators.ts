// Emits `validators.ts` for one protocol version: Ajv standalone code, compiled now so nothing
// compiles a schema at run time, with one exported validator per $def.
//
// Ajv's standalone output is not usable as-is in an ESM package:
// - it `require`s small runtime helpers (ucs2length, equal) even with `code.esm`; we replace
//   each with our own inlined helper, and fail the codegen on any require we do not know;
// - format checks reference a `formats` object we must provide; we inline ours;
// - a closed union's discriminator error says only "value of tag must be in oneOf"; we rewrite
//   it at codegen time to list the allowed tags (we know the schema each function was compiled
//   from).
// - every error is an object literal at its check, a third of the output; they become calls of
//   a few builders with the same result (compact-errors.ts).
// - each schema is emitted as a whole object so that errors can point at a part of it; only the
//   parts the code reads are kept (prune-schema-objects.ts).
// - each validator takes its context (instancePath, parentData, …) as one object, so every call
//   of one validator from another allocates that object: several per message on the receive
//   path. We rewrite the functions to take the context as positional parameters (see
//   `positionalContext`), so validating a valid message allocates next to nothing.
// Each $def is added to Ajv as its own schema so a $def referenced from many places is compiled
// into exactly one function (with `#/$defs/X` refs Ajv would compile a copy per referencing root).

import Ajv2020 from "ajv/dist/2020.js";
import { _ } from "ajv/dist/compile/codegen/index.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { compactErrorObjects, ERROR_BUILDERS } from "./compact-errors.js";
import { pruneSchemaObjects } from "./prune-schema-objects.js";
import { refName, type SchemaModel, type SchemaNode } from "./schema-model.js";

/**
 * Integer and float formats used by the ACP schemas (the bounds are also in minimum/maximum), as
 * source text: it is emitted verbatim into the generated module, so the output does not depend
 * on how the codegen itself was transpiled.
 */
export const NUMBER_FORMATS: Record<string, string> = {
  int32: "(value) => Number.isInteger(value) && value >= -2147483648 && value <= 2147483647",
  int64: "(value) => Number.isInteger(value)",
  uint16: "(value) => Number.isInteger(value) && value >= 0 && value <= 65535",
  uint32: "(value) => Number.isInteger(value) && value >= 0 && value <= 4294967295",
  uint64: "(value) => Number.isInteger(value) && value >= 0",
  double: "(value) => Number.isFinite(value)",
};

const RUNTIME_HELPERS: Record<string, { name: string; code: string }> = {
  "ajv/dist/runtime/ucs2length": {
    name: "ucs2length",
    code: `/** String length in Unicode code points (a surrogate pair counts once), as JSON Schema requires. */
function ucs2length(text) {
  let length = 0;
  for (let i = 0; i < text.length; length++) {
    const code = text.charCodeAt(i++);
    if (code >= 0xd800 && code <= 0xdbff && i < text.length && (text.charCodeAt(i) & 0xfc00) === 0xdc00) i++;
  }
  return length;
}`,
  },
  "ajv/dist/runtime/equal": {
    name: "deepEqual",
    code: `/** Structural equality of two JSON values (for const/enum with objects and uniqueItems). */
function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.prototype.hasOwnProperty.call(b, key) || !deepEqual(a[key], b[key])) return false;
  return true;
}`,
  },
};

const FORMATS_CODE = `const formats = {
${Object.entries(NUMBER_FORMATS)
  .map(([name, check]) => `  ${name}: { validate: ${check} },`)
  .join("\n")}
};`;

/** Keywords that carry no validation meaning; dropped from the copy Ajv compiles to keep the output small. */
function isAnnotation(keyword: string): boolean {
  return keyword === "description" || keyword === "title" || keyword === "examples" || keyword === "$comment" || keyword.startsWith("x-");
}

function schemaId(version: string, name: string): string {
  return `https://acpkit.dev/schema/${version}/${name}`;
}

/** A copy of a $def for Ajv: refs made absolute (one schema per $def), annotations removed. */
function prepareForAjv(node: unknown, version: string): unknown {
  if (Array.isArray(node)) return node.map((item) => prepareForAjv(item, version));
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (isAnnotation(key)) continue;
    if (key === "$ref") out[key] = schemaId(version, refName(value as string));
    else if ((key === "properties" || key === "patternProperties") && value && typeof value === "object") {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, prepareForAjv(sub, version)]));
    } else if (key === "enum" || key === "const" || key === "required") out[key] = value;
    else out[key] = prepareForAjv(value, version);
  }
  return out;
}

export function createAjv(): InstanceType<typeof Ajv2020.default> {
  const ajv = new Ajv2020.default({
    code: { source: true, esm: true, lines: true, formats: _`formats` },
    discriminator: true,
    strict: false,
    allErrors: false,
    inlineRefs: false,
    logger: false,
  });
  // Ajv2020 always tracks which properties/items were evaluated (for unevaluatedProperties/
  // unevaluatedItems), and while it does, an anyOf cannot stop at its first valid branch: every
  // nullable field (`anyOf: [X, {type: "null"}]`) then builds and drops an error object for the
  // null branch on every valid message. The ACP schemas use no unevaluated* keyword (the codegen
  // checks), so the tracking is switched off.
  (ajv.opts as { unevaluated: boolean }).unevaluated = false;
  // Ajv only needs to know the formats exist: the code it emits calls the `formats` object we
  // inline, never these placeholders.
  for (const name of Object.keys(NUMBER_FORMATS)) ajv.addFormat(name, { type: "number", validate: () => true });
  return ajv;
}

/**
 * An Ajv instance holding every $def of `model` as a schema of its own, and the schema id of each
 * $def by name: what the generated code is compiled from. Tests compile the same schemas at run
 * time with it to compare errors with the generated code's.
 */
export function ajvWithDefs(model: SchemaModel, version: string): { ajv: InstanceType<typeof Ajv2020.default>; ids: Record<string, string> } {
  const ajv = createAjv();
  const ids: Record<string, string> = {};
  for (const name of model.defNames) {
    if (/"unevaluated(Properties|Items)"/.test(JSON.stringify(model.def(name)))) {
      throw new Error(`${model.source}: $def ${name} uses unevaluatedProperties/Items, which createAjv() switches off; turn the tracking back on first`);
    }
    ajv.addSchema({ $id: schemaId(version, name), ...(prepareForAjv(model.def(name), version) as object) });
    ids[name] = schemaId(version, name);
  }
  return { ajv, ids };
}

export function emitValidators(model: SchemaModel, version: string): string {
  const { ajv, ids: exports } = ajvWithDefs(model, version);
  let code: string;
  try {
    code = standaloneCode.default(ajv, exports);
  } catch (error) {
    throw new Error(`${model.source}: Ajv cannot compile the schema: ${(error as Error).message}`);
  }
  code = replaceRequires(code, model.source);
  code = positionalContext(code, model.source);
  code = describeDiscriminatorErrors(code, model);
  code = pruneSchemaObjects(code, model.source);
  const compacted = compactErrorObjects(code, model.source);
  code = typeExports(compacted.code);
  if (/\brequire\s*\(/.test(code)) throw new Error("internal: a require() survived the ESM rewrite");

  const helpers = Object.values(RUNTIME_HELPERS)
    .filter((helper) => new RegExp(`= ${helper.name};`).test(code))
    .map((helper) => helper.code);
  const builders = compacted.builders.map((name) => ERROR_BUILDERS[name]!);
  const usesFormats = /\bformats\.\w+/.test(code);
  return [
    "// @ts-nocheck -- generated JavaScript (Ajv standalone); the exports below are typed.",
    `// Generated by \`pnpm codegen\` from schema/${version}/acp.schema.json. Do not edit.`,
    `// One validator per $def of ACP ${version}. Each returns true or false and leaves Ajv error`,
    "// objects in `.errors`; use validateDefinition / validateParams from @acpkit/schema for",
    "// { path, message } errors.",
    `import type { CompiledValidator } from "../../compiled-validator.js";`,
    "",
    ...helpers.flatMap((helper) => [helper, ""]),
    ...builders.flatMap((builder) => [builder, ""]),
    ...(usesFormats ? [FORMATS_CODE, ""] : []),
    code.replace(/^"use strict";\n?/, "").trim(),
    "",
  ].join("\n");
}

function replaceRequires(code: string, source: string): string {
  return code.replace(/require\("([^"]+)"\)\.default/g, (_match, module: string) => {
    const helper = RUNTIME_HELPERS[module];
    if (!helper) throw new Error(`${source}: Ajv output requires "${module}", which the codegen cannot inline yet`);
    return helper.name;
  });
}

/**
 * Ajv passes a validator's context as an object: `function validate3(data, {instancePath="",
 * parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={})`, called as
 * `validate3(x, {instancePath:instancePath+"/a",parentData:data,parentDataProperty:"a",rootData,
 * dynamicAnchors})`. Both forms are rewritten to positional parameters in the same order, which is
 * the same contract without an object per call. `dynamicAnchors` only serves `$dynamicRef`, which
 * the ACP schemas do not use, so it is dropped. Any other form left over fails the codegen, so a
 * change in Ajv's output cannot slip by.
 */
function positionalContext(code: string, source: string): string {
  const out = code
    .replace(
      /\(data, \{instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors=\{\}\}=\{\}\)/g,
      '(data, instancePath="", parentData, parentDataProperty, rootData=data)',
    )
    .replace(/, \{instancePath,parentData,parentDataProperty,rootData,dynamicAnchors\}\)/g, ", instancePath, parentData, parentDataProperty, rootData)")
    // The path expression may hold commas (a map key is escaped with .replace(/~/g, "~0")), so it
    // is matched lazily up to the next named field rather than up to the first comma.
    .replace(/, \{instancePath:([^{}]+?),parentData:(\w+),parentDataProperty:([^{}]+?),rootData,dynamicAnchors\}\)/g, ", $1, $2, $3, rootData)");
  const left = /\{instancePath=|,parentData[,:]|dynamicAnchors/.exec(out);
  if (left) {
    const context = out.slice(Math.max(0, left.index - 60), left.index + 60).replace(/\s+/g, " ");
    throw new Error(`${source}: Ajv emitted a validator context the codegen does not rewrite: …${context}…`);
  }
  return out;
}

/** `export const X = validate12;` → typed, so the emitted declarations say what the value is. */
function typeExports(code: string): string {
  return code.replace(/^export const (\w+) = (validate\d+);$/gm, "export const $1: CompiledValidator = $2;");
}

/**
 * Rewrites Ajv's "value of tag \"x\" must be in oneOf" to name the allowed tags. Each compiled
 * function belongs to one $def (we add every $def as its own schema), and the error's schemaPath
 * points into that $def, so the oneOf (and its variants' tag constants) can be found exactly.
 */
function describeDiscriminatorErrors(code: string, model: SchemaModel): string {
  const owner = new Map<string, string>();
  for (const match of code.matchAll(/^export const (\w+) = (validate\d+);$/gm)) owner.set(match[2]!, match[1]!);
  const functionStarts = [...code.matchAll(/^function (validate\d+)\(/gm)].map((match) => ({ index: match.index!, name: match[1]! }));
  const pattern =
    /schemaPath:"#([^"]*)\/discriminator",keyword:"discriminator",params:\{error: "mapping", tag: "(\w+)", tagValue: (\w+)\},message:"(?:[^"\\]|\\.)*"/g;
  return code.replace(pattern, (_match, pointer: string, tag: string, tagVariable: string, offset: number) => {
    const fn = functionStarts.filter((start) => start.index < offset).at(-1);
    const defName = fn && owner.get(fn.name);
    if (!defName) throw new Error(`internal: cannot find the $def of a discriminator error at offset ${offset}`);
    const union = resolvePointer(model.def(defName), pointer, defName);
    const values = (union.oneOf ?? []).map((branch) => (branch.$ref ? model.tagValueOf(refName(branch.$ref), tag) : undefined));
    const allowed = values
      .filter((value): value is string => value !== undefined)
      .map((value) => JSON.stringify(value))
      .join(", ");
    const message = `must be one of the known "${tag}" values: ${allowed}`;
    return `schemaPath:"#${pointer}/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "${tag}", tagValue: ${tagVariable}},message:${JSON.stringify(message)}`;
  });
}

function resolvePointer(root: SchemaNode, pointer: string, where: string): SchemaNode {
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  if (!node || typeof node !== "object") throw new Error(`internal: ${where}#${pointer} does not resolve`);
  return node as SchemaNode;
}
