// The client runtime's diagnostic codes, and the diagnostics connectAgent reports: its own codes
// and core's (the Connection's and the v1 bridge's).
import type { Diagnostic as CoreDiagnostic, DiagnosticCode } from "@acpkit/core";

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
  | "v2_fallback" // the agent refused the v2 initialize; connectAgent retried with v1
  | "dialect_retry" // the agent refused the pinned v2 initialize; connectAgent offered the later v2 draft's
  | "version_retry"; // the agent answered -32022 (no version at or below the offer); connectAgent retried with one it listed

/** A diagnostic `connectAgent` and its sessions report: a code of the client runtime's, or of core's (the Connection, the v1 bridge). */
export type ClientDiagnostic = CoreDiagnostic<ClientDiagnosticCode | DiagnosticCode>;
