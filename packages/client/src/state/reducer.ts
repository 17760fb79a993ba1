// The session reducer: pure functions from (state, model update or client action) to a new state,
// applying docs/protocol.md §5 exactly (M1–M11 messages, T1–T8 tool calls, P1–P3 plans) plus the client's
// local cancel mark (§6.3 C2/C4).
//
// Purity and cost: the input state is never changed observably. Per update we build one small
// record (a message or tool call has a fixed handful of fields), append to a shared-backing
// `AppendList` (O(1)) and replace one slot of a `PVector` (O(log32 n)); see persistent.ts. Nothing
// proportional to the content already received is copied, so applying chunk 200 000 costs what
// chunk 10 000 did. Replacement updates (`content: [...]`) copy the array they carry, once.
import { isJsonObject } from "@acpkit/core";
import type { Meta } from "@acpkit/core";
import {
  AGENT_TERMINAL_OUTPUT,
  AGENT_TERMINAL_UPDATE,
  COMPACTION_SUMMARY_CHUNK,
  COMPACTION_UPDATE,
  CURRENT_MODE_UPDATE,
  jsonEqual,
  NOTICE_UPDATE,
  STATE_UPDATE,
} from "@acpkit/core";
import { applyAgentTerminalOutput, applyAgentTerminalUpdate, applyStateUpdate } from "./activity.js";
import type { v2 } from "@acpkit/schema";
import { append, appendTarget, emptyList, keyedAdd, keyedAlias, keyedFind, keyedSet, listOf, vectorGet } from "./persistent.js";
import { type CompactionJSON, MAX_STATE_COMPACTIONS, MAX_STATE_NOTICES, type NoticeJSON, type MessageKind, type SessionState } from "./session-state.js";
import { type MessageRecord, type PlanRecord, type ToolCallRecord, messageIdOf, planIdOf, toolCallIdOf } from "./records.js";

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

import { withColdFields, withDiagnostic, withHotFields, withMessages, withToolCalls } from "./state-copy.js";

/** Prefix of the ids given to the prompts the client sent (M11: an echo attaches to them). */
export const PROMPT_MESSAGE_ID_PREFIX = "acpkit-prompt-";

const CHUNK_KIND: Record<string, MessageKind> = {
  user_message_chunk: "user_message",
  agent_message_chunk: "agent_message",
  agent_thought_chunk: "agent_thought",
};

/** Statuses that leave a tool call unfinished (C2); any other wire status ends the local cancel mark (C4). */
export const UNFINISHED: ReadonlySet<string> = new Set(["pending", "in_progress"]);

/**
 * Apply one model update (pinned-v2 shape) and return the new state; `state` is left as it was.
 * Unknown update variants are ignored and listed in `state.diagnostics`.
 */
export function applyUpdate(state: SessionState, update: v2.SessionUpdate): SessionState {
  const problem = malformed(update);
  if (problem !== undefined) return withDiagnostic(state, "invalid_update", problem, update);
  switch (update.sessionUpdate) {
    case "user_message_chunk":
    case "agent_message_chunk":
    case "agent_thought_chunk":
      return applyMessageChunk(state, CHUNK_KIND[update.sessionUpdate]!, update as v2.SessionUpdateAgentMessageChunk);
    case "user_message":
    case "agent_message":
    case "agent_thought":
      return applyMessageUpdate(state, update.sessionUpdate, update as v2.SessionUpdateAgentMessage);
    case "tool_call_update":
      return applyToolCallPatch(state, update as v2.SessionUpdateToolCallUpdate);
    case "tool_call_content_chunk":
      return applyToolCallContentChunk(state, update as v2.SessionUpdateToolCallContentChunk);
    case "plan_update":
      return applyPlanUpdate(state, update as v2.SessionUpdatePlanUpdate);
    case "usage_update": {
      const { used, size, cost } = update as v2.SessionUpdateUsageUpdate;
      return withColdFields(state, { usage: cost === undefined || cost === null ? { used, size } : { used, size, cost } });
    }
    case "session_info_update":
      return applySessionInfo(state, update as v2.SessionUpdateSessionInfoUpdate);
    case "available_commands_update":
      return withColdFields(state, { availableCommands: (update as v2.SessionUpdateAvailableCommandsUpdate).availableCommands });
    case "config_option_update":
      return withColdFields(state, { configOptions: (update as v2.SessionUpdateConfigOptionUpdate).configOptions });
    case CURRENT_MODE_UPDATE: {
      const modeId = (update as { currentModeId?: unknown }).currentModeId;
      if (typeof modeId === "string") return withColdFields(state, { currentModeId: modeId });
      return withDiagnostic(state, "unknown_update", `${CURRENT_MODE_UPDATE} without a string currentModeId was ignored`, update);
    }
    case NOTICE_UPDATE:
      return applyNotice(state, update as unknown as Record<string, unknown>);
    case COMPACTION_UPDATE:
    case COMPACTION_SUMMARY_CHUNK:
      return applyCompaction(state, update as unknown as Record<string, unknown>);
    case STATE_UPDATE:
      return applyStateUpdate(state, update as unknown as Record<string, unknown>);
    case AGENT_TERMINAL_UPDATE:
      return applyAgentTerminalUpdate(state, update as unknown as Record<string, unknown>);
    case AGENT_TERMINAL_OUTPUT:
      return applyAgentTerminalOutput(state, update as unknown as Record<string, unknown>);
    default:
      return withDiagnostic(state, "unknown_update", `session update ${JSON.stringify(update.sessionUpdate)} is not known; it was ignored`, update);
  }
}

