// v1 connection: the agent's v1 updates go through the session's ClientSideV1Bridge (PROTOCOL
// §7.2): id-less chunks get synthesized message ids (B2), `tool_call` becomes the creating
// `tool_call_update`, `plan` becomes plan "main" (B6), terminal items become "_acpkit/terminal"
// (B7). Outgoing prompts drop blocks v1 cannot carry (reported).
import type { ClientSideV1Bridge, V1BridgeOptions } from "@acpkit/core/bridge";
import type { v1, v2 } from "@acpkit/schema";
import type { ClientSessionWire, WirePermissionRequest, WirePromptResponse, WireUpdate } from "./session-wire.js";
import type { ContentBlock, Meta, SessionUpdate, PermissionRequest, PromptOutcome } from "./types.js";

/**
 * `@acpkit/core/bridge`, loaded only once a connection speaks v1 (`loadV1Bridge`): a v2 client
 * never loads or bundles it.
 */
export type BridgeModule = typeof import("@acpkit/core/bridge");

let bridgeModule: Promise<BridgeModule> | undefined;

/** Load the v1 bridge (once; later calls share the first). */
export function loadV1Bridge(): Promise<BridgeModule> {
  return (bridgeModule ??= import("@acpkit/core/bridge"));
}

export class V1ClientSessionWire implements ClientSessionWire {
  readonly version = 1 as const;
  private readonly bridge: ClientSideV1Bridge;

  constructor(
    private readonly sessionId: string,
    lossy: Omit<V1BridgeOptions, "sessionId">,
    bridge: BridgeModule,
  ) {
    this.bridge = new bridge.ClientSideV1Bridge({ ...lossy, sessionId });
  }

  // A v1 connection validated these against the v1 schema, so they are v1 shapes.
  receiveUpdate(update: WireUpdate, apply: (update: SessionUpdate) => void): void {
    this.bridge.forEachFromV1(update as v1.SessionUpdate, apply);
  }

  permissionFromWire(params: WirePermissionRequest): PermissionRequest {
    return this.bridge.permissionFromV1(params as v1.RequestPermissionRequest);
  }

  promptParams(prompt: readonly ContentBlock[], meta: Meta | null | undefined): v1.PromptRequest {
    // No copy of `prompt` here: promptToV1 builds the list it sends and changes nothing it is given.
    const params: v2.PromptRequest = { sessionId: this.sessionId, prompt: prompt as ContentBlock[] };
    if (meta !== undefined) params._meta = meta;
    return this.bridge.promptToV1(params);
  }

  promptOutcome(result: WirePromptResponse): PromptOutcome {
    // v1 stop reasons are a subset of the model's; `_meta` (e.g. acpkit/v2StopReason) is kept.
    return result;
  }

  boundary(event: "prompt_start" | "prompt_end" | "load_start"): void {
    if (event === "prompt_start") this.bridge.promptStarted();
    else if (event === "prompt_end") this.bridge.promptEnded();
    else this.bridge.loadStarted();
  }
}
