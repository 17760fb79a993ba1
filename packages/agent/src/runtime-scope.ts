// What the modules that answer an agent connection's methods (session-setup.ts,
// session-controls.ts) need of the runtime that owns the connection. Every method they answer
// comes after a successful initialize (the connection refuses anything earlier, N8), so the
// version and the client are known by then.
import type { AgentDiagnostic as Diagnostic } from "./diagnostics.js";
import type { ProtocolVersion } from "@acpkit/schema";
import type { AgentSession } from "./agent-session.js";
import type { SessionTable } from "./session-table.js";
import type { AgentDefinition, ClientInfo } from "./types.js";

export interface RuntimeScope {
  readonly agent: AgentDefinition;
  readonly sessions: SessionTable;
  readonly report: (diagnostic: Diagnostic) => void;
  /** The negotiated version (set by initialize). */
  readonly version: ProtocolVersion;
  /** What the client said about itself (set by initialize). */
  readonly client: ClientInfo;
  /** -32000 unless the client has authenticated (when the agent requires it). */
  requireAuthenticated(): void;
  /** Forget a successful authentication (logout). */
  signOut(): void;
  /** A session object for `sessionId` on this connection's wire (not yet in the table). */
  createSession(sessionId: string): AgentSession;
}
