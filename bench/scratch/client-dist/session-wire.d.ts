import type { ProtocolVersion } from "@acpkit/schema";
import type { ContentBlock, Meta, ModelUpdate, PermissionRequest, PromptOutcome } from "./types.js";
export interface ClientSessionWire {
    readonly version: ProtocolVersion;
    /** Convert one incoming `update` and hand each resulting model update to `apply`, in order. */
    receiveUpdate(update: unknown, apply: (update: ModelUpdate) => void): void;
    /** An incoming `session/request_permission` in the model shape. */
    permissionFromWire(params: Record<string, unknown>): PermissionRequest;
    /** `session/prompt` params in this version's shape. */
    promptParams(prompt: readonly ContentBlock[], meta: Meta | null | undefined): object;
    /** The `session/prompt` result as the model's outcome. */
    promptOutcome(result: Record<string, unknown>): PromptOutcome;
    /** Turn and replay boundaries (the v1 bridge closes synthesized messages on them, B2). */
    boundary?(event: "prompt_start" | "prompt_end" | "load_start"): void;
}
/** v2: updates and requests already have the model shape. */
export declare class V2ClientSessionWire implements ClientSessionWire {
    private readonly sessionId;
    readonly version: 2;
    constructor(sessionId: string);
    receiveUpdate(update: unknown, apply: (update: ModelUpdate) => void): void;
    permissionFromWire(params: Record<string, unknown>): PermissionRequest;
    promptParams(prompt: readonly ContentBlock[], meta: Meta | null | undefined): object;
    promptOutcome(result: Record<string, unknown>): PromptOutcome;
}
//# sourceMappingURL=session-wire.d.ts.map