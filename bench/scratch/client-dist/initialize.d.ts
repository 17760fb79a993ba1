import { type ProtocolVersion } from "@acpkit/schema";
import type { AgentCapabilities, AuthMethod, ConnectOptions, Implementation } from "./types.js";
type Json = Record<string, unknown>;
/** `initialize` params for the offered version; never both versions' fields (§3.2). */
export declare function initializeParams(offer: ProtocolVersion, options: ConnectOptions): Json;
export interface AgentDescription {
    protocolVersion: ProtocolVersion;
    agentCapabilities: AgentCapabilities;
    agentInfo: Implementation | null;
    authMethods: AuthMethod[];
}
/** Read the agent's answer; throws AcpError("VersionUnsupported" | "ProtocolViolation"). */
export declare function readInitializeResult(result: unknown): AgentDescription;
/** Block types a prompt may carry for this agent: baseline plus capabilities (§1.3). */
export declare function acceptedPromptBlocks(capabilities: AgentCapabilities): ReadonlySet<string>;
export {};
//# sourceMappingURL=initialize.d.ts.map