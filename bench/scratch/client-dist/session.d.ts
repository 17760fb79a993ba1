import { type Connection, type Diagnostic, type RequestContext } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import type { ClientSessionWire } from "./session-wire.js";
import { type SessionState } from "./state/session-state.js";
import { Turn } from "./turn.js";
import type { ContentBlock, ModelUpdate, PermissionContext, PermissionOutcome, PermissionRequest, PromptOptions } from "./types.js";
/** What a session needs from its connection. */
export interface SessionHost {
    readonly connection: Connection;
    readonly protocolVersion: ProtocolVersion;
    readonly acceptedPromptBlocks: ReadonlySet<string>;
    readonly requestPermission: ((request: PermissionRequest, context: PermissionContext) => PermissionOutcome | Promise<PermissionOutcome>) | undefined;
    report(diagnostic: Diagnostic): void;
}
export declare class ClientSession {
    private readonly host;
    readonly sessionId: string;
    private readonly wire;
    private sessionState;
    /** The turn whose `session/prompt` response has not arrived yet. */
    private activeTurn;
    private activeTurnCancelled;
    private readonly pendingPermissions;
    private readonly listeners;
    private readonly applyModelUpdate;
    /** @internal Created by AgentConnection.newSession / loadSession. */
    constructor(host: SessionHost, sessionId: string, wire: ClientSessionWire);
    /** The session's current state (messages, tool calls, plans, usage, turns), kept by the reducer. */
    get state(): SessionState;
    /** The running turn, if a prompt is in flight. */
    get turn(): Turn | undefined;
    /**
     * Send a prompt. A string becomes one text block. Returns at once with the Turn: iterate it for
     * the turn's updates, await it for the stop reason. One turn at a time (PROTOCOL O4).
     */
    prompt(content: string | readonly ContentBlock[], options?: PromptOptions): Turn;
    /**
     * Cancel the running turn (no-op without one, or when already cancelled): sends
     * `session/cancel`, answers pending permission requests "cancelled" and marks unfinished tool
     * calls cancelled. The turn keeps receiving updates until the agent's response.
     */
    cancel(): Promise<void>;
    /** Observe every model update of this session (turns, replays and session-level updates). */
    onUpdate(listener: (update: ModelUpdate) => void): () => void;
    /** @internal A `session/update` for this session arrived (wire shape). */
    receiveUpdate(update: unknown): void;
    /** @internal A `session/load` is about to replay history into this session. */
    beginLoad(): void;
    /** @internal A `session/request_permission` for this session arrived. */
    handlePermission(params: Record<string, unknown>, ctx: RequestContext): {
        outcome: PermissionOutcome;
    } | Promise<{
        outcome: PermissionOutcome;
    }>;
    /** Record the answer in the state (the request's toolCall is applied like an update) and wrap it. */
    private answerPermission;
    /** @internal The connection closed: nothing more will arrive for this session. */
    connectionClosed(): void;
    private apply;
    private finishTurn;
    private checkPromptBlocks;
}
//# sourceMappingURL=session.d.ts.map