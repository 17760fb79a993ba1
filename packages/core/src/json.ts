// Small facts about JSON values and prompt content shared by the agent and client runtimes (and
// the CLI), so each is written once.

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
 * `table[key]` for a key a peer chose: only the table's own entries count, so names such as
 * `constructor` or `toString` never reach `Object.prototype`.
 */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
