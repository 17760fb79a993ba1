// Which diagnostics mean the agent broke the protocol. `acpkit run` exits 1 on those; the rest
// (lossy v1 conversions, our own handler failures, ignored extension messages) are reported on
// stderr but do not fail the run. The switch is exhaustive over every package's codes (core's,
// the client's, the agent's), so a new code anywhere in acpkit must be classified here before the
// CLI compiles.
import type { AgentDiagnosticCode } from "@acpkit/agent";
import type { ClientDiagnosticCode } from "@acpkit/client";
import type { Diagnostic, DiagnosticCode } from "@acpkit/core";

/** Every diagnostic code an acpkit package raises. */
type AnyDiagnosticCode = DiagnosticCode | ClientDiagnosticCode | AgentDiagnosticCode;

/** True when `code` always means the agent broke the protocol. */
function isViolationCode(code: AnyDiagnosticCode): boolean | "unless_extension" {
  switch (code) {
    case "parse_error": // the agent wrote a line that is not JSON
    case "invalid_message": // not a JSON-RPC message
    case "invalid_params": // a notification (session/update) failing the schema
    case "legacy_shape": // the same, in a pre-1.0 shape
    case "invalid_result": // a result failing the schema
    case "unexpected_response": // a response to nothing we sent, or a second answer (E9)
    case "peer_error": // the agent could not read something we sent (error with id null)
    case "transport_error": // an oversized line, a binary frame
    case "unknown_session": // an update for a session that does not exist
      return true;
    case "unknown_method":
    case "unknown_notification":
      return "unless_extension";
    case "internal_error":
    case "not_initialized":
    case "handler_error":
    case "outgoing_invalid":
    case "turn_closed":
    case "write_failed":
    case "updates_backlog":
    case "handler_error_after_cancel":
    case "too_many_sessions":
    case "unknown_update":
    case "message_kind_mismatch":
    case "invalid_update":
    case "permission_unhandled":
    case "error_after_cancel":
    case "cancel_not_sent":
    case "listener_error":
    case "v1_tool_call_missing":
    case "unadvertised_update": // a notice or compaction the client did not ask for: ignored with a note
    case "relative_path": // E4 asks for absolute paths but the schema allows any string: reported, not a failure
    case "terminal_failed":
    case "v2_fallback": // the agent refused v2; the run goes on with v1 and says so
    case "dialect_retry": // the agent refused the pinned v2 shape; the run offers the later draft's
    case "version_retry": // the agent answered -32022 and listed a version; the run goes on with it
    case "too_many_requests": // more of the agent's requests at once than the limit: refused, and allowed by the protocol
      return false;
    default: {
      // Only lossy v1 conversions are left (the assignment fails to compile otherwise): they are
      // reported, never the agent's fault.
      const lossyConversion: `lossy_${string}` = code;
      void lossyConversion;
      return false;
    }
  }
}

/**
 * True when the diagnostic is the agent's fault. Unknown methods and notifications count unless
 * they are `_`-prefixed extensions or `$/` notifications, which a receiver may ignore
 * (docs/protocol.md §3.3).
 */
export function isProtocolViolation(diagnostic: Diagnostic<AnyDiagnosticCode>): boolean {
  const verdict = isViolationCode(diagnostic.code);
  if (verdict !== "unless_extension") return verdict;
  const method = diagnostic.method ?? "";
  return !method.startsWith("_") && !method.startsWith("$/");
}
