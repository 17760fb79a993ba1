// Diagnostics: things acpkit noticed and handled without an error reply the caller could see —
// a dropped notification, an unknown method, a handler that threw while handling a notification,
// a peer that answered with garbage, a lossy v1 conversion. Listeners decide whether to log them.
// Each package owns its codes: core's are the Connection's and the bridge's (`DiagnosticCode`);
// @acpkit/agent and @acpkit/client add theirs (AgentDiagnosticCode, ClientDiagnosticCode) and
// type their diagnostics as `Diagnostic<their codes | DiagnosticCode>`.
import type { LossyCode } from "./lossy-code.js";

/**
 * One event reported by a Connection, the agent or client runtime, or the v1 bridge. Without a
 * type argument its code is any string, so one list can hold every package's diagnostics; each
 * package types its own precisely (core: `Diagnostic<DiagnosticCode>`, @acpkit/agent:
 * `AgentDiagnostic`, @acpkit/client: `ClientDiagnostic`).
 */
export interface Diagnostic<Code extends string = string> {
  /** Stable machine-readable code: one of `DiagnosticCode`, or of the package that raised it. */
  code: Code;
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

/** Core's diagnostic codes: the Connection's and the bridge's. */
export type DiagnosticCode = ConnectionDiagnosticCode | BridgeDiagnosticCode;

/** The codes of the v1 bridge: each lossy conversion (`lossy_<LossyCode>`), and a v1 agent's ordering slip. */
export type BridgeDiagnosticCode =
  | `lossy_${LossyCode}` // something a conversion between dialects lost or approximated; the rest of the code says what (LossyCode)
  | "v1_tool_call_missing"; // a v1 agent updated a tool call it never announced; the call was created with defaults

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

/** A diagnostic listener. */
export type DiagnosticListener<Code extends string = string> = (diagnostic: Diagnostic<Code>) => void;

/**
 * Fans diagnostics out to listeners. A listener that throws does not stop the others or the
 * caller: listeners are observers. The Connection, `serveAgent` and `connectAgent` each use one.
 */
export class DiagnosticEmitter<Code extends string = DiagnosticCode> {
  private listeners: DiagnosticListener<Code>[] = [];

  /** Add a listener; returns the function that removes it. */
  subscribe(listener: DiagnosticListener<Code>): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Hand `diagnostic` to every listener. */
  emit(diagnostic: Diagnostic<Code>): void {
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
