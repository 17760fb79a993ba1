import { emptyKeyed, emptyList, emptyVector, keyedFind, listToArray, vectorForEach, vectorGet } from "./persistent.js";
export const messageIdOf = (record) => record.messageId;
export const toolCallIdOf = (record) => record.toolCallId;
export const planIdOf = (record) => record.id;
// Views are immutable once built, so one per record is enough across every state sharing it.
const messageViews = new WeakMap();
const toolCallViews = new WeakMap();
function messageView(record) {
    let view = messageViews.get(record);
    if (view === undefined) {
        view = { messageId: record.messageId, kind: record.kind, content: listToArray(record.content) };
        if (record.meta !== undefined)
            view._meta = record.meta;
        Object.freeze(view.content);
        messageViews.set(record, Object.freeze(view));
    }
    return view;
}
function toolCallView(record) {
    let view = toolCallViews.get(record);
    if (view === undefined) {
        // Keys are added in the contract's order so the printed JSON reads the same every time.
        const out = { toolCallId: record.toolCallId };
        if (record.title !== undefined)
            out.title = record.title;
        if (record.kind !== undefined)
            out.kind = record.kind;
        if (record.cancelledLocally)
            out.status = "cancelled";
        else if (record.status !== undefined)
            out.status = record.status;
        out.content = Object.freeze(listToArray(record.content));
        if (record.locations !== undefined)
            out.locations = record.locations;
        if ("rawInput" in record)
            out.rawInput = record.rawInput;
        if ("rawOutput" in record)
            out.rawOutput = record.rawOutput;
        if (record.meta !== undefined)
            out._meta = record.meta;
        view = Object.freeze(out);
        toolCallViews.set(record, view);
    }
    return view;
}
function planView(record) {
    const plan = record.plan;
    return plan.type === "items" ? { id: record.id, entries: plan.entries } : { id: record.id, type: String(plan.type), raw: plan };
}
function collect(keyed, view) {
    const out = [];
    vectorForEach(keyed.records, (record) => out.push(view(record)));
    return out;
}
/**
 * One session as the client knows it. Immutable: the reducer functions (`applyUpdate`, …)
 * return a new state. Read it through the properties below or `sessionStateToJSON`.
 */
export class SessionState {
    /** @internal */
    data;
    messagesCache;
    toolCallsCache;
    /** @internal Use `createSessionState`. */
    constructor(data) {
        this.data = data;
    }
    get sessionId() {
        return this.data.sessionId;
    }
    get protocolVersion() {
        return this.data.protocolVersion;
    }
    /** Messages in first-appearance order. */
    get messages() {
        return (this.messagesCache ??= Object.freeze(collect(this.data.messages, messageView)));
    }
    /** Tool calls in first-appearance order. */
    get toolCalls() {
        return (this.toolCallsCache ??= Object.freeze(collect(this.data.toolCalls, toolCallView)));
    }
    get plans() {
        return collect(this.data.plans, planView);
    }
    /** `null` until the first `usage_update`. */
    get usage() {
        return this.data.usage;
    }
    /** Permission requests in arrival order. */
    get permissions() {
        const out = [];
        vectorForEach(this.data.permissions, (entry) => out.push(entry));
        return out;
    }
    /** Finished turns, oldest first. */
    get turns() {
        return listToArray(this.data.turns);
    }
    /** True between `beginTurn` and `recordTurnEnd`. */
    get turnInProgress() {
        return this.data.turnInProgress;
    }
    /** Updates the reducer ignored (unknown variants, kind mismatches), oldest first. */
    get diagnostics() {
        return listToArray(this.data.diagnostics);
    }
    /** From `session_info_update` (patch semantics: `null` clears). */
    get sessionInfo() {
        return this.data.sessionInfo;
    }
    /** From a v1 agent's `current_mode_update` (model: `_acpkit/current_mode_update`). */
    get currentModeId() {
        return this.data.currentModeId;
    }
    get availableCommands() {
        return this.data.availableCommands;
    }
    get configOptions() {
        return this.data.configOptions;
    }
    /** One message by id. */
    message(messageId) {
        const position = keyedFind(this.data.messages, messageId, messageIdOf);
        return position === undefined ? undefined : messageView(vectorGet(this.data.messages.records, position));
    }
    /** One tool call by id. */
    toolCall(toolCallId) {
        const position = keyedFind(this.data.toolCalls, toolCallId, toolCallIdOf);
        return position === undefined ? undefined : toolCallView(vectorGet(this.data.toolCalls.records, position));
    }
    /** The contract JSON (same as `sessionStateToJSON(this)`), so `JSON.stringify(state)` works. */
    toJSON() {
        return sessionStateToJSON(this);
    }
}
/** A state for a session that has seen nothing yet. */
export function createSessionState(sessionId, protocolVersion) {
    return new SessionState({
        sessionId,
        protocolVersion,
        messages: emptyKeyed(),
        toolCalls: emptyKeyed(),
        plans: emptyKeyed(),
        usage: null,
        permissions: emptyVector(),
        turns: emptyList(),
        diagnostics: emptyList(),
        turnInProgress: false,
        turnFirstToolCall: 0,
        promptMessage: undefined,
        sessionInfo: {},
        currentModeId: undefined,
        availableCommands: [],
        configOptions: [],
    });
}
/**
 * The public JSON form of a state: `{ sessionId, protocolVersion, messages, toolCalls, plans,
 * usage, permissions, turns }`. Lists keep first-appearance order; a field never set, or cleared
 * with `null`, is absent; `content` is always an array. Blocks are shared with the updates that
 * carried them (not deep-copied); the message and tool-call objects are frozen.
 */
export function sessionStateToJSON(state) {
    return {
        sessionId: state.sessionId,
        protocolVersion: state.protocolVersion,
        messages: state.messages.slice(),
        toolCalls: state.toolCalls.slice(),
        plans: state.plans.slice(),
        usage: state.usage,
        permissions: state.permissions.slice(),
        turns: state.turns.slice(),
    };
}
//# sourceMappingURL=session-state.js.map