/**
 * Apply `updates` in order: the same state as applying them one by one with `applyUpdate`, but a
 * run of chunks to one existing message (or tool call) becomes one new record, not one per chunk.
 * The session uses it to apply what arrived in batches; intermediate states are never built.
 */
export function applyUpdates(state: SessionState, updates: readonly v2.SessionUpdate[]): SessionState {
  let i = 0;
  while (i < updates.length) {
    const end = chunkRunEnd(updates, i);
    const appended = end - i > 1 ? appendChunkRun(state, updates, i, end) : undefined;
    if (appended !== undefined) {
      state = appended;
      i = end;
    } else {
      state = applyUpdate(state, updates[i]!);
      i++;
    }
  }
  return state;
}

/** Where the run of well-formed chunks of one variant for one id that starts at `start` ends. */
function chunkRunEnd(updates: readonly v2.SessionUpdate[], start: number): number {
  const firstUpdate = updates[start]!;
  const first = firstUpdate as unknown as Record<string, unknown>;
  const tag = first.sessionUpdate;
  const idField = tag === "tool_call_content_chunk" ? "toolCallId" : typeof tag === "string" && Object.hasOwn(CHUNK_KIND, tag) ? "messageId" : undefined;
  if (idField === undefined || malformed(firstUpdate) !== undefined) return start + 1;
  const id = first[idField];
  let end = start + 1;
  while (end < updates.length) {
    const next = updates[end] as unknown as Record<string, unknown>;
    // Same tag and the same (string) id as the well-formed first chunk: of `malformed`'s checks
    // only the content's shape is left to make, and this is the per-chunk hot path.
    if (next.sessionUpdate !== tag || next[idField] !== id || !isJsonObject(next.content)) break;
    end++;
  }
  return end;
}

/**
 * Append the blocks of a chunk run (from `chunkRunEnd`) to its message or tool call with one new
 * record; `undefined` when the run needs the one-by-one rules (an unseen id, a kind mismatch, an
 * echo being matched).
 */
function appendChunkRun(state: SessionState, updates: readonly v2.SessionUpdate[], start: number, end: number): SessionState | undefined {
  const first = updates[start]!;
  if (first.sessionUpdate === "tool_call_content_chunk") {
    const toolCalls = state.data.toolCalls;
    const position = keyedFind(toolCalls, (first as v2.ToolCallContentChunk).toolCallId, toolCallIdOf);
    if (position === undefined) return undefined;
    const previous = vectorGet(toolCalls.records, position)!;
    const items = appendTarget(previous.content);
    for (let i = start; i < end; i++) items.push((updates[i] as v2.ToolCallContentChunk).content);
    return withToolCalls(state, keyedSet(toolCalls, position, { ...previous, content: listOf(items) }));
  }
  const kind = CHUNK_KIND[first.sessionUpdate as string]!;
  const messageId = (first as v2.ContentChunk).messageId;
  const messages = state.data.messages;
  const position = keyedFind(messages, messageId, messageIdOf);
  if (position === undefined) return undefined;
  const record = vectorGet(messages.records, position)!;
  if (record.kind !== kind || record.echoCursor >= 0) return undefined;
  const items = appendTarget(record.content);
  for (let i = start; i < end; i++) items.push((updates[i] as v2.ContentChunk).content);
  const updated: MessageRecord = { messageId, kind, content: listOf(items), meta: record.meta, echoCursor: -1 };
  return withMessages(state, keyedSet(messages, position, updated));
}

