export { connectAgent, type AgentConnection } from "./connect.js";
export { ClientSession } from "./session.js";
export { Turn } from "./turn.js";
export type { AgentCapabilities, AuthMethod, ConnectOptions, ContentBlock, FileSystemHandlers, Implementation, LoadSessionOptions, McpServer, Meta, ModelUpdate, NewSessionOptions, PermissionContext, PermissionOption, PermissionOutcome, PermissionRequest, PromptOptions, PromptOutcome, StopReason, ToolCallPatch, } from "./types.js";
export * from "./state/index.js";
//# sourceMappingURL=index.d.ts.map