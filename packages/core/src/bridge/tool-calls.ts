// Tool-call payloads between v1 and pinned v2 (docs/protocol.md §4.4, §5.2, §5.4, §7.1).
// v1 patches treat `null` as "omitted"; v2 patches treat it as "clear". v1 creates with
// `tool_call` (title required), v2 with the first `tool_call_update`. Properties the bridge does
// not know are copied unchanged (bridges preserve unknown properties, docs/protocol.md §3.1).
import { setOwnField } from "../index.js";
import { toolCallContentsFromV1, toolCallContentsToV1 } from "./content.js";
import type { LossyReporter } from "./lossy.js";
import type { v1, v2 } from "@acpkit/schema";

export const V1_TOOL_KINDS: ReadonlySet<string> = new Set(["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"]);
export const V1_TOOL_STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "completed", "failed"]);

/** The title a v1 `tool_call` gets when the model has none (v1 requires one, docs/protocol.md B4.1). */
export const DEFAULT_TOOL_TITLE = "Tool call";

/** Fields of a tool-call patch that follow the absent / null / value rules. */
const PATCH_FIELDS: ReadonlySet<string> = new Set(["title", "kind", "status", "content", "locations", "rawInput", "rawOutput", "_meta"]);

/**
 * A v1 tool-call patch (`tool_call_update` body or permission `toolCall`) as a model patch:
 * `null` fields are dropped (v1 `null` ≡ omitted; in v2 it would clear), `terminal` content
 * becomes `_acpkit/terminal` (B7). Used for v1 `tool_call` bodies as well.
 */
export function toolCallPatchFromV1<T extends { toolCallId: string }>(patch: T): T {
  let out: Record<string, unknown> | undefined;
  for (const key in patch) {
    const value = (patch as Record<string, unknown>)[key];
    if (value === null && PATCH_FIELDS.has(key)) {
      out ??= { ...patch } as Record<string, unknown>;
      delete out[key];
    } else if (key === "content" && Array.isArray(value)) {
      const converted = toolCallContentsFromV1(value as v1.ToolCallContent[]);
      if (converted !== value) (out ??= { ...patch } as Record<string, unknown>)[key] = converted;
    }
  }
  return (out ?? patch) as T;
}

/**
 * The v1 `tool_call` that introduces a model tool call to a v1 client (B4.1): the string title or
 * "Tool call", kind/status only when v1 has the value, the other fields when non-null.
 * `content` (already in v1 form) overrides the patch's content when given.
 */
export function toolCallCreateToV1(patch: v2.ToolCallUpdate, lossy: LossyReporter, update: unknown, content?: v1.ToolCallContent[]): v1.SessionUpdateToolCall {
  const out: Record<string, unknown> = { sessionUpdate: "tool_call", toolCallId: patch.toolCallId, title: DEFAULT_TOOL_TITLE };
  for (const key in patch) {
    const value = (patch as unknown as Record<string, unknown>)[key];
    if (value === undefined || value === null || key === "toolCallId" || key === "sessionUpdate") continue;
    switch (key) {
      case "title":
        out.title = value;
        break;
      case "kind":
        if (V1_TOOL_KINDS.has(value as string)) out.kind = value;
        else lossy.report("enum_value", `tool kind ${JSON.stringify(value)} does not exist in v1; the v1 default "other" applies`, update);
        break;
      case "status":
        if (V1_TOOL_STATUSES.has(value as string)) out.status = value;
        else lossy.report("enum_value", `tool status ${JSON.stringify(value)} does not exist in v1; it was left out`, update);
        break;
      case "content":
        out.content = toolCallContentsToV1(value as v2.ToolCallContent[], lossy, update);
        break;
      default:
        setOwnField(out, key, value);
    }
  }
  if (content !== undefined) out.content = content;
  return out as unknown as v1.SessionUpdateToolCall;
}

/**
 * A later model patch as a v1 patch (docs/protocol.md §7.1 `tool_call_update` row): values kept,
 * `content`/`locations` `null` → `[]`, `kind: null` → "other", `status: null` → "pending",
 * `title`/`rawInput`/`rawOutput` `null` omitted; custom kinds → "other", custom statuses omitted.
 * Every approximation is reported. Returns the patch without the `sessionUpdate` tag.
 */
export function toolCallPatchToV1(patch: v2.ToolCallUpdate, lossy: LossyReporter, update: unknown): v1.ToolCallUpdate {
  const out: Record<string, unknown> = { toolCallId: patch.toolCallId };
  for (const key in patch) {
    const value = (patch as unknown as Record<string, unknown>)[key];
    if (value === undefined || key === "toolCallId" || key === "sessionUpdate") continue;
    switch (key) {
      case "content":
        out.content = value === null ? [] : toolCallContentsToV1(value as v2.ToolCallContent[], lossy, update);
        break;
      case "locations":
        out.locations = value === null ? [] : value;
        break;
      case "kind":
        if (value === null) {
          out.kind = "other";
          lossy.report("clear_field", `v1 cannot clear "kind"; sent the default "other"`, update);
        } else if (V1_TOOL_KINDS.has(value as string)) {
          out.kind = value;
        } else {
          out.kind = "other";
          lossy.report("enum_value", `tool kind ${JSON.stringify(value)} does not exist in v1; sent "other"`, update);
        }
        break;
      case "status":
        if (value === null) {
          out.status = "pending";
          lossy.report("clear_field", `v1 cannot clear "status"; sent the default "pending"`, update);
        } else if (V1_TOOL_STATUSES.has(value as string)) {
          out.status = value;
        } else {
          lossy.report("enum_value", `tool status ${JSON.stringify(value)} does not exist in v1; the previous status stays`, update);
        }
        break;
      case "title":
      case "rawInput":
      case "rawOutput":
        if (value === null) lossy.report("clear_field", `v1 cannot clear "${key}"; the clear was left out`, update);
        else setOwnField(out, key, value);
        break;
      case "_meta":
        // Notification-scoped in both versions (X5, X7): `null` means nothing.
        if (value !== null) out._meta = value;
        break;
      default:
        setOwnField(out, key, value);
    }
  }
  return out as unknown as v1.ToolCallUpdate;
}
