// serveAgent: serve an AgentDefinition over a transport. This module is the public face (the
// AgentServer a caller gets, and the checks of the definition); agent-runtime.ts is the runtime
// behind it, and the session methods live in session-setup.ts and session-controls.ts.
import { type CloseInfo, type Connection, type Dialect, describeTransportProblem, type Transport } from "@acpkit/core";
import type { AgentDiagnostic as Diagnostic } from "./diagnostics.js";
import type { ProtocolVersion } from "@acpkit/schema";
import { AgentRuntime, DEFAULT_VERSIONS } from "./agent-runtime.js";
import type { AgentDefinition, ClientInfo, ServeOptions } from "./types.js";

export { DEFAULT_MAX_SESSIONS } from "./session-table.js";

/** A running agent: one connection to one client. */
export interface AgentServer {
  /** The underlying JSON-RPC connection. */
  readonly connection: Connection<"agent">;
  /** The negotiated version, once `initialize` succeeded. */
  readonly protocolVersion: ProtocolVersion | undefined;
  /**
   * The wire dialect, once `initialize` succeeded: `v1`, `v2-pinned`, or `v2-later` (the v2 of
   * `@agentclientprotocol/sdk` 2.4, told apart by the `info` of the client's `initialize`).
   */
  readonly dialect: Dialect | undefined;
  /** What the client said about itself in `initialize`. */
  readonly client: ClientInfo | undefined;
  /** Resolves when the transport closed. */
  readonly closed: Promise<CloseInfo>;
  /** Diagnostics from the connection and the runtime (dropped updates, lossy v1 conversions, …). */
  onDiagnostic(listener: (diagnostic: Diagnostic) => void): () => void;
  /** Close the connection; running turns see their signal abort. */
  close(reason?: string): Promise<void>;
}

function checkDefinition(agent: AgentDefinition): void {
  if (typeof agent?.prompt !== "function") throw new TypeError("serveAgent: the agent definition needs a prompt(turn) function");
  if ((agent.authMethods?.length ?? 0) > 0 && typeof agent.authenticate !== "function") {
    throw new TypeError("serveAgent: the agent lists authMethods but has no authenticate(methodId) function");
  }
  if (agent.features?.loadSession && typeof agent.loadSession !== "function") {
    throw new TypeError("serveAgent: features.loadSession is set but the agent has no loadSession(request, replay) function");
  }
  if (agent.modes && !agent.modes.availableModes.some((mode) => mode.id === agent.modes!.currentModeId)) {
    throw new TypeError(`serveAgent: modes.currentModeId "${agent.modes.currentModeId}" is not one of modes.availableModes`);
  }
  for (const version of agent.versions ?? DEFAULT_VERSIONS) {
    if (version !== 1 && version !== 2) throw new TypeError(`serveAgent: unsupported protocol version ${JSON.stringify(version)} in versions (1 and 2 exist)`);
  }
}

/**
 * Serve `agent` over `transport`: answers initialize for protocol v1 and v2, runs one prompt turn
 * at a time per session and guarantees every update of a turn is written before its response.
 */
export function serveAgent(transport: Transport, agent: AgentDefinition, options: ServeOptions = {}): AgentServer {
  const transportProblem = describeTransportProblem(transport);
  if (transportProblem !== undefined) throw new TypeError(`serveAgent: ${transportProblem}`);
  checkDefinition(agent);
  const runtime = new AgentRuntime(transport, agent, options);
  // The caller gets the AgentServer and nothing of the runtime's own members.
  return {
    connection: runtime.connection,
    closed: runtime.closed,
    get protocolVersion() {
      return runtime.protocolVersion;
    },
    get dialect() {
      return runtime.dialect;
    },
    get client() {
      return runtime.clientInfo;
    },
    onDiagnostic: (listener) => runtime.onDiagnostic(listener),
    close: (reason) => runtime.close(reason),
  };
}
