// How one session's model updates reach the wire. On v2 the model *is* the wire shape; on v1
// a per-session AgentSideV1Bridge converts (v1-wire.ts). The rest of the runtime only sees this
// interface, so the turn code has no version branches.
import { type Connection, sessionUpdateParams } from "@acpkit/core";
import type { ProtocolVersion, v1, v2 } from "@acpkit/schema";
import type { Meta, SessionUpdate, AgentPermissionRequest, StopReason } from "./types.js";
import type { WriteTracker } from "./write-tracker.js";

/** The agent's end of a connection, typed by the ACP method tables. */
export type AgentSideConnection = Connection<"agent">;

/** `session/request_permission` params in either version's shape. */
export type PermissionParams = v1.RequestPermissionRequest | v2.RequestPermissionRequest;
/** The `session/prompt` result in either version's shape. */
export type PromptResponse = v1.PromptResponse | v2.PromptResponse;

export interface SessionWire {
  readonly version: ProtocolVersion;
  /** Send one model update; every resulting write is tracked by `tracker`. */
  sendUpdate(update: SessionUpdate, replay: boolean, tracker: WriteTracker): void;
  /**
   * Params of `session/request_permission` in this version's shape. On v1 this first sends the
   * `tool_call` that creates an id the client has not seen (docs/protocol.md O3, bridge B4.5).
   */
  permissionParams(request: AgentPermissionRequest, tracker: WriteTracker): PermissionParams;
  /** The `session/prompt` result in this version's shape (v1: bridge B5 for custom reasons). */
  promptResponse(stopReason: StopReason, meta: Meta | null | undefined): PromptResponse;
  /** A turn or a replay starts / ends (the v1 bridge keeps per-turn state). */
  beginRequest?(kind: "prompt" | "load"): void;
}

/** Sends `update` in session `sessionId` (plain text as `TextUpdateParams`, which transports encode fastest). */
export function sendNotification(connection: AgentSideConnection, sessionId: string, update: v1.SessionUpdate | v2.SessionUpdate, tracker: WriteTracker): void {
  try {
    tracker.track(connection.notify("session/update", sessionUpdateParams(sessionId, update) as v1.SessionNotification | v2.SessionNotification));
  } catch (error) {
    // A development-mode outgoing check may throw before a promise exists.
    tracker.trackThrown(error);
  }
}

/** The model's permission request as v2 (= model) `session/request_permission` params. */
export function permissionParamsOf(sessionId: string, request: AgentPermissionRequest, withSubject = false): v2.RequestPermissionRequest {
  const params: v2.RequestPermissionRequest = { sessionId, toolCall: request.toolCall, options: [...request.options] };
  // A model field only a later-v2 connection carries: its codec makes it the request's `subject`
  // (A9). The pinned v2 and v1 have only the tool call, which describes the same operation.
  if (withSubject && request.subject !== undefined) (params as unknown as Record<string, unknown>).subject = { ...request.subject };
  if (request._meta !== undefined) params._meta = request._meta;
  return params;
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
    private readonly connection: AgentSideConnection,
    private readonly sessionId: string,
    /** The connection speaks the later v2 draft (through its codec): permission subjects go out. */
    private readonly later = false,
  ) {}

  sendUpdate(update: SessionUpdate, _replay: boolean, tracker: WriteTracker): void {
    if (update.sessionUpdate === "tool_call_update" || update.sessionUpdate === "tool_call_content_chunk") this.toolCallsOnWire.add(update.toolCallId);
    sendNotification(this.connection, this.sessionId, update, tracker);
  }

  permissionParams(request: AgentPermissionRequest, tracker: WriteTracker): v2.RequestPermissionRequest {
    const toolCallId = request.toolCall.toolCallId;
    if (!this.toolCallsOnWire.has(toolCallId)) {
      // T1: the first tool_call_update for an id creates it, with the fields the request carries.
      this.sendUpdate({ ...request.toolCall, sessionUpdate: "tool_call_update" }, false, tracker);
    }
    return permissionParamsOf(this.sessionId, request, this.later);
  }

  promptResponse(stopReason: StopReason, meta: Meta | null | undefined): v2.PromptResponse {
    return meta === undefined ? { stopReason } : { stopReason, _meta: meta };
  }
}
