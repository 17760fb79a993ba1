import type { AgentDefinition, AgentServer } from "@acpkit/agent";
import type { Connection, Transport } from "@acpkit/core";
export declare const VALIDATE_OUTGOING: boolean;
export declare function acpkitAgentDefinition(versions?: readonly (1 | 2)[]): AgentDefinition;
export declare function serveAcpkitAgent(transport: Transport, versions?: readonly (1 | 2)[]): AgentServer;
export declare function servePlainV1Agent(transport: Transport): Connection;
