// Which connection diagnostics mean the agent broke the protocol. `acpkit run` exits 1 on those;
// the rest (lossy v1 conversions, our own handler failures, ignored extension messages) are
// reported on stderr but do not fail the run.
import type { Diagnostic } from "@acpkit/core";

const VIOLATIONS: ReadonlySet<string> = new Set([
  "parse_error", // the agent wrote a line that is not JSON
  "invalid_message", // not a JSON-RPC message
  "invalid_params", // a notification (session/update) failing the schema
  "legacy_shape", // the same, in a pre-1.0 shape
  "invalid_result", // a result failing the schema
  "unexpected_response", // a response to nothing we sent
  "peer_error", // the agent could not read something we sent (error with id null)
  "transport_error", // an oversized line, a binary frame
  "unknown_session", // an update for a session that does not exist
]);

/**
 * True when the diagnostic is the agent's fault. Unknown methods and notifications count unless
 * they are `_`-prefixed extensions, which a receiver may ignore (docs/protocol.md §3.3).
 */
export function isProtocolViolation(diagnostic: Diagnostic): boolean {
  if (VIOLATIONS.has(diagnostic.code)) return true;
  if (diagnostic.code === "unknown_method" || diagnostic.code === "unknown_notification") {
    return !(diagnostic.method ?? "").startsWith("_") && !(diagnostic.method ?? "").startsWith("$/");
  }
  return false;
}
