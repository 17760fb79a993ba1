// How one session's wire traffic becomes the model. On v2 the wire *is* the model; on v1 a
// per-session ClientSideV1Bridge converts (v1-wire.ts: synthesized message ids, tool_call →
// tool_call_update, plan → plan_update "main", terminal items → "_acpkit/terminal").
import type { ProtocolVersion, v1, v2 } from "@acpkit/schema";
import type { ContentBlock, Meta, SessionUpdate, PermissionRequest, PromptOutcome } from "./types.js";

/** A `session/update`'s update as it arrived, in the connection's version (validated by it). */
export type WireUpdate = v1.SessionUpdate | v2.SessionUpdate;
/** `session/request_permission` params as they arrived. */
export type WirePermissionRequest = v1.RequestPermissionRequest | v2.RequestPermissionRequest;
/** A `session/prompt` result as it arrived. */
export type WirePromptResponse = v1.PromptResponse | v2.PromptResponse;

export interface ClientSessionWire {
  readonly version: ProtocolVersion;
  /** Convert one incoming `update` and hand each resulting model update to `apply`, in order. */
  receiveUpdate(update: WireUpdate, apply: (update: SessionUpdate) => void): void;
  /** An incoming `session/request_permission` in the model shape. */
  permissionFromWire(params: WirePermissionRequest): PermissionRequest;
  /** `session/prompt` params in this version's shape. */
  promptParams(prompt: readonly ContentBlock[], meta: Meta | null | undefined): v1.PromptRequest | v2.PromptRequest;
  /** The `session/prompt` result as the model's outcome. */
  promptOutcome(result: WirePromptResponse): PromptOutcome;
  /** Turn and replay boundaries (the v1 bridge closes synthesized messages on them, B2). */
  boundary?(event: "prompt_start" | "prompt_end" | "load_start"): void;
}

/** v2: updates and requests already have the model shape. */
export class V2ClientSessionWire implements ClientSessionWire {
  readonly version = 2 as const;
  constructor(private readonly sessionId: string) {}

  // A v2 connection validated these against the v2 schema: the wire shape is the model's.
  receiveUpdate(update: WireUpdate, apply: (update: SessionUpdate) => void): void {
    apply(update as v2.SessionUpdate);
  }

  permissionFromWire(params: WirePermissionRequest): PermissionRequest {
    return params as v2.RequestPermissionRequest;
  }

  promptParams(prompt: readonly ContentBlock[], meta: Meta | null | undefined): v2.PromptRequest {
    const params: v2.PromptRequest = { sessionId: this.sessionId, prompt: [...prompt] };
    if (meta !== undefined) params._meta = meta;
    return params;
  }

  promptOutcome(result: WirePromptResponse): PromptOutcome {
    return result as v2.PromptResponse;
  }
}
