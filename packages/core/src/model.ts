// The model both runtimes expose (docs/architecture.md §4): pinned-v2 shapes whatever version the
// connection runs. Named once here so @acpkit/agent and @acpkit/client speak the same types.
import type { v1, v2 } from "@acpkit/schema";

/** One session update in acpkit's one shape (a v2 `SessionUpdate`; v1 wire updates are bridged into it). */
export type SessionUpdate = v2.SessionUpdate;

/** @deprecated Renamed `SessionUpdate` ("model" read as the language model); this alias goes in the next release. */
export type ModelUpdate = SessionUpdate;
/** A content block of a prompt or message (text, image, audio, resource link, embedded resource, or a custom `_…` type). */
export type ContentBlock = v2.ContentBlock;
/** One item of a tool call's content: a content block, a diff, or a custom item such as `_acpkit/terminal`. */
export type ToolCallContent = v2.ToolCallContent;
/** A file (and optional line) a tool call touches. */
export type ToolCallLocation = v2.ToolCallLocation;
/** What kind of operation a tool call is (`read`, `edit`, …; custom values start with `_`). */
export type ToolKind = v2.ToolKind;
/** A tool call's status on the wire: `pending`, `in_progress`, `completed`, `failed` (custom values start with `_`). */
export type ToolCallStatus = v2.ToolCallStatus;
/** A tool-call patch: the payload of `tool_call_update` and of a permission request's `toolCall`. */
export type ToolCallPatch = v2.ToolCallUpdate;
/** One entry of an items plan: `content`, `priority`, `status`. */
export type PlanEntry = v2.PlanEntry;
/** One choice offered in a permission request (`optionId`, `name`, `kind`). */
export type PermissionOption = v2.PermissionOption;
/** The answer to a permission request: `{ outcome: "selected", optionId }` or `{ outcome: "cancelled" }`. */
export type PermissionOutcome = v2.RequestPermissionOutcome;
/** Why a turn ended: `end_turn`, `max_tokens`, `max_turn_requests`, `refusal`, `cancelled`, or a custom `_…` value. */
export type StopReason = v2.StopReason;
/** An MCP server the agent should connect to for a session (v2 shape: tagged by `type`). */
export type McpServer = v2.McpServer;
/** The contents of a `_meta` object: keys are the sender's; receivers assume nothing about them. */
export type Meta = { [key: string]: unknown };

/** Which kind of conversation message an upsert or chunk belongs to (its `sessionUpdate` without `_chunk`). */
export type MessageKind = "user_message" | "agent_message" | "agent_thought";

/** A session configuration option with its current value (`select` or `boolean`; wire shape of both versions). */
export type ConfigOption = v2.SessionConfigOption;
/** A slash command the agent offers (`available_commands_update`). */
export type AvailableCommand = v2.AvailableCommand;
/** One entry of `session/list`. */
export type SessionListEntry = v2.SessionInfo;

/** A mode a session can run in (v1 `SessionMode`; pinned v2 has no modes). */
export interface SessionMode {
  id: string;
  name: string;
  description?: string | null;
}

/** A session's modes: the current one and every mode `session/set_mode` may switch to (v1 only). */
export interface SessionModes {
  currentModeId: string;
  availableModes: readonly SessionMode[];
}

/** How much attention a notice asks for; other strings are shown as `info`. */
export type NoticeSeverity = "info" | "warning" | "error" | (string & {});

/** A notice for the user (v1 `notice` update; only for clients that advertise notices). */
export interface Notice {
  severity: NoticeSeverity;
  title: string;
  message?: string | null;
}

/** A compaction's state (v1 `compaction_update`); other strings are kept as they are. */
export type CompactionStatus = "in_progress" | "completed" | "failed" | "cancelled" | (string & {});

/** How a terminal command ended: its exit code, or the signal that stopped it. */
export interface TerminalExitStatus {
  exitCode: number | null;
  signal: string | null;
}

/** The value a config option is set to: a value id (select) or a boolean (boolean options, v1). */
export type ConfigValue = string | boolean;

/** A form field schema of an elicitation (v1 `ElicitationSchema`: a flat object schema). */
export type ElicitationSchema = v1.ElicitationSchema;
/** The answer to an elicitation: `accept` (with the form's values), `decline` or `cancel`. */
export type ElicitationResult = v1.CreateElicitationResponse;
/** One submitted form value. */
export type ElicitationValue = v1.ElicitationContentValue;
