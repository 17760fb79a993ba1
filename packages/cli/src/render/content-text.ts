// Short text forms of content blocks and tool-call content, for the human turn output.
import { AGENT_TERMINAL_CONTENT_TYPE, DIFF_CHANGES_CONTENT_TYPE, isJsonObject, TERMINAL_CONTENT_TYPE } from "@acpkit/core";

/** A content block as text: its text, or a bracketed placeholder for non-text blocks. */
export function contentBlockText(block: unknown): string {
  if (!isJsonObject(block)) return "";
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
      return `[image ${String(block.mimeType ?? "")}]`;
    case "audio":
      return `[audio ${String(block.mimeType ?? "")}]`;
    case "resource_link":
      return `[${String(block.name ?? block.uri)}](${String(block.uri)})`;
    case "resource": {
      const resource = isJsonObject(block.resource) ? block.resource : {};
      return `[resource ${String(resource.uri ?? "")}]`;
    }
    default:
      return `[${String(block.type)}]`;
  }
}

const MAX_SUMMARY = 100;

/** One line describing a tool-call content item: first line of its text, or what a diff touches. */
/** A later-v2 diff's changes as `modify /a, move /b → /c`. */
function diffChangesSummary(changes: unknown): string {
  if (!Array.isArray(changes)) return "";
  return changes
    .filter(isJsonObject)
    .map((change) => `${String(change.operation)} ${typeof change.oldPath === "string" ? `${change.oldPath} → ` : ""}${String(change.path)}`)
    .join(", ");
}

export function summarizeToolContent(item: unknown): string {
  if (!isJsonObject(item)) return "";
  let text: string;
  if (item.type === "content") text = contentBlockText(item.content);
  else if (item.type === "diff") text = `diff ${String(item.path)}`;
  else if (item.type === "terminal" || item.type === TERMINAL_CONTENT_TYPE || item.type === AGENT_TERMINAL_CONTENT_TYPE)
    text = `terminal ${String(item.terminalId)}`;
  else if (item.type === DIFF_CHANGES_CONTENT_TYPE) text = `diff ${diffChangesSummary(item.changes)}`;
  else text = `[${String(item.type)}]`;
  const lines = text.replace(/\n+$/, "").split("\n");
  let first = lines[0] ?? "";
  if (first.length > MAX_SUMMARY) first = first.slice(0, MAX_SUMMARY - 1) + "…";
  else if (lines.length > 1) first += " …";
  return first;
}
