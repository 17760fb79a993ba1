// How one session's wire traffic becomes the model. On v2 the wire *is* the model; on v1 a
// per-session ClientSideV1Bridge converts (v1-wire.ts: synthesized message ids, tool_call →
// tool_call_update, plan → plan_update "main", terminal items → "_acpkit/terminal").
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
export class V2ClientSessionWire implements ClientSessionWire {
  readonly version = 2 as const;
  constructor(private readonly sessionId: string) {}

  receiveUpdate(update: unknown, apply: (update: ModelUpdate) => void): void {
    apply(update as ModelUpdate);
  }

  permissionFromWire(params: Record<string, unknown>): PermissionRequest {
    return params as unknown as PermissionRequest;
  }

  promptParams(prompt: readonly ContentBlock[], meta: Meta | null | undefined): object {
    return meta === undefined ? { sessionId: this.sessionId, prompt } : { sessionId: this.sessionId, prompt, _meta: meta };
  }

  promptOutcome(result: Record<string, unknown>): PromptOutcome {
    return result as unknown as PromptOutcome;
  }
}
