// Small facts about JSON values and prompt content shared by the agent and client runtimes (and
// the CLI), so each is written once.

// The JSON-value helpers live in @acpkit/schema (the package every other depends on); core
// re-exports them so the runtimes have one import for all shared helpers.
export { isJsonObject, ownEntry } from "@acpkit/schema/lazy";

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
