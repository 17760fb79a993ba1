// v1 connection: the agent's v1 updates go through the session's ClientSideV1Bridge (PROTOCOL
// §7.2): id-less chunks get synthesized message ids (B2), `tool_call` becomes the creating
// `tool_call_update`, `plan` becomes plan "main" (B6), terminal items become "_acpkit/terminal"
// (B7). Outgoing prompts drop blocks v1 cannot carry (reported).
import { ClientSideV1Bridge, mcpServersToV1 } from "@acpkit/core";
export class V1ClientSessionWire {
    sessionId;
    version = 1;
    bridge;
    constructor(sessionId, lossy) {
        this.sessionId = sessionId;
        this.bridge = new ClientSideV1Bridge({ ...lossy, sessionId });
    }
    receiveUpdate(update, apply) {
        const converted = this.bridge.fromV1(update);
        for (let i = 0; i < converted.length; i++)
            apply(converted[i]);
    }
    permissionFromWire(params) {
        return this.bridge.permissionFromV1(params);
    }
    promptParams(prompt, meta) {
        const params = { sessionId: this.sessionId, prompt };
        if (meta !== undefined)
            params._meta = meta;
        return this.bridge.promptToV1(params);
    }
    promptOutcome(result) {
        // v1 stop reasons are a subset of the model's; `_meta` (e.g. acpkit/v2StopReason) is kept.
        return result;
    }
    boundary(event) {
        if (event === "prompt_start")
            this.bridge.promptStarted();
        else if (event === "prompt_end")
            this.bridge.promptEnded();
        else
            this.bridge.loadStarted();
    }
}
/** MCP servers for a v1 `session/new` / `session/load` (stdio loses its tag; others reported). */
export function mcpServersForV1(servers, lossy) {
    return mcpServersToV1(servers, lossy);
}
//# sourceMappingURL=v1-wire.js.map