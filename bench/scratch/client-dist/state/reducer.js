// The session reducer: pure functions from (state, model update or client action) to a new state,
// applying PROTOCOL §5 exactly (M1–M11 messages, T1–T8 tool calls, P1–P3 plans) plus the client's
// local cancel mark (§6.3 C2/C4).
//
// Purity and cost: the input state is never changed observably. Per update we build one small
// record (a message or tool call has a fixed handful of fields), append to a shared-backing
// `AppendList` (O(1)) and replace one slot of a `PVector` (O(log32 n)); see persistent.ts. Nothing
// proportional to the content already received is copied, so applying chunk 200 000 costs what
// chunk 10 000 did. Replacement updates (`content: [...]`) copy the array they carry, once.
import { jsonEqual } from "@acpkit/core";
import { append, emptyList, keyedAdd, keyedAlias, keyedFind, keyedSet, listOf, vectorGet, vectorPush, vectorSet } from "./persistent.js";
import { SessionState, messageIdOf, planIdOf, toolCallIdOf, } from "./session-state.js";
/** The custom model update that carries a v1 `current_mode_update` (see @acpkit/core's bridge). */
const CURRENT_MODE_UPDATE = "_acpkit/current_mode_update";
/** Prefix of the ids given to the prompts the client sent (M11: an echo attaches to them). */
export const PROMPT_MESSAGE_ID_PREFIX = "acpkit-prompt-";
const CHUNK_KIND = {
    user_message_chunk: "user_message",
    agent_message_chunk: "agent_message",
    agent_thought_chunk: "agent_thought",
};
/** Statuses that leave a tool call unfinished (C2); any other wire status ends the local cancel mark (C4). */
const UNFINISHED = new Set(["pending", "in_progress"]);
function next(state, changes) {
    return new SessionState({ ...state.data, ...changes });
}
// The two per-chunk paths change one collection; a single spread plus one property is cheaper
// than merging a `changes` object (this is the reducer's hot loop).
function withMessages(state, messages) {
    const d = state.data;
    return new SessionState({ sessionId: d.sessionId, protocolVersion: d.protocolVersion, messages, toolCalls: d.toolCalls, plans: d.plans, usage: d.usage,
      permissions: d.permissions, turns: d.turns, diagnostics: d.diagnostics, turnInProgress: d.turnInProgress, turnFirstToolCall: d.turnFirstToolCall,
      promptMessage: d.promptMessage, sessionInfo: d.sessionInfo, currentModeId: d.currentModeId, availableCommands: d.availableCommands, configOptions: d.configOptions });
}
function withToolCalls(state, toolCalls) {
    return new SessionState({ ...state.data, toolCalls });
}
function withDiagnostic(state, code, message, update) {
    return next(state, { diagnostics: append(state.data.diagnostics, { code, message, update }) });
}
/**
 * Apply one model update (pinned-v2 shape) and return the new state; `state` is left as it was.
 * Unknown update variants are ignored and listed in `state.diagnostics`.
 */