// ── messages (M1–M11) ──────────────────────────────────────────────────────────────────────

/** M10: an update for a message of another kind is ignored, with a diagnostic. */
function kindMismatch(state: SessionState, messageId: string, recordKind: MessageKind, kind: MessageKind, update: unknown): SessionState {
  return withDiagnostic(state, "message_kind_mismatch", `message ${JSON.stringify(messageId)} is a ${recordKind}; a ${kind} update for it was ignored`, update);
}

function applyMessageChunk(state: SessionState, kind: MessageKind, update: v2.ContentChunk): SessionState {
  const messageId = update.messageId;
  const block = update.content;
  const messages = state.data.messages;
  const position = keyedFind(messages, messageId, messageIdOf);
  if (position === undefined) {
    const echo = attachEcho(state, messageId, kind);
    if (echo !== undefined) return applyMessageChunk(echo, kind, update);
    // M3: an unseen id creates the message; chunk `_meta` never becomes message meta (M8, X7).
    const record: MessageRecord = { messageId, kind, content: listOf([block]), meta: undefined, echoCursor: -1 };
    return withMessages(state, keyedAdd(messages, messageId, record));
  }
  const record = vectorGet(messages.records, position)!;
  if (record.kind !== kind) return kindMismatch(state, messageId, record.kind, kind, update);
  if (record.echoCursor >= 0) {
    // M11: an echo of the prompt we already show repeats its blocks; skip those, keep anything new.
    const expected = record.content.items[record.echoCursor];
    if (record.echoCursor < record.content.length && jsonEqual(expected, block)) {
      const cursor = record.echoCursor + 1;
      return withMessages(state, keyedSet(messages, position, { ...record, echoCursor: cursor < record.content.length ? cursor : -1 }));
    }
  }
  const updated: MessageRecord = { messageId, kind, content: append(record.content, block), meta: record.meta, echoCursor: -1 };
  return withMessages(state, keyedSet(messages, position, updated));
}

function applyMessageUpdate(state: SessionState, kind: MessageKind, update: v2.MessageUpdate): SessionState {
  const { messageId } = update;
  const messages = state.data.messages;
  const position = keyedFind(messages, messageId, messageIdOf);
  if (position === undefined) {
    const echo = attachEcho(state, messageId, kind);
    if (echo !== undefined) return applyMessageUpdate(echo, kind, update);
    // M4: absent fields take client defaults (no content, no meta).
    const record: MessageRecord = {
      messageId,
      kind,
      content: listOf(Array.isArray(update.content) ? update.content.slice() : []),
      meta: isJsonObject(update._meta) ? update._meta : undefined,
      echoCursor: -1,
    };
    return withMessages(state, keyedAdd(messages, messageId, record));
  }
  const record = vectorGet(messages.records, position)!;
  if (record.kind !== kind) return kindMismatch(state, messageId, record.kind, kind, update);
  // M5–M7: absent content is unchanged; an array replaces everything; `[]` and `null` clear.
  let content = record.content;
  if (update.content !== undefined) content = listOf(update.content === null ? [] : update.content.slice());
  // M8 (X6): absent meta is unchanged, `null` clears, an object replaces wholesale.
  let meta = record.meta;
  if (update._meta !== undefined) meta = update._meta === null ? undefined : (update._meta as Meta);
  const echoCursor = update.content !== undefined ? -1 : record.echoCursor;
  return withMessages(state, keyedSet(messages, position, { messageId, kind, content, meta, echoCursor }));
}

