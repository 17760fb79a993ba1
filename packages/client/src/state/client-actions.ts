// The client's own actions on a session's state (not updates from the agent): a prompt begins a
// turn, a cancel marks it (C2), a response ends it, and permission answers, setup results, mode
// changes and terminals are recorded. Pure functions, like the reducer's.
import { STOP_REASONS } from "@acpkit/core";
import type { v2 } from "@acpkit/schema";
import { append, keyedAdd, keyedFind, keyedSet, listOf, vectorGet, vectorPush, vectorSet } from "./persistent.js";
import { applyToolCallPatch, type Mutable, PROMPT_MESSAGE_ID_PREFIX, UNFINISHED } from "./reducer.js";
import { type MessageRecord, messageIdOf } from "./records.js";
import type { ModesJSON, PermissionJSON, SessionState, ColdStateData, TerminalJSON, TurnJSON } from "./session-state.js";
import { withColdFields, withHotFields, withToolCalls } from "./state-copy.js";

// ── client actions ─────────────────────────────────────────────────────────────────────────

/**
 * The client sent `session/prompt`: a turn starts. With `prompt`, the prompt is recorded as a user
 * message (id `acpkit-prompt-<n>`); an agent's echo of it attaches to that message (M11).
 */
export function beginTurn(state: SessionState, prompt?: readonly v2.ContentBlock[]): SessionState {
  const d = state.data;
  if (prompt === undefined) return withHotFields(state, d.messages, d.toolCalls, d.turns, true, d.toolCalls.records.size, d.promptsSent, undefined);
  // Counted apart from `turns`: a turn that ended in an error response records no turn, and the
  // next prompt must still get an id of its own.
  const promptsSent = d.promptsSent + 1;
  const messageId = `${PROMPT_MESSAGE_ID_PREFIX}${promptsSent}`;
  let messages = d.messages;
  let promptMessage: number | undefined;
  if (keyedFind(messages, messageId, messageIdOf) === undefined) {
    const record: MessageRecord = { messageId, kind: "user_message", content: listOf(prompt.slice()), meta: undefined, echoCursor: -1 };
    promptMessage = messages.records.size;
    messages = keyedAdd(messages, messageId, record);
  }
  return withHotFields(state, messages, d.toolCalls, d.turns, true, d.toolCalls.records.size, promptsSent, promptMessage);
}

/**
 * The client cancelled the turn (docs/protocol.md C2): every tool call of the current turn whose status is
 * `pending`, `in_progress` or unset shows `cancelled` until the wire reports it finished (C4).
 */
export function markTurnCancelled(state: SessionState): SessionState {
  let toolCalls = state.data.toolCalls;
  for (let position = state.data.turnFirstToolCall; position < toolCalls.records.size; position++) {
    const record = vectorGet(toolCalls.records, position)!;
    if (record.cancelledLocally || (record.status !== undefined && !UNFINISHED.has(record.status))) continue;
    toolCalls = keyedSet(toolCalls, position, { ...record, cancelledLocally: true });
  }
  return toolCalls === state.data.toolCalls ? state : withToolCalls(state, toolCalls);
}

/** The `session/prompt` response arrived with `stopReason`: the turn is over. */
export function recordTurnEnd(state: SessionState, stopReason: v2.StopReason): SessionState {
  const d = state.data;
  return withHotFields(state, d.messages, d.toolCalls, append(d.turns, turnRecord(stopReason)), false, d.turnFirstToolCall, d.promptsSent, undefined);
}

/**
 * One frozen `{stopReason}` per stop reason the protocol defines, shared by every turn that ended
 * with it: a session keeps all its turns, and most end alike, so a long session holds a list of
 * pointers rather than an object per turn. Any other value (a newer agent's) gets its own frozen
 * record, so what the agent chooses cannot grow this table.
 */
const SHARED_TURN_RECORDS: ReadonlyMap<string, TurnJSON> = new Map(STOP_REASONS[2].map((stopReason) => [stopReason, Object.freeze({ stopReason })]));

function turnRecord(stopReason: v2.StopReason): TurnJSON {
  return SHARED_TURN_RECORDS.get(stopReason) ?? Object.freeze({ stopReason });
}

/**
 * A permission request arrived (or was answered): its `toolCall` is applied like a
 * `tool_call_update` (docs/protocol.md §4.7) and `{toolCallId, options, outcome}` is added to
 * `permissions`. Without `outcome` the entry stays unanswered until `recordPermissionOutcome`.
 */
export function recordPermission(
  state: SessionState,
  permission: { toolCall: v2.ToolCallUpdate; options: readonly v2.PermissionOption[]; outcome?: v2.RequestPermissionOutcome },
): SessionState {
  const applied = applyToolCallPatch(state, permission.toolCall);
  const entry: PermissionJSON = { toolCallId: permission.toolCall.toolCallId, options: permission.options.slice() };
  if (permission.outcome !== undefined) entry.outcome = permission.outcome;
  return withColdFields(applied, { permissions: vectorPush(applied.data.cold.permissions, entry) });
}

/** Set the outcome of the most recent unanswered permission request for `toolCallId`. */
export function recordPermissionOutcome(state: SessionState, toolCallId: string, outcome: v2.RequestPermissionOutcome): SessionState {
  const permissions = state.data.cold.permissions;
  for (let position = permissions.size - 1; position >= 0; position--) {
    const entry = vectorGet(permissions, position)!;
    if (entry.toolCallId === toolCallId && entry.outcome === undefined) {
      return withColdFields(state, { permissions: vectorSet(permissions, position, { ...entry, outcome }) });
    }
  }
  return state;
}

/** What a session/new, load or resume result (or session/set_config_option) says about modes and options. */
export interface SessionSetupFields {
  modes?: { currentModeId: string; availableModes: readonly ModesJSON["availableModes"][number][] } | null;
  configOptions?: readonly v2.SessionConfigOption[] | null;
}

/** Seed or replace the session's modes and config options from a setup result (absent fields stay). */
export function applySessionSetup(state: SessionState, setup: SessionSetupFields): SessionState {
  const changes: Partial<Mutable<ColdStateData>> = {};
  if (setup.modes) {
    changes.currentModeId = setup.modes.currentModeId;
    changes.availableModes = setup.modes.availableModes.map((mode) => ({ ...mode }));
  }
  if (setup.configOptions) changes.configOptions = [...setup.configOptions];
  return withColdFields(state, changes);
}

/** The client switched the mode (`session/set_mode` succeeded). */
export function recordModeChange(state: SessionState, modeId: string): SessionState {
  return withColdFields(state, { currentModeId: modeId });
}

/** Add or replace the record of one client terminal (by `terminalId`). */
export function recordTerminal(state: SessionState, terminal: TerminalJSON): SessionState {
  const terminals = state.data.cold.terminals;
  const index = terminals.findIndex((existing) => existing.terminalId === terminal.terminalId);
  const copy = index < 0 ? [...terminals, terminal] : terminals.map((existing, i) => (i === index ? terminal : existing));
  return withColdFields(state, { terminals: copy });
}
