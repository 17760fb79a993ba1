// v1 connection: the model's updates go through the session's AgentSideV1Bridge (docs/protocol.md §7.2):
// message upserts become chunks when they extend what was sent (B3), tool calls start with a v1
// `tool_call` (B4), plans collapse to one (B6), custom stop reasons become end_turn + _meta (B5).
// What v1 cannot carry is reported as a diagnostic `lossy_<code>` (or thrown in strict mode).
import type { AgentDiagnostic as Diagnostic } from "./diagnostics.js";
import type { AgentSideV1Bridge } from "@acpkit/core/bridge";
import type { v1 } from "@acpkit/schema";
import { type AgentSideConnection, permissionParamsOf, sendNotification, type SessionWire } from "./session-wire.js";
import type { Meta, SessionUpdate, AgentPermissionRequest, StopReason } from "./types.js";
import type { WriteTracker } from "./write-tracker.js";
import { v1Bridge } from "./v1-bridge.js";

export interface V1WireOptions {
  strict: boolean;
  report(diagnostic: Diagnostic): void;
}

const REPLAY = Object.freeze({ replay: true });

export class V1SessionWire implements SessionWire {
  readonly version = 1 as const;
  private readonly bridge: AgentSideV1Bridge;
  /** The tracker of the `sendUpdate` call in progress, for `emit` (bound once: no closure per update). */
  private tracker: WriteTracker | undefined;
  private readonly emit = (update: v1.SessionUpdate): void => {
    sendNotification(this.connection, this.sessionId, update, this.tracker!);
  };

  constructor(
    private readonly connection: AgentSideConnection,
    private readonly sessionId: string,
    options: V1WireOptions,
  ) {
    this.bridge = new (v1Bridge().AgentSideV1Bridge)({
      sessionId,
      strict: options.strict,
      onLossy: (event) => options.report({ code: `lossy_${event.code}`, message: event.detail, sessionId: event.sessionId, detail: event.update }),
    });
  }

  sendUpdate(update: SessionUpdate, replay: boolean, tracker: WriteTracker): void {
    this.tracker = tracker;
    this.bridge.forEachToV1(update, replay ? REPLAY : undefined, this.emit);
  }

  permissionParams(request: AgentPermissionRequest, tracker: WriteTracker): v1.RequestPermissionRequest {
    const { updates, params: v1Params } = this.bridge.permissionToV1(permissionParamsOf(this.sessionId, request));
    // O3: the tool_call that introduces the id goes out before the request.
    for (const update of updates) sendNotification(this.connection, this.sessionId, update, tracker);
    return v1Params;
  }

  promptResponse(stopReason: StopReason, meta: Meta | null | undefined): v1.PromptResponse {
    return this.bridge.stopReasonToV1(stopReason, meta);
  }
}
