// How one session's model updates reach the wire. On v2 the model *is* the wire shape; on v1
// a per-session AgentSideV1Bridge converts (v1-wire.ts). The rest of the runtime only sees this
// interface, so the turn code has no version branches.
import type { Connection } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import type { Meta, ModelUpdate, PermissionRequest, StopReason } from "./types.js";
import type { WriteTracker } from "./write-tracker.js";

export interface SessionWire {
  readonly version: ProtocolVersion;
  /** Send one model update; every resulting write is tracked by `tracker`. */
  sendUpdate(update: ModelUpdate, replay: boolean, tracker: WriteTracker): void;
  /**
   * Params of `session/request_permission` in this version's shape. On v1 this first sends the
   * `tool_call` that creates an id the client has not seen (docs/protocol.md O3, bridge B4.5).
   */
  permissionParams(request: PermissionRequest, tracker: WriteTracker): object;
  /** The `session/prompt` result in this version's shape (v1: bridge B5 for custom reasons). */
  promptResponse(stopReason: StopReason, meta: Meta | null | undefined): object;
  /** A turn or a replay starts / ends (the v1 bridge keeps per-turn state). */
  beginRequest?(kind: "prompt" | "load"): void;
}

export function sendNotification(connection: Connection, params: object, tracker: WriteTracker): void {
  try {
    tracker.track(connection.notify("session/update", params));
  } catch (error) {
    // A development-mode outgoing check may throw before a promise exists.
    tracker.trackThrown(error);
  }
}

/**
 * v2: the model is the wire shape, so updates pass through unchanged. The wire only remembers
 * which tool call ids it has sent, so that a permission request for an id no update created yet
 * is preceded by the creating `tool_call_update` (docs/protocol.md O3 [acpkit], the v2 side of B4.5).
 */
export class V2SessionWire implements SessionWire {
  readonly version = 2 as const;
  private readonly toolCallsOnWire = new Set<string>();
  constructor(
    private readonly connection: Connection,
    private readonly sessionId: string,
  ) {}

  sendUpdate(update: ModelUpdate, _replay: boolean, tracker: WriteTracker): void {
    const tag = (update as { sessionUpdate: string }).sessionUpdate;
    if (tag === "tool_call_update" || tag === "tool_call_content_chunk") this.toolCallsOnWire.add((update as { toolCallId: string }).toolCallId);
    sendNotification(this.connection, { sessionId: this.sessionId, update }, tracker);
  }

  permissionParams(request: PermissionRequest, tracker: WriteTracker): object {
    const toolCallId = request.toolCall.toolCallId;
    if (!this.toolCallsOnWire.has(toolCallId)) {
      // T1: the first tool_call_update for an id creates it, with the fields the request carries.
      this.sendUpdate({ ...request.toolCall, sessionUpdate: "tool_call_update" } as ModelUpdate, false, tracker);
    }
    const params: Record<string, unknown> = { sessionId: this.sessionId, toolCall: request.toolCall, options: request.options };
    if (request._meta !== undefined) params._meta = request._meta;
    return params;
  }

  promptResponse(stopReason: StopReason, meta: Meta | null | undefined): object {
    return meta === undefined ? { stopReason } : { stopReason, _meta: meta };
  }
}
