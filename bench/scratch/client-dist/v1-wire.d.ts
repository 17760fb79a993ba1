import { type LossyOptions } from "@acpkit/core";
import type { ClientSessionWire } from "./session-wire.js";
import type { ContentBlock, McpServer, Meta, ModelUpdate, PermissionRequest, PromptOutcome } from "./types.js";
export declare class V1ClientSessionWire implements ClientSessionWire {
    private readonly sessionId;
    readonly version: 1;
    private readonly bridge;
    constructor(sessionId: string, lossy: LossyOptions);
    receiveUpdate(update: unknown, apply: (update: ModelUpdate) => void): void;
    permissionFromWire(params: Record<string, unknown>): PermissionRequest;
    promptParams(prompt: readonly ContentBlock[], meta: Meta | null | undefined): object;
    promptOutcome(result: Record<string, unknown>): PromptOutcome;
    boundary(event: "prompt_start" | "prompt_end" | "load_start"): void;
}
/** MCP servers for a v1 `session/new` / `session/load` (stdio loses its tag; others reported). */
export declare function mcpServersForV1(servers: readonly McpServer[], lossy: LossyOptions): unknown[];
//# sourceMappingURL=v1-wire.d.ts.map