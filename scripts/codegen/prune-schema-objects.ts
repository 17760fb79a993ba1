// Replaces the schema objects in Ajv's standalone output by the few values its code reads.
//
// Ajv emits each compiled schema as a constant (`const schema31 = {"$id": …, "properties": {…}};`)
// so that an error can point at a part of it: `params:{type: schema31.properties.audience.type}`,
// `params:{allowedValues: schema32.enum}`. The code reads nothing else of them, yet a process that
// loads the module compiles and builds every one in full: in v1's client-receives module they were
// 12 KB and about 1 ms of its load (compile and evaluation, 12 runs). Each constant is replaced by
// one constant per part the code reads (`const schema31_properties_audience_type = ["array","null"];`),
// which is the same value, shared by every error that refers to it as before; a schema object
// the code never reads is dropped. A schema object used whole stays as it is.

/** `schema31.properties.audience.type` → ["properties", "audience", "type"]; `schema63.anyOf[0].enum` → ["anyOf", 0, "enum"]. */
function pathSteps(path: string): (string | number)[] {
  return [...path.matchAll(/\.([A-Za-z_$][\w$]*)|\[(\d+)\]/g)].map((match) => (match[1] !== undefined ? match[1] : Number(match[2])));
}

export function pruneSchemaObjects(code: string, source: string): string {
  let out = code;
  for (const [line, name, json] of code.matchAll(/^const (schema\d+) = (\{.*\});$/gm)) {
    // One pattern finds the reads and rewrites them, so what is looked up is exactly what is replaced.
    const reads = new RegExp(`\\b${name}\\b((?:\\.[A-Za-z_$][\\w$]*|\\[\\d+\\])*)`, "g");
    const withoutDeclaration = out.replace(line, "\0");
    const paths = new Set([...withoutDeclaration.matchAll(reads)].map(([, path]) => path!));
    if (paths.has("")) continue; // used whole: kept as it is
    let schema: unknown;
    try {
      schema = JSON.parse(json!);
    } catch {
      throw new Error(`${source}: ${name} is not a JSON literal, so the codegen cannot prune it`);
    }
    const constants = new Map<string, string>();
    const declared: string[] = [];
    for (const path of paths) {
      let value: unknown = schema;
      for (const step of pathSteps(path)) value = (value as Record<string | number, unknown> | undefined)?.[step];
      if (value === undefined || typeof value === "function") throw new Error(`${source}: ${name}${path} is not a value of the schema object`);
      const constant = `${name}${path.replace(/\[(\d+)\]/g, "_$1").replace(/\./g, "_")}`;
      constants.set(path, constant);
      declared.push(`const ${constant} = ${JSON.stringify(value)};`);
    }
    out = withoutDeclaration.replace(reads, (_read, path: string) => constants.get(path)!).replace("\0", () => declared.join("\n"));
  }
  return out.replace(/\n{3,}/g, "\n\n");
}