export function applyUpdate(state, update) {
    const problem = malformed(update);
    if (problem !== undefined)
        return withDiagnostic(state, "invalid_update", problem, update);
    switch (update.sessionUpdate) {
        case "user_message_chunk":
        case "agent_message_chunk":
        case "agent_thought_chunk":
            return applyMessageChunk(state, CHUNK_KIND[update.sessionUpdate], update);
        case "user_message":
        case "agent_message":
        case "agent_thought":
            return applyMessageUpdate(state, update.sessionUpdate, update);
        case "tool_call_update":
            return applyToolCallPatch(state, update);
        case "tool_call_content_chunk":
            return applyToolCallContentChunk(state, update);
        case "plan_update":
            return applyPlanUpdate(state, update);
        case "usage_update": {
            const { used, size, cost } = update;
            return next(state, { usage: cost === undefined || cost === null ? { used, size } : { used, size, cost } });
        }
        case "session_info_update":
            return applySessionInfo(state, update);
        case "available_commands_update":
            return next(state, { availableCommands: update.availableCommands });
        case "config_option_update":
            return next(state, { configOptions: update.configOptions });
        case CURRENT_MODE_UPDATE: {
            const modeId = update.currentModeId;
            if (typeof modeId === "string")
                return next(state, { currentModeId: modeId });
            return withDiagnostic(state, "unknown_update", `${CURRENT_MODE_UPDATE} without a string currentModeId was ignored`, update);
        }
        default:
            return withDiagnostic(state, "unknown_update", `session update ${JSON.stringify(update.sessionUpdate)} is not known; it was ignored`, update);
    }
}
// ── messages (M1–M11) ──────────────────────────────────────────────────────────────────────
/** The record of `messageId` if its kind matches; a diagnostic state if it belongs to another kind (M10). */
function findMessage(state, messageId, kind, update) {
    const messages = state.data.messages;
    const position = keyedFind(messages, messageId, messageIdOf);
    if (position === undefined)
        return { position };
    const record = vectorGet(messages.records, position);
    if (record.kind !== kind) {
        return { position, mismatch: withDiagnostic(state, "message_kind_mismatch", `message ${JSON.stringify(messageId)} is a ${record.kind}; a ${kind} update for it was ignored`, update) };
    }
    return { position };
}
function applyMessageChunk(state, kind, update) {
    const { messageId, content: block } = update;
    const found = findMessage(state, messageId, kind, update);
    if (found.mismatch)
        return found.mismatch;
    const messages = state.data.messages;
    if (found.position === undefined) {
        const echo = attachEcho(state, messageId, kind);
        if (echo !== undefined)
            return applyMessageChunk(echo, kind, update);
        // M3: an unseen id creates the message; chunk `_meta` never becomes message meta (M8, X7).
        const record = { messageId, kind, content: listOf([block]), meta: undefined, echoCursor: -1 };
        return next(state, { messages: keyedAdd(messages, messageId, record) });
    }
    const record = vectorGet(messages.records, found.position);
    if (record.echoCursor >= 0) {
        // M11: an echo of the prompt we already show repeats its blocks; skip those, keep anything new.
        const expected = record.content.items[record.echoCursor];
        if (record.echoCursor < record.content.length && jsonEqual(expected, block)) {
            const cursor = record.echoCursor + 1;
            return next(state, { messages: keyedSet(messages, found.position, { ...record, echoCursor: cursor < record.content.length ? cursor : -1 }) });
        }
    }
    const updated = { messageId, kind, content: append(record.content, block), meta: record.meta, echoCursor: -1 };
    return withMessages(state, keyedSet(messages, found.position, updated));
}
function applyMessageUpdate(state, kind, update) {
    const { messageId } = update;
    const found = findMessage(state, messageId, kind, update);
    if (found.mismatch)
        return found.mismatch;
    const messages = state.data.messages;
    if (found.position === undefined) {
        const echo = attachEcho(state, messageId, kind);
        if (echo !== undefined)
            return applyMessageUpdate(echo, kind, update);
        // M4: absent fields take client defaults (no content, no meta).
        const record = {
            messageId,
            kind,
            content: listOf(Array.isArray(update.content) ? update.content.slice() : []),
            meta: isObject(update._meta) ? update._meta : undefined,
            echoCursor: -1,
        };
        return next(state, { messages: keyedAdd(messages, messageId, record) });
    }
    const record = vectorGet(messages.records, found.position);
    // M5–M7: absent content is unchanged; an array replaces everything; `[]` and `null` clear.
    let content = record.content;
    if (update.content !== undefined)
        content = listOf(update.content === null ? [] : update.content.slice());
    // M8 (X6): absent meta is unchanged, `null` clears, an object replaces wholesale.
    let meta = record.meta;
    if (update._meta !== undefined)
        meta = update._meta === null ? undefined : update._meta;
    const echoCursor = update.content !== undefined ? -1 : record.echoCursor;
    return next(state, { messages: keyedSet(messages, found.position, { messageId, kind, content, meta, echoCursor }) });
}
/**
 * M11: during a live turn, the first user message with an unseen id is the agent's echo of the
 * prompt the client recorded in `beginTurn`. The prompt message takes the echo's id (so the
 * agent's later updates find it) instead of a second copy being shown.
 */