/**
 * M11: during a live turn, the first user message with an unseen id is the agent's echo of the
 * prompt the client recorded in `beginTurn`. The prompt message takes the echo's id (so the
 * agent's later updates find it) instead of a second copy being shown.
 */
function attachEcho(state: SessionState, messageId: string, kind: MessageKind): SessionState | undefined {
  const position = state.data.promptMessage;
  if (kind !== "user_message" || position === undefined || !state.data.turnInProgress) return undefined;
  const messages = state.data.messages;
  const prompt = vectorGet(messages.records, position)!;
  const renamed: MessageRecord = { ...prompt, messageId, echoCursor: prompt.content.length > 0 ? 0 : -1 };
  return withHotFields(
    state,
    keyedAlias(keyedSet(messages, position, renamed), messageId, position),
    state.data.toolCalls,
    state.data.turns,
    state.data.turnInProgress,
    state.data.turnFirstToolCall,
    state.data.promptsSent,
    undefined,
  );
}

// ── tool calls (T1–T8, C2, C4) ─────────────────────────────────────────────────────────────

const SCALAR_PATCH_FIELDS = ["title", "kind", "status", "locations", "rawInput", "rawOutput", "name", "capabilities"] as const;

/** A tool call patch (a `tool_call_update` or a permission's `toolCall`) applied with T1–T3 rules. */
export function applyToolCallPatch(state: SessionState, patch: v2.ToolCallUpdate): SessionState {
  const toolCalls = state.data.toolCalls;
  const position = keyedFind(toolCalls, patch.toolCallId, toolCallIdOf);
  const previous = position === undefined ? undefined : vectorGet(toolCalls.records, position)!;
  // T1: an unseen id creates the tool call with nothing set. Its creating update's `_meta` is the
  // tool call's own; later `_meta` values are notification-scoped (X7) and never patch it.
  const record: Mutable<ToolCallRecord> = previous
    ? { ...previous }
    : { toolCallId: patch.toolCallId, content: emptyList(), cancelledLocally: false, ...(isJsonObject(patch._meta) ? { meta: patch._meta } : {}) };
  for (const field of SCALAR_PATCH_FIELDS) {
    const value = (patch as unknown as Record<string, unknown>)[field];
    if (value === undefined) continue; // T2: absent = unchanged
    if (value === null)
      delete record[field]; // T2: null = cleared
    else (record as Record<string, unknown>)[field] = value;
  }
  // T3: content is replaced as a whole array; `[]` and `null` clear it.
  if (patch.content !== undefined) record.content = listOf(patch.content === null ? [] : patch.content.slice());
  // C4: a later wire status that finishes the call (completed, failed, …) replaces the local mark.
  if (record.cancelledLocally && typeof patch.status === "string" && !UNFINISHED.has(patch.status)) record.cancelledLocally = false;
  return withToolCalls(state, position === undefined ? keyedAdd(toolCalls, patch.toolCallId, record) : keyedSet(toolCalls, position, record));
}

function applyToolCallContentChunk(state: SessionState, update: v2.ToolCallContentChunk): SessionState {
  const toolCalls = state.data.toolCalls;
  const position = keyedFind(toolCalls, update.toolCallId, toolCallIdOf);
  if (position === undefined) {
    // T4 [acpkit]: a chunk for an unseen id creates the tool call with defaults, then appends.
    const record: ToolCallRecord = { toolCallId: update.toolCallId, content: listOf([update.content]), cancelledLocally: false };
    return withToolCalls(state, keyedAdd(toolCalls, update.toolCallId, record));
  }
  const previous = vectorGet(toolCalls.records, position)!;
  return withToolCalls(state, keyedSet(toolCalls, position, { ...previous, content: append(previous.content, update.content) }));
}

// ── plans, session info ────────────────────────────────────────────────────────────────────

function applyPlanUpdate(state: SessionState, update: v2.PlanUpdate): SessionState {
  // P1–P3: the plan with that id is replaced (created when new); unknown types are kept raw.
  const plan = update.plan;
  const plans = state.data.cold.plans;
  const record: PlanRecord = { id: plan.id, plan };
  const position = keyedFind(plans, plan.id, planIdOf);
  return withColdFields(state, { plans: position === undefined ? keyedAdd(plans, plan.id, record) : keyedSet(plans, position, record) });
}

