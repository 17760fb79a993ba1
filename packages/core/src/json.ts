// Small facts about JSON values and prompt content shared by the agent and client runtimes (and
// the CLI), so each is written once.

// The JSON-value helpers live in @acpkit/schema (the package every other depends on); core
// re-exports them so the runtimes have one import for all shared helpers.
export { isJsonObject, ownEntry, setOwnField } from "@acpkit/schema/methods";

/** Which optional prompt content an agent accepts (v1 `promptCapabilities`, v2 `session.prompt`). */
export interface PromptContentSupport {
  image?: unknown;
  audio?: unknown;
  embeddedContext?: unknown;
}

/**
 * The content block types a prompt may carry (docs/protocol.md K1): `text` and `resource_link`
 * always, `image`, `audio` and `resource` when the matching capability is on (truthy: `true` in
 * v1, a `{}` marker in v2).
 */
export function acceptedPromptBlocks(support: PromptContentSupport | null | undefined): ReadonlySet<string> {
  const accepted = new Set(["text", "resource_link"]);
  if (support?.image) accepted.add("image");
  if (support?.audio) accepted.add("audio");
  if (support?.embeddedContext) accepted.add("resource");
  return accepted;
}

/**
 * The text of a plain text content block: `{ type: "text", text }` and nothing else (a member set
 * to `undefined` counts as absent, as in JSON), else `undefined`. What may travel as bare text: the
 * encoder's fast path (`sessionUpdateParams`), the agent's joined appends and the v1 bridge's
 * record of what it sent all ask this one question.
 */
export function plainTextOf(block: unknown): string | undefined {
  if (typeof block !== "object" || block === null) return undefined;
  const fields = block as Record<string, unknown>;
  const text = fields.text;
  if (fields.type !== "text" || typeof text !== "string") return undefined;
  for (const key in fields) if (key !== "type" && key !== "text" && fields[key] !== undefined) return undefined;
  return text;
}

/** Structural equality of JSON values (key order ignored; `undefined` members equal absent ones). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keysA = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const keysB = Object.keys(rb).filter((k) => rb[k] !== undefined);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) if (!jsonEqual(ra[key], rb[key])) return false;
  return true;
}

/**
 * How a value reads in an error about an argument of the wrong kind: "nothing" (undefined), "null",
 * "a list", "an object", "a number", "a string", … Shared so that every such message says it alike.
 */
export function valueKind(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}
