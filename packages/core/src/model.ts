// The model both runtimes expose (docs/architecture.md §4): pinned-v2 shapes whatever version the
// connection runs. Named once here so @acpkit/agent and @acpkit/client speak the same types.
import type { v2 } from "@acpkit/schema";

/** One session update in the model (a v2 `SessionUpdate`; v1 wire updates are bridged into it). */
export type ModelUpdate = v2.SessionUpdate;
export type ContentBlock = v2.ContentBlock;
export type ToolCallContent = v2.ToolCallContent;
export type ToolCallLocation = v2.ToolCallLocation;
export type ToolKind = v2.ToolKind;
export type ToolCallStatus = v2.ToolCallStatus;
/** A tool-call patch: the payload of `tool_call_update` and of a permission request's `toolCall`. */
export type ToolCallPatch = v2.ToolCallUpdate;
export type PlanEntry = v2.PlanEntry;
export type PermissionOption = v2.PermissionOption;
export type PermissionOutcome = v2.RequestPermissionOutcome;
export type StopReason = v2.StopReason;
export type McpServer = v2.McpServer;
/** The contents of a `_meta` object: keys are the sender's; receivers assume nothing about them. */
export type Meta = { [key: string]: unknown };
