// Diagnostics: things the connection noticed and handled without an error reply the caller could
// see — a dropped notification, an unknown method, a handler that threw while handling a
// notification, a peer that answered with garbage. Listeners decide whether to log them.

/** One event reported by a Connection (see the README for the list of codes). */
export interface Diagnostic {
  /** Stable machine-readable code, e.g. "invalid_params", "unknown_notification". */
  code: DiagnosticCode | (string & {});
  /** One human sentence. */
  message: string;
  method?: string;
  /** JSON Pointer into the params/result when validation failed. */
  path?: string;
  sessionId?: string;
  /** The validation errors, the thrown error, the offending message, … */
  detail?: unknown;
}

/** The codes a `Connection` itself raises; the agent and client runtimes add their own. */
export type DiagnosticCode =
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
  | "unexpected_response" // a response whose id matches nothing we sent
  | "peer_error" // the peer answered with an error that has no id (it could not read something we sent)
  | "transport_error"; // the transport recovered from a framing problem

export type DiagnosticListener = (diagnostic: Diagnostic) => void;

export class DiagnosticEmitter {
  private listeners: DiagnosticListener[] = [];

  subscribe(listener: DiagnosticListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

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
