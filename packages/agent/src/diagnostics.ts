// The agent runtime's diagnostic codes, and the diagnostics serveAgent reports: its own codes and
// core's (the Connection's and the v1 bridge's).
import type { Diagnostic as CoreDiagnostic, DiagnosticCode } from "@acpkit/core";

/** The codes `serveAgent` adds. */
export type AgentDiagnosticCode =
  | "turn_closed" // a write from a turn (or its handles) after the turn ended; dropped
  | "write_failed" // an update could not be written (the connection failed or closed)
  | "updates_backlog" // a turn queued many distinct updates without awaiting turn.flush(); they are held in memory
  | "handler_error_after_cancel" // the prompt handler threw after a cancel; answered "cancelled" anyway
  | "too_many_sessions"; // a session/new, load or resume over the connection's maxSessions limit (answered -32603)

/** A diagnostic `serveAgent` reports: a code of the agent runtime's, or of core's (the Connection, the v1 bridge). */
export type AgentDiagnostic = CoreDiagnostic<AgentDiagnosticCode | DiagnosticCode>;
