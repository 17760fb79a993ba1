// The part of the outgoing check the schema cannot express (docs/protocol.md §3.3): on pinned v2, a
// value we *send* in an open enum or as an open union's tag must be a known value or start with
// `_`. Unknown values without `_` are reserved for future ACP versions.
//
// Where those values sit is generated from the schema (generated/vN/open-values.ts), so this
// walk knows nothing about particular types. It runs after schema validation succeeded, so it
// can trust the shape it walks.
import { isJsonObject } from "./methods.js";

import { pointerToken } from "./ajv-errors.js";
import type { CompiledValidator } from "./compiled-validator.js";
import type { ValidationError } from "./validation-result.js";

/** A step of the walk plan; see scripts/codegen/emit-open-values.ts. */
export type OpenValueNode =
  | { ref: string }
  | { items: OpenValueNode }
  | { props: Record<string, OpenValueNode>; bases?: string[] }
  | { union: { tag: string; variants: Record<string, string>; open: boolean } }
  | { openEnum: string[] }
  | { anyOf: OpenValueNode[] };

/** $def name → how to walk a value of it (only $defs that can contain an open value). */
export type OpenValuePlan = Readonly<Record<string, OpenValueNode>>;

type Validators = Readonly<Record<string, CompiledValidator | undefined>>;

function hasOwn(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}

function reservedValueError(path: string, value: string, known: readonly string[], what: string): ValidationError {
  return {
    path,
    message: `${JSON.stringify(value)} is not a known ${what} (${known.map((v) => JSON.stringify(v)).join(", ")}); custom values must start with "_"`,
  };
}

/** Collects every open value in `value` (of $def `defName`) that is neither known nor `_`-prefixed. */
export function findReservedOpenValues(plan: OpenValuePlan, validators: Validators, defName: string, value: unknown): ValidationError[] {
  const errors: ValidationError[] = [];
  const walkDef = (name: string, current: unknown, path: string): void => {
    const node = hasOwn(plan, name) ? plan[name] : undefined;
    if (node) walk(node, current, path, name);
  };
  const walk = (node: OpenValueNode, current: unknown, path: string, name: string): void => {
    if ("ref" in node) return walkDef(node.ref, current, path);
    if ("openEnum" in node) {
      if (typeof current === "string" && !current.startsWith("_") && !node.openEnum.includes(current)) {
        errors.push(reservedValueError(path, current, node.openEnum, `${name} value`));
      }
      return;
    }
    if ("items" in node) {
      if (Array.isArray(current)) {
        current.forEach((item, index) => {
          walk(node.items, item, `${path}/${index}`, name);
        });
      }
      return;
    }
    if ("union" in node) {
      if (!isJsonObject(current)) return;
      const { tag, variants, open } = node.union;
      const tagValue = current[tag];
      if (typeof tagValue !== "string") return;
      if (hasOwn(variants, tagValue)) return walkDef(variants[tagValue]!, current, path);
      if (open && !tagValue.startsWith("_")) {
        errors.push(reservedValueError(`${path}/${pointerToken(tag)}`, tagValue, Object.keys(variants), `${name} "${tag}"`));
      }
      return;
    }
    if ("props" in node) {
      if (!isJsonObject(current)) return;
      for (const base of node.bases ?? []) walkDef(base, current, path);
      for (const key of Object.keys(node.props)) {
        if (hasOwn(current, key)) walk(node.props[key]!, current[key], `${path}/${pointerToken(key)}`, name);
      }
      return;
    }
    // An untagged union: walk the first branch the value is an instance of.
    for (const branch of node.anyOf) {
      if ("ref" in branch) {
        const validate = hasOwn(validators, branch.ref) ? validators[branch.ref] : undefined;
        if (validate?.(current)) return walkDef(branch.ref, current, path);
      } else {
        return walk(branch, current, path, name);
      }
    }
  };
  walkDef(defName, value, "");
  return errors;
}
