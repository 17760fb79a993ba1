import { Connection, type CloseInfo, type Diagnostic, type Transport } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import { ClientSession } from "./session.js";
import type { AgentCapabilities, AuthMethod, ConnectOptions, Implementation, LoadSessionOptions, NewSessionOptions } from "./types.js";
/** A connection to an initialized agent. */
export interface AgentConnection {
    /** The underlying JSON-RPC connection. */
    readonly connection: Connection;
    /** The version the agent answered (one per connection). */
    readonly protocolVersion: ProtocolVersion;
    readonly agentCapabilities: AgentCapabilities;
    readonly agentInfo: Implementation | null;
    readonly authMethods: readonly AuthMethod[];
    /** Resolves when the transport closed. */
    readonly closed: Promise<CloseInfo>;
    /** Call `authenticate` with one of `authMethods`. */
    authenticate(methodId: string): Promise<void>;
    /** Create a session (`session/new`). */
    newSession(options: NewSessionOptions): Promise<ClientSession>;
    /** Load a session (`session/load`); its history arrives as updates before this resolves. */
    loadSession(options: LoadSessionOptions): Promise<ClientSession>;
    /** Diagnostics from the connection, the v1 bridge and the sessions. */
    onDiagnostic(listener: (diagnostic: Diagnostic) => void): () => void;
    close(reason?: string): Promise<void>;
}
/**
 * Connect to an agent over `transport`: sends `initialize` offering `options.protocolVersion`
 * (default 1) and resolves once the agent answered with a version this client speaks (1 or 2).
 * Any other answer closes the connection and rejects with AcpError "VersionUnsupported".
 */
export declare function connectAgent(transport: Transport, options?: ConnectOptions): Promise<AgentConnection>;
//# sourceMappingURL=connect.d.ts.map