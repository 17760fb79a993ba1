// Content blocks and tool-call content items between v1 and pinned v2.
// The field sets are identical (docs/protocol.md §4.3); the differences are v2's open unions (unknown
// block / item types, custom annotation roles), which v1 cannot carry, and v1's `terminal` item,
// which pinned v2 does not have and the client model keeps as a custom item (B7).
// Values are passed through by reference whenever nothing needs to change: no copying per chunk.
import type { v1, v2 } from "@acpkit/schema";
// jsonEqual lives in core's root entry (a client's reducer needs it without the bridge); imported
// through it so that it exists once.
import { jsonEqual } from "../index.js";
import type { LossyReporter } from "./lossy.js";
import { TERMINAL_CONTENT_TYPE } from "./model-names.js";

export { jsonEqual };

/**
 * The text of a union tag. Generated v2 types give unknown tags a branded type (so a `switch`
 * narrows); at run time every tag is a string, which is what set lookups and messages need.
 */
export function tagOf(tag: unknown): string {
  return typeof tag === "string" ? tag : String(tag);
}

const V1_CONTENT_BLOCK_TYPES: ReadonlySet<string> = new Set(["text", "image", "audio", "resource_link", "resource"]);
const V1_ROLES: ReadonlySet<string> = new Set(["assistant", "user"]);

/**
 * A v2 content block as v1 can carry it, or `undefined` when it cannot (unknown/custom type).
 * Custom roles in `annotations.audience` are removed. Each loss is reported.
 */
export function contentBlockToV1(block: v2.ContentBlock, lossy: LossyReporter, update: unknown): v1.ContentBlock | undefined {
  if (!V1_CONTENT_BLOCK_TYPES.has(tagOf(block.type))) {
    lossy.report("content_block", `content block of type "${tagOf(block.type)}" does not exist in v1; it was left out`, update);
    return undefined;
  }
  const annotations = (block as v1.ContentBlock).annotations;
  const audience = annotations?.audience;
  if (Array.isArray(audience) && audience.some((role) => !V1_ROLES.has(role))) {
    const kept = audience.filter((role) => V1_ROLES.has(role));
    const dropped = audience.filter((role) => !V1_ROLES.has(role));
    lossy.report(
      "content_block",
      `annotation audience role(s) ${dropped.map((r) => JSON.stringify(r)).join(", ")} do not exist in v1; they were left out`,
      update,
    );
    return { ...(block as v1.ContentBlock), annotations: { ...annotations, audience: kept } } as v1.ContentBlock;
  }
  return block as v1.ContentBlock;
}

/** Convert a list of v2 content blocks, leaving out (and reporting) what v1 cannot carry. */
export function contentBlocksToV1(blocks: readonly v2.ContentBlock[], lossy: LossyReporter, update: unknown): v1.ContentBlock[] {
  const out: v1.ContentBlock[] = [];
  for (const block of blocks) {
    const converted = contentBlockToV1(block, lossy, update);
    if (converted !== undefined) out.push(converted);
  }
  return out;
}

/** A v2 tool-call content item as v1 can carry it, or `undefined` (reported) when it cannot. */
export function toolCallContentToV1(item: v2.ToolCallContent, lossy: LossyReporter, update: unknown): v1.ToolCallContent | undefined {
  switch (tagOf(item.type)) {
    case "diff":
      return item as v1.ToolCallContentDiff;
    case "content": {
      const wrapped = item as v2.ToolCallContentContent;
      const block = contentBlockToV1(wrapped.content, lossy, update);
      if (block === undefined) return undefined;
      return block === wrapped.content ? (wrapped as v1.ToolCallContentContent) : { ...wrapped, content: block };
    }
    case TERMINAL_CONTENT_TYPE: {
      // The model's stand-in for a v1 terminal goes back to v1 as the real thing (B7, reversed).
      const { terminalId, _meta } = item as { terminalId?: unknown; _meta?: v1.ToolCallContentTerminal["_meta"] };
      if (typeof terminalId === "string") {
        return _meta === undefined ? { type: "terminal", terminalId } : { type: "terminal", terminalId, _meta };
      }
      break;
    }
  }
  lossy.report("content_block", `tool-call content of type "${tagOf(item.type)}" does not exist in v1; it was left out`, update);
  return undefined;
}

/** Convert a list of v2 tool-call content items, leaving out (and reporting) what v1 cannot carry. */
export function toolCallContentsToV1(items: readonly v2.ToolCallContent[], lossy: LossyReporter, update: unknown): v1.ToolCallContent[] {
  const out: v1.ToolCallContent[] = [];
  for (const item of items) {
    const converted = toolCallContentToV1(item, lossy, update);
    if (converted !== undefined) out.push(converted);
  }
  return out;
}

/** A v1 tool-call content item in the model: identical, except `terminal` becomes `_acpkit/terminal` (B7). */
export function toolCallContentFromV1(item: v1.ToolCallContent): v2.ToolCallContent {
  if (item.type !== "terminal") return item as v2.ToolCallContent;
  const out: Record<string, unknown> = { type: TERMINAL_CONTENT_TYPE, terminalId: item.terminalId };
  if (item._meta !== undefined) out._meta = item._meta;
  return out as v2.ToolCallContent;
}

/** Convert a list of v1 tool-call content items; the array is reused when nothing changes. */
export function toolCallContentsFromV1(items: readonly v1.ToolCallContent[]): v2.ToolCallContent[] {
  if (!items.some((item) => item.type === "terminal")) return items as v2.ToolCallContent[];
  return items.map(toolCallContentFromV1);
}
