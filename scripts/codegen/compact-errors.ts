// Rewrites the error objects in Ajv's standalone output into calls of a few small builders.
//
// Ajv writes every error as an object literal at the check that fails:
//   {instancePath:instancePath+"/size",schemaPath:"#/properties/size/type",keyword:"type",
//    params:{type: "integer"},message:"must be integer"}
// About a third of a generated validators file is such literals (v1: 758 of them), and every
// process that validates loads, scans and pre-parses all of them although a valid message builds
// none. As `typeError(instancePath+"/size","#/properties/size/type","integer")` the same error
// costs a fifth of the bytes. Each builder returns an object with the same keys in the same order
// and the same message text, so what callers see in `.errors` (and in the { path, message }
// errors built from it) does not change: packages/schema/test/compact-errors.test.ts compares the
// generated validators' errors with those of Ajv compiling the same schemas at run time.
//
// Only literals of exactly Ajv's shape (instancePath, schemaPath, keyword, params, message, in
// that order) are rewritten; anything else fails the codegen with the literal quoted, so a change
// in Ajv's output cannot slip through half-converted.

/** The builders, as source text emitted into a generated file (only those it calls). */
export const ERROR_BUILDERS: Readonly<Record<string, string>> = {
  ajvError: `function ajvError(instancePath, schemaPath, keyword, params, message) {
  return { instancePath, schemaPath, keyword, params, message };
}`,
  // Ajv's message joins a list of types with commas ("must be string,null"), as String(array) does.
  typeError: `function typeError(instancePath, schemaPath, type) {
  return { instancePath, schemaPath, keyword: "type", params: { type }, message: "must be " + type };
}`,
  requiredError: `function requiredError(instancePath, schemaPath, missingProperty) {
  return { instancePath, schemaPath, keyword: "required", params: { missingProperty }, message: "must have required property '" + missingProperty + "'" };
}`,
  constError: `function constError(instancePath, schemaPath, allowedValue) {
  return { instancePath, schemaPath, keyword: "const", params: { allowedValue }, message: "must be equal to constant" };
}`,
  enumError: `function enumError(instancePath, schemaPath, allowedValues) {
  return { instancePath, schemaPath, keyword: "enum", params: { allowedValues }, message: "must be equal to one of the allowed values" };
}`,
  anyOfError: `function anyOfError(instancePath, schemaPath) {
  return { instancePath, schemaPath, keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
}`,
};

const FIELDS = ["instancePath", "schemaPath", "keyword", "params", "message"] as const;

/** The index of the quote that closes the string literal opening at `start`. */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  for (; i < text.length && text[i] !== quote; i++) if (text[i] === "\\") i++;
  return i;
}

/**
 * The bracketed expression opening at `text[start]`: the index just past its closing bracket (-1
 * when it never closes) and the parts between its outer brackets, split at the commas outside any
 * nested bracket or string literal.
 */
function bracketed(text: string, start: number): { end: number; parts: string[] } {
  const parts: string[] = [];
  let depth = 0;
  let from = start + 1;
  for (let i = start; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"' || char === "'") i = stringEnd(text, i);
    else if (char === "{" || char === "(" || char === "[") depth++;
    else if (char === "," && depth === 1) {
      parts.push(text.slice(from, i));
      from = i + 1;
    } else if (char === "}" || char === ")" || char === "]") {
      if (--depth === 0) {
        parts.push(text.slice(from, i));
        return { end: i + 1, parts };
      }
    }
  }
  return { end: -1, parts };
}

/** The five fields of an Ajv error literal (its parts), as source text, or undefined when it has another shape. */
function errorFields(parts: readonly string[]): Record<(typeof FIELDS)[number], string> | undefined {
  if (parts.length !== FIELDS.length) return undefined;
  const fields = {} as Record<(typeof FIELDS)[number], string>;
  for (const [index, name] of FIELDS.entries()) {
    const part = parts[index]!;
    if (part === name && name === "instancePath") fields[name] = name;
    else if (part.startsWith(`${name}:`)) fields[name] = part.slice(name.length + 1);
    else return undefined;
  }
  return fields;
}

/** The value of a one-key params literal (`{type: "null"}` → `"null"`), if it has exactly `key`. */
function onlyParam(params: string, key: string): string | undefined {
  const { end, parts } = bracketed(params, 0);
  if (params[0] !== "{" || end !== params.length || parts.length !== 1 || !parts[0]!.startsWith(`${key}: `)) return undefined;
  return parts[0]!.slice(key.length + 2);
}

/** The builder call for one error literal. */
function builderCall(fields: Record<(typeof FIELDS)[number], string>): { builder: string; call: string } {
  const { instancePath, schemaPath, keyword, params, message } = fields;
  const where = `${instancePath},${schemaPath}`;
  if (keyword === '"type"') {
    const type = onlyParam(params, "type");
    const literalType = type && /^"([a-z]+)"$/.exec(type)?.[1];
    // A literal type must give exactly Ajv's message; a type read from the schema object
    // (`schema12.properties.x.type`, a list) gives Ajv's "must be a,b" by the same join.
    if (type && (literalType ? message === `"must be ${literalType}"` : /^"must be [a-z]+(,[a-z]+)+"$/.test(message)))
      return { builder: "typeError", call: `typeError(${where},${type})` };
  }
  if (keyword === '"required"') {
    const missing = onlyParam(params, "missingProperty");
    if (missing && /^\w+$/.test(missing) && message === `"must have required property '"+${missing}+"'"`)
      return { builder: "requiredError", call: `requiredError(${where},${missing})` };
  }
  if (keyword === '"const"') {
    const allowed = onlyParam(params, "allowedValue");
    if (allowed && message === '"must be equal to constant"') return { builder: "constError", call: `constError(${where},${allowed})` };
  }
  if (keyword === '"enum"') {
    const allowed = onlyParam(params, "allowedValues");
    if (allowed && message === '"must be equal to one of the allowed values"') return { builder: "enumError", call: `enumError(${where},${allowed})` };
  }
  if (keyword === '"anyOf"' && params === "{}" && message === '"must match a schema in anyOf"') return { builder: "anyOfError", call: `anyOfError(${where})` };
  return { builder: "ajvError", call: `ajvError(${where},${keyword},${params},${message})` };
}

/**
 * `code` (Ajv standalone output) with every error literal replaced by a builder call, and the
 * names of the builders it now calls (emit those from ERROR_BUILDERS).
 */
export function compactErrorObjects(code: string, source: string): { code: string; builders: string[] } {
  for (const name of Object.keys(ERROR_BUILDERS)) {
    if (new RegExp(`\\b${name}\\b`).test(code)) throw new Error(`${source}: Ajv's output already uses the name ${name}; rename the error builder`);
  }
  const used = new Set<string>();
  let out = "";
  let from = 0;
  for (const match of code.matchAll(/\{instancePath[,:]/g)) {
    if (match.index < from) continue;
    const { end, parts } = bracketed(code, match.index);
    const fields = end < 0 ? undefined : errorFields(parts);
    if (!fields) {
      const context = code.slice(match.index, match.index + 160).replace(/\s+/g, " ");
      throw new Error(`${source}: an Ajv error object of a shape the codegen does not rewrite: ${context}…`);
    }
    const { builder, call } = builderCall(fields);
    used.add(builder);
    out += code.slice(from, match.index) + call;
    from = end;
  }
  out += code.slice(from);
  return { code: out, builders: Object.keys(ERROR_BUILDERS).filter((name) => used.has(name)) };
}
