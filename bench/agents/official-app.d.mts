import type { AgentApp } from "@agentclientprotocol/sdk";
export declare function buildOfficialAgent(): AgentApp;
