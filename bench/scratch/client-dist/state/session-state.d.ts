import type { ProtocolVersion, v2 } from "@acpkit/schema";
import { type AppendList, type Keyed, type PVector } from "./persistent.js";
type Meta = {
    [key: string]: unknown;
};
/** Which kind of message (the variant of the updates that built it). */
export type MessageKind = "user_message" | "agent_message" | "agent_thought";
/** A tool call's status as the client shows it: the wire status, or the local `cancelled` (PROTOCOL C2). */
export type DisplayedToolCallStatus = v2.ToolCallStatus | "cancelled";
/** One message in the contract JSON form. */
export interface MessageJSON {
    messageId: string;
    kind: MessageKind;
    content: v2.ContentBlock[];
    _meta?: Meta;
}
/** One tool call in the contract JSON form. Fields never set, or cleared with `null`, are absent. */
export interface ToolCallJSON {
    toolCallId: string;
    title?: string;
    kind?: v2.ToolKind;
    status?: DisplayedToolCallStatus;
    content: v2.ToolCallContent[];
    locations?: v2.ToolCallLocation[];
    rawInput?: unknown;
    rawOutput?: unknown;
    _meta?: Meta;
}
/** A plan: its entries, or for a plan of unknown type (PROTOCOL P3) its type and raw payload. */
export type PlanJSON = {
    id: string;
    entries: v2.PlanEntry[];
} | {
    id: string;
    type: string;
    raw: v2.PlanUpdateContent;
};
export interface UsageJSON {
    used: number;
    size: number;
    cost?: v2.Cost;
}
/** A permission request; `outcome` is absent while the request is unanswered. */
export interface PermissionJSON {
    toolCallId: string;
    options: v2.PermissionOption[];
    outcome?: v2.RequestPermissionOutcome;
}
export interface TurnJSON {
    stopReason: v2.StopReason;
}
/** The JSON form of a SessionState: a public contract (the CLI prints it with `--json`). */
export interface SessionStateJSON {
    sessionId: string;
    protocolVersion: ProtocolVersion;
    messages: MessageJSON[];
    toolCalls: ToolCallJSON[];
    plans: PlanJSON[];
    usage: UsageJSON | null;
    permissions: PermissionJSON[];
    turns: TurnJSON[];
}
/** Something the reducer ignored, and why (not part of the JSON contract). */
export interface StateDiagnostic {
    code: "unknown_update" | "message_kind_mismatch" | "invalid_update";
    message: string;
    update: unknown;
}
/** @internal */
export interface MessageRecord {
    readonly messageId: string;
    readonly kind: MessageKind;
    readonly content: AppendList<v2.ContentBlock>;
    readonly meta: Meta | undefined;
    /** How many leading blocks an echo of the prompt has matched so far (PROTOCOL M11), or -1. */
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
    readonly meta?: Meta;
    /** Marked cancelled by the client (C2) and not finished on the wire since (C4). */
    readonly cancelledLocally: boolean;
}
/** @internal */
export interface PlanRecord {
    readonly id: string;
    readonly plan: v2.PlanUpdateContent;
}
/** @internal Everything a state holds. Replaced, never mutated, by the reducer. */
export interface StateData {
    readonly sessionId: string;
    readonly protocolVersion: ProtocolVersion;
    readonly messages: Keyed<MessageRecord>;
    readonly toolCalls: Keyed<ToolCallRecord>;
    readonly plans: Keyed<PlanRecord>;
    readonly usage: UsageJSON | null;
    readonly permissions: PVector<PermissionJSON>;
    readonly turns: AppendList<TurnJSON>;
    readonly diagnostics: AppendList<StateDiagnostic>;
    readonly turnInProgress: boolean;
    /** Index of the first tool call created in the current (or last) turn. */
    readonly turnFirstToolCall: number;
    /** Position of the current turn's prompt message while an echo may still attach to it (M11). */
    readonly promptMessage: number | undefined;
    readonly sessionInfo: {
        readonly title?: string;
        readonly updatedAt?: string;
    };
    readonly currentModeId: string | undefined;
    readonly availableCommands: readonly v2.AvailableCommand[];
    readonly configOptions: readonly v2.SessionConfigOption[];
}
export declare const messageIdOf: (record: MessageRecord) => string;
export declare const toolCallIdOf: (record: ToolCallRecord) => string;
export declare const planIdOf: (record: PlanRecord) => string;
/**
 * One session as the client knows it. Immutable: the reducer functions (`applyUpdate`, …)
 * return a new state. Read it through the properties below or `sessionStateToJSON`.
 */
export declare class SessionState {
    /** @internal */
    readonly data: StateData;
    private messagesCache;
    private toolCallsCache;
    /** @internal Use `createSessionState`. */
    constructor(data: StateData);
    get sessionId(): string;
    get protocolVersion(): ProtocolVersion;
    /** Messages in first-appearance order. */
    get messages(): readonly MessageJSON[];
    /** Tool calls in first-appearance order. */
    get toolCalls(): readonly ToolCallJSON[];
    get plans(): readonly PlanJSON[];
    /** `null` until the first `usage_update`. */
    get usage(): UsageJSON | null;
    /** Permission requests in arrival order. */
    get permissions(): readonly PermissionJSON[];
    /** Finished turns, oldest first. */
    get turns(): readonly TurnJSON[];
    /** True between `beginTurn` and `recordTurnEnd`. */
    get turnInProgress(): boolean;
    /** Updates the reducer ignored (unknown variants, kind mismatches), oldest first. */
    get diagnostics(): readonly StateDiagnostic[];
    /** From `session_info_update` (patch semantics: `null` clears). */
    get sessionInfo(): {
        readonly title?: string;
        readonly updatedAt?: string;
    };
    /** From a v1 agent's `current_mode_update` (model: `_acpkit/current_mode_update`). */
    get currentModeId(): string | undefined;
    get availableCommands(): readonly v2.AvailableCommand[];
    get configOptions(): readonly v2.SessionConfigOption[];
    /** One message by id. */
    message(messageId: string): MessageJSON | undefined;
    /** One tool call by id. */
    toolCall(toolCallId: string): ToolCallJSON | undefined;
    /** The contract JSON (same as `sessionStateToJSON(this)`), so `JSON.stringify(state)` works. */
    toJSON(): SessionStateJSON;
}
/** A state for a session that has seen nothing yet. */
export declare function createSessionState(sessionId: string, protocolVersion: ProtocolVersion): SessionState;
/**
 * The public JSON form of a state: `{ sessionId, protocolVersion, messages, toolCalls, plans,
 * usage, permissions, turns }`. Lists keep first-appearance order; a field never set, or cleared
 * with `null`, is absent; `content` is always an array. Blocks are shared with the updates that
 * carried them (not deep-copied); the message and tool-call objects are frozen.
 */
export declare function sessionStateToJSON(state: SessionState): SessionStateJSON;
export {};
//# sourceMappingURL=session-state.d.ts.map