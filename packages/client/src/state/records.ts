// The reducer's internal records of messages, tool calls and plans (what a state's persistent
// collections hold), and their keys. Not part of the JSON contract: state-views.ts turns them into it.
import type { Meta, MessageKind } from "@acpkit/core";
import type { v2 } from "@acpkit/schema";
import type { AppendList } from "./persistent.js";
import type { ToolCallCapabilitiesJSON } from "./state-json.js";

/** @internal */
export interface MessageRecord {
  readonly messageId: string;
  readonly kind: MessageKind;
  readonly content: AppendList<v2.ContentBlock>;
  readonly meta: Meta | undefined;
  /** How many leading blocks an echo of the prompt has matched so far (docs/protocol.md M11), or -1. */
  readonly echoCursor: number;
}

/** @internal */
export interface ToolCallRecord {
  readonly toolCallId: string;
  readonly title?: string;
  readonly kind?: v2.ToolKind;
  readonly status?: v2.ToolCallStatus;
  readonly content: AppendList<v2.ToolCallContent>;
  readonly locations?: v2.ToolCallLocation[];
  readonly rawInput?: unknown;
  readonly rawOutput?: unknown;
  /** The later v2 draft's programmatic tool name. */
  readonly name?: string;
  /** The later v2 draft's client controls (`cancel`: the call may be cancelled with `cancelToolCall`). */
  readonly capabilities?: ToolCallCapabilitiesJSON;
  readonly meta?: Meta;
  /** Marked cancelled by the client (C2) and not finished on the wire since (C4). */
  readonly cancelledLocally: boolean;
}

/** @internal */
export interface PlanRecord {
  readonly id: string;
  readonly plan: v2.PlanUpdateContent;
}

/** @internal The key of a message record (for the reducer's keyed lookups). */
export const messageIdOf = (record: MessageRecord): string => record.messageId;
/** @internal The key of a tool call record. */
export const toolCallIdOf = (record: ToolCallRecord): string => record.toolCallId;
/** @internal The key of a plan record. */
export const planIdOf = (record: PlanRecord): string => record.id;
