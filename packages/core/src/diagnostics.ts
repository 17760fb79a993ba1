// Diagnostics: things acpkit noticed and handled without an error reply the caller could see —
// a dropped notification, an unknown method, a handler that threw while handling a notification,
// a peer that answered with garbage, a lossy v1 conversion. Listeners decide whether to log them.
// Every code any acpkit package emits is in `DiagnosticCode`, so consumers switch on the union.
import type { LossyCode } from "./lossy-code.js";

/** One event reported by a Connection, the agent or client runtime, or the v1 bridge. */
export interface Diagnostic {
  /** Stable machine-readable code, one of `DiagnosticCode`. */
  code: DiagnosticCode;
  /** One human sentence. */
  message: string;
  /** The JSON-RPC method concerned, when there is one. */
  method?: string;
  /** JSON Pointer into the params/result when validation failed. */
  path?: string;
  /** The session concerned, when there is one. */
  sessionId?: string;
  /** The validation errors, the thrown error, the offending message, … */
  detail?: unknown;
}

/** Every diagnostic code: the Connection's, the agent runtime's, the client runtime's and the bridge's. */
export type DiagnosticCode = ConnectionDiagnosticCode | AgentDiagnosticCode | ClientDiagnosticCode | BridgeDiagnosticCode;

/** The codes of the v1 bridge: each lossy conversion (`lossy_<LossyCode>`), and a v1 agent's ordering slip. */
export type BridgeDiagnosticCode = `lossy_${LossyCode}` | "v1_tool_call_missing";

/** The codes a `Connection` itself raises. */
export type ConnectionDiagnosticCode =
  | "parse_error" // a message was not valid JSON (answered -32700)
  | "invalid_message" // not a JSON-RPC object (answered -32600 when it could be)
  | "invalid_params" // a notification's params failed validation; it was dropped
  | "legacy_shape" // like invalid_params, and the validator recognised an outdated shape
  | "unknown_notification" // no such notification in this version, or nobody handles it; ignored
  | "unknown_method" // a request for a method we do not serve (answered -32601)
  | "not_initialized" // dropped before initialize (requireInitialize)
  | "handler_error" // a notification handler threw or rejected
  | "outgoing_invalid" // a handler's result failed development-mode validation (answered -32603)
  | "invalid_result" // the peer's result failed validation; the request rejected
  | "unexpected_response" // a response that answers no waiting request: an id we never sent, or a second answer (E9)
  | "peer_error" // the peer answered with an error that has no id (it could not read something we sent)
  | "transport_error" // the transport recovered from a framing problem
  | "too_many_requests" // a request over the connection's maxRunningRequests limit (answered -32603, E8)
  | "internal_error"; // handling an incoming message failed inside acpkit; answered -32603 where an answer was due

/** The codes `serveAgent` adds. */
export type AgentDiagnosticCode =
  | "turn_closed" // a write from a turn (or its handles) after the turn ended; dropped
  | "write_failed" // an update could not be written (the connection failed or closed)
  | "updates_backlog" // a turn queued many distinct updates without awaiting turn.flush(); they are held in memory
  | "handler_error_after_cancel" // the prompt handler threw after a cancel; answered "cancelled" anyway
  | "too_many_sessions"; // a session/new, load or resume over the connection's maxSessions limit (answered -32603)

/** The codes `connectAgent` and its sessions add. */
export type ClientDiagnosticCode =
  | "unknown_session" // an update or request for a session this connection does not have
  | "unknown_update" // an update variant the model does not know; dropped, the session goes on
  | "message_kind_mismatch" // an update for a known message id of another kind (M10); ignored
  | "invalid_update" // an update the reducer could not apply; ignored
  | "permission_unhandled" // a permission request with no requestPermission handler; answered "cancelled"
  | "error_after_cancel" // the agent answered a cancelled prompt with an error (C11); shown as cancelled
  | "cancel_not_sent" // session/cancel could not be sent
  | "listener_error" // an onUpdate listener threw
  | "unadvertised_update" // a v1 update kind the client did not advertise (notices, compaction); dropped
  | "relative_path" // a tool call's location or diff names a path that is not absolute (E4); applied as sent
  | "terminal_failed" // killing or releasing a client terminal failed
  | "v2_fallback"; // the agent refused the v2 initialize; connectAgent retried with v1

/** A diagnostic listener. */
export type DiagnosticListener = (diagnostic: Diagnostic) => void;

/**
 * Fans diagnostics out to listeners. A listener that throws does not stop the others or the
 * caller: listeners are observers. The Connection, `serveAgent` and `connectAgent` each use one.
 */
export class DiagnosticEmitter {
  private listeners: DiagnosticListener[] = [];

  /** Add a listener; returns the function that removes it. */
  subscribe(listener: DiagnosticListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Hand `diagnostic` to every listener. */
  emit(diagnostic: Diagnostic): void {
    // Iterate a snapshot; a listener that throws must not stop the others or the connection.
    for (const listener of this.listeners) {
      try {
        listener(diagnostic);
      } catch {
        // Listeners are observers; their failures are theirs.
      }
    }
  }
}

/** `params.sessionId` when it is a string, so a diagnostic can say which session it concerns. */
export function sessionIdOf(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const sessionId = (params as { sessionId?: unknown }).sessionId;
  return typeof sessionId === "string" ? sessionId : undefined;
}