function attachEcho(state, messageId, kind) {
    const position = state.data.promptMessage;
    if (kind !== "user_message" || position === undefined || !state.data.turnInProgress)
        return undefined;
    const messages = state.data.messages;
    const prompt = vectorGet(messages.records, position);
    const renamed = { ...prompt, messageId, echoCursor: prompt.content.length > 0 ? 0 : -1 };
    return next(state, { messages: keyedAlias(keyedSet(messages, position, renamed), messageId, position), promptMessage: undefined });
}
// ── tool calls (T1–T8, C2, C4) ─────────────────────────────────────────────────────────────
const SCALAR_PATCH_FIELDS = ["title", "kind", "status", "locations", "rawInput", "rawOutput"];
/** A tool call patch (a `tool_call_update` or a permission's `toolCall`) applied with T1–T3 rules. */
function applyToolCallPatch(state, patch) {
    const toolCalls = state.data.toolCalls;
    const position = keyedFind(toolCalls, patch.toolCallId, toolCallIdOf);
    const previous = position === undefined ? undefined : vectorGet(toolCalls.records, position);
    // T1: an unseen id creates the tool call with nothing set. Its creating update's `_meta` is the
    // tool call's own; later `_meta` values are notification-scoped (X7) and never patch it.
    const record = previous
        ? { ...previous }
        : { toolCallId: patch.toolCallId, content: emptyList(), cancelledLocally: false, ...(isObject(patch._meta) ? { meta: patch._meta } : {}) };
    for (const field of SCALAR_PATCH_FIELDS) {
        const value = patch[field];
        if (value === undefined)
            continue; // T2: absent = unchanged
        if (value === null)
            delete record[field]; // T2: null = cleared
        else
            record[field] = value;
    }
    // T3: content is replaced as a whole array; `[]` and `null` clear it.
    if (patch.content !== undefined)
        record.content = listOf(patch.content === null ? [] : patch.content.slice());
    // C4: a later wire status that finishes the call (completed, failed, …) replaces the local mark.
    if (record.cancelledLocally && typeof patch.status === "string" && !UNFINISHED.has(patch.status))
        record.cancelledLocally = false;
    return next(state, { toolCalls: position === undefined ? keyedAdd(toolCalls, patch.toolCallId, record) : keyedSet(toolCalls, position, record) });
}
function applyToolCallContentChunk(state, update) {
    const toolCalls = state.data.toolCalls;
    const position = keyedFind(toolCalls, update.toolCallId, toolCallIdOf);
    if (position === undefined) {
        // T4 [acpkit]: a chunk for an unseen id creates the tool call with defaults, then appends.
        const record = { toolCallId: update.toolCallId, content: listOf([update.content]), cancelledLocally: false };
        return next(state, { toolCalls: keyedAdd(toolCalls, update.toolCallId, record) });
    }
    const previous = vectorGet(toolCalls.records, position);
    return withToolCalls(state, keyedSet(toolCalls, position, { ...previous, content: append(previous.content, update.content) }));
}
// ── plans, session info ────────────────────────────────────────────────────────────────────
function applyPlanUpdate(state, update) {
    // P1–P3: the plan with that id is replaced (created when new); unknown types are kept raw.
    const plan = update.plan;
    const plans = state.data.plans;
    const record = { id: plan.id, plan };
    const position = keyedFind(plans, plan.id, planIdOf);
    return next(state, { plans: position === undefined ? keyedAdd(plans, plan.id, record) : keyedSet(plans, position, record) });
}
function applySessionInfo(state, update) {
    const info = { ...state.data.sessionInfo };
    for (const field of ["title", "updatedAt"]) {
        const value = update[field];
        if (value === null)
            delete info[field];
        else if (value !== undefined)
            info[field] = value;
    }
    return next(state, { sessionInfo: info });
}
// ── client actions ─────────────────────────────────────────────────────────────────────────
/**
 * The client sent `session/prompt`: a turn starts. With `prompt`, the prompt is recorded as a user
 * message (id `acpkit-prompt-<n>`); an agent's echo of it attaches to that message (M11).
 */