function applySessionInfo(state: SessionState, update: v2.SessionInfoUpdate): SessionState {
  const info: { title?: string; updatedAt?: string } = { ...state.data.cold.sessionInfo };
  for (const field of ["title", "updatedAt"] as const) {
    const value = update[field];
    if (value === null) delete info[field];
    else if (value !== undefined) info[field] = value;
  }
  return withColdFields(state, { sessionInfo: info });
}

/**
 * Updates normally arrive validated; this catches the few holes the reducer would otherwise trip
 * over (a missing id, content of the wrong shape) and says which field is wrong.
 */
function malformed(update: v2.SessionUpdate): string | undefined {
  const u = update as unknown as Record<string, unknown>;
  if (typeof u !== "object" || u === null || typeof u.sessionUpdate !== "string") return "a session update must be an object with a string sessionUpdate";
  const tag = u.sessionUpdate;
  if (Object.hasOwn(CHUNK_KIND, tag) || tag === "user_message" || tag === "agent_message" || tag === "agent_thought") {
    if (typeof u.messageId !== "string") return `${tag}: messageId must be a string`;
    if (Object.hasOwn(CHUNK_KIND, tag) ? !isJsonObject(u.content) : u.content !== undefined && u.content !== null && !Array.isArray(u.content))
      return `${tag}: content has the wrong shape`;
  } else if (tag === "tool_call_update" || tag === "tool_call_content_chunk") {
    if (typeof u.toolCallId !== "string") return `${tag}: toolCallId must be a string`;
    if (tag === "tool_call_update" ? u.content !== undefined && u.content !== null && !Array.isArray(u.content) : !isJsonObject(u.content))
      return `${tag}: content has the wrong shape`;
  } else if (tag === "plan_update") {
    if (!isJsonObject(u.plan) || typeof u.plan.id !== "string") return "plan_update: plan.id must be a string";
  } else if (tag === "usage_update") {
    if (typeof u.used !== "number" || typeof u.size !== "number") return "usage_update: used and size must be numbers";
  }
  return undefined;
}

/** The newest `limit` entries of `list` plus `item`. */
function boundedAppend<T>(list: readonly T[], item: T, limit: number): T[] {
  return list.length >= limit ? [...list.slice(list.length - limit + 1), item] : [...list, item];
}

function applyNotice(state: SessionState, update: Record<string, unknown>): SessionState {
  if (typeof update.title !== "string" || typeof update.severity !== "string") {
    return withDiagnostic(state, "invalid_update", "a notice without a string severity and title was ignored", update);
  }
  const notice: NoticeJSON = { severity: update.severity, title: update.title };
  if (typeof update.message === "string") notice.message = update.message;
  return withColdFields(state, { notices: boundedAppend(state.data.cold.notices, notice, MAX_STATE_NOTICES) });
}

/** compaction_update sets status/summary/error; compaction_summary_chunk appends to the summary. */
function applyCompaction(state: SessionState, update: Record<string, unknown>): SessionState {
  const id = update.compactionId;
  if (typeof id !== "string") return withDiagnostic(state, "invalid_update", "a compaction update without a string compactionId was ignored", update);
  const list = state.data.cold.compactions;
  const index = list.findIndex((entry) => entry.compactionId === id);
  const current: CompactionJSON = index < 0 ? { compactionId: id, status: "in_progress", summary: [] } : list[index]!;
  const changed: CompactionJSON = { ...current };
  if (update.sessionUpdate === COMPACTION_SUMMARY_CHUNK) {
    changed.summary = [...current.summary, update.content as v2.ContentBlock];
  } else {
    if (typeof update.status === "string") changed.status = update.status;
    if (Array.isArray(update.summary)) changed.summary = [...(update.summary as v2.ContentBlock[])];
    if (typeof update.error === "string") changed.error = update.error;
  }
  const compactions = index < 0 ? boundedAppend(list, changed, MAX_STATE_COMPACTIONS) : list.map((entry, i) => (i === index ? changed : entry));
  return withColdFields(state, { compactions });
}
