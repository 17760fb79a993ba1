// Turns Ajv's error objects into our { path, message } errors. Runs only when a value is
// invalid, so clarity wins over speed here.
//
// Ajv reports what its generated code checked, which is not always what a reader needs:
// - a missing property is reported at the object; we point at the property itself;
// - anyOf / oneOf / if failures add a summary error next to the branch errors that explain it;
//   we keep the explanation (the deepest errors) and drop the summary;
// - a nullable value's "must be null" branch is folded into its sibling ("must be object or null"),
//   and a type list reads the same way.

import type { AjvErrorObject } from "./compiled-validator.js";
import type { ValidationError } from "./validation-result.js";

const SUMMARY_KEYWORDS = new Set(["if", "anyOf", "oneOf"]);

interface Candidate {
  path: string;
  message: string;
  /** Depth of Ajv's instancePath: errors that got further into the value explain more. */
  depth: number;
  summary: boolean;
  nullBranch: boolean;
  keyword: string;
}

/** Escapes one JSON Pointer reference token (RFC 6901). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

function depthOf(pointer: string): number {
  let depth = 0;
  for (let i = 0; i < pointer.length; i++) if (pointer.charCodeAt(i) === 47 /* "/" */) depth++;
  return depth;
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function candidate(error: AjvErrorObject): Candidate {
  const base = error.instancePath;
  const params = error.params ?? {};
  const common = { depth: depthOf(base), summary: SUMMARY_KEYWORDS.has(error.keyword), nullBranch: false, keyword: error.keyword };
  switch (error.keyword) {
    case "required": {
      const property = String(params["missingProperty"]);
      return { ...common, path: `${base}/${pointerToken(property)}`, message: `must have required property '${property}'` };
    }
    case "discriminator": {
      const tag = String(params["tag"]);
      const path = `${base}/${pointerToken(tag)}`;
      if (params["error"] === "tag") {
        const message = params["tagValue"] === undefined ? `must have required property '${tag}'` : "must be string";
        return { ...common, path, message };
      }
      return { ...common, path, message: `${error.message ?? "unknown tag"} (got ${show(params["tagValue"])})` };
    }
    case "enum": {
      const allowed = Array.isArray(params["allowedValues"]) ? params["allowedValues"] : [];
      return { ...common, path: base, message: `must be one of ${allowed.map(show).join(", ")}` };
    }
    case "const":
      return { ...common, path: base, message: `must be ${show(params["allowedValue"])}` };
    case "not":
      return { ...common, path: base, message: "must not be one of the values this version reserves or excludes here" };
    case "type": {
      // A type list ("object,null" in Ajv's own message) reads as alternatives.
      const types = Array.isArray(params["type"]) ? params["type"].map(String) : String(params["type"]).split(",");
      return { ...common, path: base, message: `must be ${types.join(" or ")}`, nullBranch: params["type"] === "null" };
    }
    default:
      return { ...common, path: base, message: error.message ?? `fails the "${error.keyword}" rule` };
  }
}

export function toValidationErrors(errors: readonly AjvErrorObject[] | null | undefined): ValidationError[] {
  if (!errors || errors.length === 0) return [{ path: "", message: "is invalid" }];
  let candidates = errors.map(candidate);

  const explained = candidates.filter((c) => !c.summary);
  if (explained.length > 0) candidates = explained;

  // Fold "must be null" into a sibling type error at the same place; drop it when something
  // else explains the failure better.
  const nulls = candidates.filter((c) => c.nullBranch);
  const others = candidates.filter((c) => !c.nullBranch);
  if (nulls.length > 0 && others.length > 0) {
    candidates = others.map((c) => (c.keyword === "type" && nulls.some((n) => n.path === c.path) ? { ...c, message: `${c.message} or null` } : c));
  }

  const deepest = Math.max(...candidates.map((c) => c.depth));
  const seen = new Set<string>();
  const result: ValidationError[] = [];
  for (const c of candidates) {
    if (c.depth !== deepest) continue;
    const key = `${c.path}\u0000${c.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ path: c.path, message: c.message });
  }
  return result;
}