export function beginTurn(state, prompt) {
    const changes = { turnInProgress: true, turnFirstToolCall: state.data.toolCalls.records.size, promptMessage: undefined };
    if (prompt !== undefined) {
        const messages = state.data.messages;
        const messageId = `${PROMPT_MESSAGE_ID_PREFIX}${state.data.turns.length + 1}`;
        if (keyedFind(messages, messageId, messageIdOf) === undefined) {
            const record = { messageId, kind: "user_message", content: listOf(prompt.slice()), meta: undefined, echoCursor: -1 };
            changes.messages = keyedAdd(messages, messageId, record);
            changes.promptMessage = messages.records.size;
        }
    }
    return next(state, changes);
}
/**
 * The client cancelled the turn (PROTOCOL C2): every tool call of the current turn whose status is
 * `pending`, `in_progress` or unset shows `cancelled` until the wire reports it finished (C4).
 */
export function markTurnCancelled(state) {
    let toolCalls = state.data.toolCalls;
    for (let position = state.data.turnFirstToolCall; position < toolCalls.records.size; position++) {
        const record = vectorGet(toolCalls.records, position);
        if (record.cancelledLocally || (record.status !== undefined && !UNFINISHED.has(record.status)))
            continue;
        toolCalls = keyedSet(toolCalls, position, { ...record, cancelledLocally: true });
    }
    return toolCalls === state.data.toolCalls ? state : next(state, { toolCalls });
}
/** The `session/prompt` response arrived with `stopReason`: the turn is over. */
export function recordTurnEnd(state, stopReason) {
    return next(state, { turns: append(state.data.turns, { stopReason }), turnInProgress: false, promptMessage: undefined });
}
/**
 * A permission request arrived (or was answered): its `toolCall` is applied like a
 * `tool_call_update` (PROTOCOL §4.7) and `{toolCallId, options, outcome}` is added to
 * `permissions`. Without `outcome` the entry stays unanswered until `recordPermissionOutcome`.
 */
export function recordPermission(state, permission) {
    const applied = applyToolCallPatch(state, permission.toolCall);
    const entry = { toolCallId: permission.toolCall.toolCallId, options: permission.options.slice() };
    if (permission.outcome !== undefined)
        entry.outcome = permission.outcome;
    return next(applied, { permissions: vectorPush(applied.data.permissions, entry) });
}
/** Set the outcome of the most recent unanswered permission request for `toolCallId`. */
export function recordPermissionOutcome(state, toolCallId, outcome) {
    const permissions = state.data.permissions;
    for (let position = permissions.size - 1; position >= 0; position--) {
        const entry = vectorGet(permissions, position);
        if (entry.toolCallId === toolCallId && entry.outcome === undefined) {
            return next(state, { permissions: vectorSet(permissions, position, { ...entry, outcome }) });
        }
    }
    return state;
}
/**
 * Updates normally arrive validated; this catches the few holes the reducer would otherwise trip
 * over (a missing id, content of the wrong shape) and says which field is wrong.
 */
function malformed(update) {
    const u = update;
    if (typeof u !== "object" || u === null || typeof u.sessionUpdate !== "string")
        return "a session update must be an object with a string sessionUpdate";
    const tag = u.sessionUpdate;
    if (tag in CHUNK_KIND || tag === "user_message" || tag === "agent_message" || tag === "agent_thought") {
        if (typeof u.messageId !== "string")
            return `${tag}: messageId must be a string`;
        if (tag in CHUNK_KIND ? !isObject(u.content) : u.content !== undefined && u.content !== null && !Array.isArray(u.content))
            return `${tag}: content has the wrong shape`;
    }
    else if (tag === "tool_call_update" || tag === "tool_call_content_chunk") {
        if (typeof u.toolCallId !== "string")
            return `${tag}: toolCallId must be a string`;
        if (tag === "tool_call_update" ? u.content !== undefined && u.content !== null && !Array.isArray(u.content) : !isObject(u.content))
            return `${tag}: content has the wrong shape`;
    }
    else if (tag === "plan_update") {
        if (!isObject(u.plan) || typeof u.plan.id !== "string")
            return "plan_update: plan.id must be a string";
    }
    else if (tag === "usage_update") {
        if (typeof u.used !== "number" || typeof u.size !== "number")
            return "usage_update: used and size must be numbers";
    }
    return undefined;
}
function isObject(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}
//# sourceMappingURL=reducer.js.map