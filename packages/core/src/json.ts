// Small facts about JSON values and prompt content shared by the agent and client runtimes (and
// the CLI), so each is written once.

// The JSON-value helpers of every package from core up. @acpkit/schema keeps its own
// `isJsonObject` and `ownEntry` for its modules (it sits below core and may not import it), and core
// does not import schema's at startup: nothing of schema is loaded before a version is negotiated
// (registry.ts).

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `table[key]` for a key a peer chose: own entries only (never `Object.prototype`'s `constructor`, …). */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * `target[key] = value` for a key a peer chose. `"__proto__"` is a legal JSON key, and JSON.parse
 * makes it an ordinary own property; assigned with `=`, it would replace the target's prototype
 * instead, so the field would vanish from the copy (and from what is sent on) while its members
 * showed through as inherited ones. Here it stays a field.
 */
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

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
