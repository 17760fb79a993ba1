// For every $def of schema/v1: at least one value it must reject, with the JSON Pointer of the
// error asserted (missing required field, wrong enum value, wrong type, bad nested variant).
// A $def added to the schema without a row here fails the coverage test.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateDefinition, validateParams, validateResult } from "./support/v1-api.js";

interface Rejection {
  def: string;
  why: string;
  value: unknown;
  /** JSON Pointer every reported error must include (the first one is enough). */
  path: string;
  /** Optional check of the error message at that path. */
  message?: RegExp;
}

const text = { type: "text", text: "hi" };
const toolCallUpdate = (fields: Record<string, unknown>) => ({ sessionUpdate: "tool_call_update", toolCallId: "t1", ...fields });

const REJECTIONS: Rejection[] = [
  // Envelope
  { def: "Meta", why: "wrong type", value: "trace", path: "", message: /object|null/ },
  { def: "RequestId", why: "wrong type", value: { n: 1 }, path: "" },
  { def: "RequestId", why: "fractional number", value: 1.5, path: "" },
  { def: "ErrorCode", why: "outside int32", value: 2 ** 31, path: "" },
  { def: "ErrorCode", why: "wrong type", value: "-32602", path: "" },
  { def: "Error", why: "missing message", value: { code: -32602 }, path: "/message" },
  { def: "Error", why: "fractional code", value: { code: 1.5, message: "x" }, path: "/code" },
  { def: "JsonRpcRequest", why: "missing method", value: { jsonrpc: "2.0", id: 1 }, path: "/method" },
  { def: "JsonRpcRequest", why: "wrong jsonrpc", value: { jsonrpc: "1.0", id: 1, method: "initialize" }, path: "/jsonrpc" },
  { def: "JsonRpcRequest", why: "array params", value: { jsonrpc: "2.0", id: 1, method: "x", params: [1] }, path: "/params" },
  { def: "JsonRpcNotification", why: "carries an id", value: { jsonrpc: "2.0", id: 3, method: "session/cancel" }, path: "/id" },
  { def: "JsonRpcSuccessResponse", why: "missing result", value: { jsonrpc: "2.0", id: 1 }, path: "/result" },
  { def: "JsonRpcSuccessResponse", why: "result and error", value: { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } }, path: "/error" },
  { def: "JsonRpcErrorResponse", why: "bad error object", value: { jsonrpc: "2.0", id: 1, error: { code: -32600 } }, path: "/error/message" },
  { def: "JsonRpcMessage", why: "a batch (v1 has none)", value: [{ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } }], path: "" },
  { def: "JsonRpcMessage", why: "no jsonrpc member", value: { id: 1, method: "initialize" }, path: "/jsonrpc" },

  // Ids and scalars
  { def: "ProtocolVersion", why: "semver string", value: "1.0.0", path: "" },
  { def: "ProtocolVersion", why: "above uint16", value: 65536, path: "" },
  { def: "ProtocolVersion", why: "negative", value: -1, path: "" },
  { def: "SessionId", why: "wrong type", value: 7, path: "", message: /string/ },
  { def: "MessageId", why: "wrong type", value: null, path: "" },
  { def: "ToolCallId", why: "wrong type", value: 1, path: "" },
  { def: "TerminalId", why: "wrong type", value: {}, path: "" },
  { def: "PermissionOptionId", why: "wrong type", value: true, path: "" },
  { def: "AuthMethodId", why: "wrong type", value: [], path: "" },
  { def: "SessionModeId", why: "wrong type", value: 0, path: "" },
  { def: "SessionConfigId", why: "wrong type", value: 0, path: "" },
  { def: "SessionConfigValueId", why: "wrong type", value: false, path: "" },
  { def: "SessionConfigGroupId", why: "wrong type", value: null, path: "" },

  // initialize
  { def: "InitializeRequest", why: "missing protocolVersion", value: { clientCapabilities: {} }, path: "/protocolVersion" },
  { def: "InitializeRequest", why: "string protocolVersion", value: { protocolVersion: "1" }, path: "/protocolVersion" },
  {
    def: "InitializeRequest",
    why: "bad nested fs capability",
    value: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: "yes" } } },
    path: "/clientCapabilities/fs/readTextFile",
  },
  { def: "InitializeResponse", why: "missing protocolVersion", value: { agentCapabilities: {} }, path: "/protocolVersion" },
  { def: "InitializeResponse", why: "bad auth method", value: { protocolVersion: 1, authMethods: [{ id: "login" }] }, path: "/authMethods/0/name" },
  { def: "Implementation", why: "missing version", value: { name: "acpkit" }, path: "/version" },
  { def: "Implementation", why: "wrong title type", value: { name: "a", version: "1", title: 3 }, path: "/title" },
  { def: "ClientCapabilities", why: "terminal not boolean", value: { terminal: "no" }, path: "/terminal" },
  { def: "FileSystemCapabilities", why: "writeTextFile not boolean", value: { writeTextFile: 1 }, path: "/writeTextFile" },
  { def: "AuthCapabilities", why: "terminal not boolean", value: { terminal: null }, path: "/terminal" },
  { def: "AgentCapabilities", why: "loadSession not boolean", value: { loadSession: "true" }, path: "/loadSession" },
  { def: "AgentCapabilities", why: "v2-style marker for a v1 boolean", value: { promptCapabilities: { image: {} } }, path: "/promptCapabilities/image" },
  { def: "PromptCapabilities", why: "embeddedContext not boolean", value: { embeddedContext: {} }, path: "/embeddedContext" },
  { def: "McpCapabilities", why: "http not boolean", value: { http: "yes" }, path: "/http" },
  { def: "SessionCapabilities", why: "boolean instead of a marker", value: { list: true }, path: "/list" },
  { def: "SessionListCapabilities", why: "wrong type", value: true, path: "" },
  { def: "SessionDeleteCapabilities", why: "wrong type", value: "yes", path: "" },
  { def: "SessionAdditionalDirectoriesCapabilities", why: "wrong type", value: 1, path: "" },
  { def: "SessionResumeCapabilities", why: "bad _meta", value: { _meta: 1 }, path: "/_meta" },
  { def: "SessionCloseCapabilities", why: "wrong type", value: [], path: "" },
  { def: "AgentAuthCapabilities", why: "boolean instead of a marker", value: { logout: true }, path: "/logout" },
  { def: "LogoutCapabilities", why: "wrong type", value: false, path: "" },
  { def: "AuthMethod", why: "missing name", value: { id: "login" }, path: "/name" },
  { def: "AuthMethod", why: "terminal method with bad args", value: { type: "terminal", id: "t", name: "T", args: "--login" }, path: "/args" },
  { def: "AuthMethodAgent", why: "missing id", value: { name: "Log in" }, path: "/id" },
  { def: "AuthMethodAgent", why: "the terminal tag", value: { type: "terminal", id: "t", name: "T" }, path: "/type" },
  { def: "AuthMethodTerminal", why: "missing type tag", value: { id: "t", name: "T" }, path: "/type" },
  { def: "AuthMethodTerminal", why: "env value not a string", value: { type: "terminal", id: "t", name: "T", env: { A: 1 } }, path: "/env/A" },

  // authenticate, session/new, session/load
  { def: "AuthenticateRequest", why: "missing methodId", value: {}, path: "/methodId" },
  { def: "AuthenticateResponse", why: "wrong type", value: null, path: "" },
  { def: "NewSessionRequest", why: "missing mcpServers", value: { cwd: "/home/u/p" }, path: "/mcpServers" },
  {
    def: "NewSessionRequest",
    why: "bad stdio server",
    value: { cwd: "/p", mcpServers: [{ name: "fs", command: "/bin/fs", args: [] }] },
    path: "/mcpServers/0/env",
  },
  { def: "NewSessionResponse", why: "missing sessionId", value: {}, path: "/sessionId" },
  {
    def: "NewSessionResponse",
    why: "bad config option",
    value: { sessionId: "s", configOptions: [{ type: "boolean", id: "x", name: "X" }] },
    path: "/configOptions/0/currentValue",
  },
  { def: "LoadSessionRequest", why: "missing sessionId", value: { cwd: "/p", mcpServers: [] }, path: "/sessionId" },
  { def: "LoadSessionResponse", why: "bad modes", value: { modes: { currentModeId: "a" } }, path: "/modes/availableModes" },
  { def: "McpServer", why: "http server without headers", value: { type: "http", name: "h", url: "https://x" }, path: "/headers" },
  { def: "McpServer", why: "http server with a stdio body", value: { type: "http", name: "h", command: "/bin/x", args: [], env: [] }, path: "/type" },
  { def: "McpServerHttp", why: "wrong tag", value: { type: "sse", name: "h", url: "u", headers: [] }, path: "/type" },
  { def: "McpServerSse", why: "missing url", value: { type: "sse", name: "s", headers: [] }, path: "/url" },
  { def: "McpServerStdio", why: "args not strings", value: { name: "n", command: "c", args: [1], env: [] }, path: "/args/0" },
  { def: "HttpHeader", why: "missing value", value: { name: "Authorization" }, path: "/value" },
  { def: "EnvVariable", why: "value not a string", value: { name: "A", value: 1 }, path: "/value" },
  { def: "SessionModeState", why: "bad mode", value: { currentModeId: "a", availableModes: [{ id: "a" }] }, path: "/availableModes/0/name" },
  { def: "SessionMode", why: "missing id", value: { name: "Ask" }, path: "/id" },

  // session/prompt
  { def: "PromptRequest", why: "missing prompt", value: { sessionId: "s" }, path: "/prompt" },
  { def: "PromptRequest", why: "prompt is a string", value: { sessionId: "s", prompt: "hi" }, path: "/prompt" },
  { def: "PromptRequest", why: "bad nested block", value: { sessionId: "s", prompt: [text, { type: "image", data: "AAA" }] }, path: "/prompt/1/mimeType" },
  { def: "PromptResponse", why: "missing stopReason", value: {}, path: "/stopReason" },
  { def: "PromptResponse", why: "unknown stop reason", value: { stopReason: "error" }, path: "/stopReason", message: /end_turn/ },
  { def: "StopReason", why: "unknown value", value: "done", path: "" },

  // Content
  {
    def: "ContentBlock",
    why: "unknown type",
    value: { type: "video", data: "x" },
    path: "/type",
    message: /"text", "image", "audio", "resource_link", "resource".*got "video"/,
  },
  { def: "ContentBlock", why: "missing type", value: { text: "hi" }, path: "/type" },
  { def: "ContentBlock", why: "text block without text", value: { type: "text" }, path: "/text" },
  { def: "ContentBlockText", why: "text not a string", value: { type: "text", text: 1 }, path: "/text" },
  { def: "ContentBlockImage", why: "missing data", value: { type: "image", mimeType: "image/png" }, path: "/data" },
  { def: "ContentBlockAudio", why: "wrong tag", value: { type: "image", data: "x", mimeType: "audio/wav" }, path: "/type" },
  { def: "ContentBlockResourceLink", why: "missing name", value: { type: "resource_link", uri: "file:///a" }, path: "/name" },
  { def: "ContentBlockResourceLink", why: "fractional size", value: { type: "resource_link", uri: "file:///a", name: "a", size: 1.5 }, path: "/size" },
  { def: "ContentBlockResource", why: "resource without text or blob", value: { type: "resource", resource: { uri: "file:///a" } }, path: "/resource/text" },
  { def: "TextContent", why: "bad annotations", value: { text: "x", annotations: { audience: ["robot"] } }, path: "/annotations/audience/0" },
  { def: "ImageContent", why: "uri wrong type", value: { data: "x", mimeType: "image/png", uri: 1 }, path: "/uri" },
  { def: "AudioContent", why: "missing mimeType", value: { data: "x" }, path: "/mimeType" },
  { def: "ResourceLink", why: "missing uri", value: { name: "a" }, path: "/uri" },
  { def: "EmbeddedResource", why: "missing resource", value: {}, path: "/resource" },
  { def: "EmbeddedResourceResource", why: "legacy content field", value: { uri: "file:///a", content: "x" }, path: "/text" },
  { def: "TextResourceContents", why: "missing uri", value: { text: "x" }, path: "/uri" },
  { def: "BlobResourceContents", why: "blob not a string", value: { uri: "u", blob: 1 }, path: "/blob" },
  { def: "Annotations", why: "priority not a number", value: { priority: "high" }, path: "/priority" },
  { def: "Role", why: "unknown role", value: "system", path: "" },

  // session/update
  { def: "SessionNotification", why: "missing update", value: { sessionId: "s" }, path: "/update" },
  {
    def: "SessionNotification",
    why: "bad nested variant",
    value: { sessionId: "s", update: { sessionUpdate: "plan", entries: [{ content: "x", priority: "urgent", status: "pending" }] } },
    path: "/update/entries/0/priority",
  },
  {
    def: "SessionUpdate",
    why: "unknown tag",
    value: { sessionUpdate: "plan_update" },
    path: "/sessionUpdate",
    message: /"user_message_chunk".*"usage_update".*got "plan_update"/,
  },
  { def: "SessionUpdate", why: "tag not a string", value: { sessionUpdate: 3 }, path: "/sessionUpdate" },
  { def: "SessionUpdate", why: "not an object", value: "plan", path: "" },
  { def: "SessionUpdateUserMessageChunk", why: "missing content", value: { sessionUpdate: "user_message_chunk" }, path: "/content" },
  {
    def: "SessionUpdateAgentMessageChunk",
    why: "messageId wrong type",
    value: { sessionUpdate: "agent_message_chunk", content: text, messageId: 5 },
    path: "/messageId",
  },
  {
    def: "SessionUpdateAgentThoughtChunk",
    why: "content is an array (v2 message shape)",
    value: { sessionUpdate: "agent_thought_chunk", content: [text] },
    path: "/content",
  },
  { def: "SessionUpdateToolCall", why: "missing title", value: { sessionUpdate: "tool_call", toolCallId: "t" }, path: "/title" },
  {
    def: "SessionUpdateToolCall",
    why: "null status (not nullable on create)",
    value: { sessionUpdate: "tool_call", toolCallId: "t", title: "x", status: null },
    path: "/status",
  },
  { def: "SessionUpdateToolCallUpdate", why: "wire status cancelled", value: toolCallUpdate({ status: "cancelled" }), path: "/status" },
  { def: "SessionUpdatePlan", why: "missing entries", value: { sessionUpdate: "plan" }, path: "/entries" },
  {
    def: "SessionUpdateAvailableCommandsUpdate",
    why: "missing availableCommands",
    value: { sessionUpdate: "available_commands_update" },
    path: "/availableCommands",
  },
  { def: "SessionUpdateCurrentModeUpdate", why: "missing currentModeId", value: { sessionUpdate: "current_mode_update" }, path: "/currentModeId" },
  {
    def: "SessionUpdateConfigOptionUpdate",
    why: "configOptions not an array",
    value: { sessionUpdate: "config_option_update", configOptions: {} },
    path: "/configOptions",
  },
  { def: "SessionUpdateSessionInfoUpdate", why: "title wrong type", value: { sessionUpdate: "session_info_update", title: 1 }, path: "/title" },
  { def: "SessionUpdateUsageUpdate", why: "negative used", value: { sessionUpdate: "usage_update", used: -1, size: 10 }, path: "/used" },
  { def: "ContentChunk", why: "bad nested block", value: { content: { type: "resource_link", uri: "u" } }, path: "/content/name" },
  { def: "ToolCall", why: "missing toolCallId", value: { title: "x" }, path: "/toolCallId" },
  { def: "ToolCall", why: "null content (not nullable on create)", value: { toolCallId: "t", title: "x", content: null }, path: "/content" },
  { def: "ToolCall", why: "bad location line", value: { toolCallId: "t", title: "x", locations: [{ path: "/a", line: -1 }] }, path: "/locations/0/line" },
  { def: "ToolCallUpdate", why: "missing toolCallId", value: { status: "completed" }, path: "/toolCallId" },
  { def: "ToolCallUpdate", why: "unknown kind", value: { toolCallId: "t", kind: "deploy" }, path: "/kind" },
  { def: "ToolCallUpdate", why: "bad nested content item", value: { toolCallId: "t", content: [{ type: "diff", path: "/a" }] }, path: "/content/0/newText" },
  { def: "ToolKind", why: "PascalCase value", value: "Read", path: "" },
  { def: "ToolCallStatus", why: "legacy success", value: "success", path: "" },
  { def: "ToolCallLocation", why: "missing path", value: { line: 3 }, path: "/path" },
  { def: "ToolCallLocation", why: "line above uint32", value: { path: "/a", line: 2 ** 32 }, path: "/line" },
  {
    def: "ToolCallContent",
    why: "unknown type",
    value: { type: "_acpkit/terminal", terminalId: "x" },
    path: "/type",
    message: /"content", "diff", "terminal".*got "_acpkit\/terminal"/,
  },
  { def: "ToolCallContent", why: "bare content block", value: text, path: "/type" },
  { def: "ToolCallContentContent", why: "missing content", value: { type: "content" }, path: "/content" },
  { def: "ToolCallContentDiff", why: "missing path", value: { type: "diff", newText: "x" }, path: "/path" },
  { def: "ToolCallContentTerminal", why: "missing terminalId", value: { type: "terminal" }, path: "/terminalId" },
  { def: "Content", why: "bad nested block", value: { content: { type: "audio", mimeType: "audio/wav" } }, path: "/content/data" },
  { def: "Diff", why: "oldText wrong type", value: { path: "/a", newText: "b", oldText: 1 }, path: "/oldText" },
  { def: "Terminal", why: "terminalId wrong type", value: { terminalId: 1 }, path: "/terminalId" },
  { def: "Plan", why: "entries not an array", value: { entries: {} }, path: "/entries" },
  { def: "PlanEntry", why: "missing status", value: { content: "x", priority: "low" }, path: "/status" },
  { def: "PlanEntryPriority", why: "PascalCase value", value: "High", path: "" },
  { def: "PlanEntryStatus", why: "cancelled is not a plan status", value: "cancelled", path: "" },
  { def: "AvailableCommandsUpdate", why: "bad command", value: { availableCommands: [{ name: "web" }] }, path: "/availableCommands/0/description" },
  { def: "AvailableCommand", why: "bad input", value: { name: "web", description: "Search", input: { type: "structured" } }, path: "/input/hint" },
  { def: "AvailableCommandInput", why: "missing hint", value: {}, path: "/hint" },
  { def: "UnstructuredCommandInput", why: "hint wrong type", value: { hint: 1 }, path: "/hint" },
  { def: "CurrentModeUpdate", why: "currentModeId wrong type", value: { currentModeId: 1 }, path: "/currentModeId" },
  { def: "ConfigOptionUpdate", why: "missing configOptions", value: {}, path: "/configOptions" },
  { def: "SessionConfigOption", why: "unknown type", value: { type: "slider", id: "x", name: "X" }, path: "/type" },
  { def: "SessionConfigOption", why: "select without options", value: { type: "select", id: "m", name: "Model", currentValue: "a" }, path: "/options" },
  { def: "SessionConfigOptionSelect", why: "missing currentValue", value: { type: "select", id: "m", name: "Model", options: [] }, path: "/currentValue" },
  {
    def: "SessionConfigOptionBoolean",
    why: "currentValue not boolean",
    value: { type: "boolean", id: "b", name: "B", currentValue: "on" },
    path: "/currentValue",
  },
  { def: "SessionConfigOptionCommon", why: "missing name", value: { id: "x" }, path: "/name" },
  { def: "SessionConfigOptionCategory", why: "wrong type", value: 1, path: "" },
  { def: "SessionConfigSelect", why: "options not an array", value: { currentValue: "a", options: "a,b" }, path: "/options" },
  { def: "SessionConfigBoolean", why: "missing currentValue", value: {}, path: "/currentValue" },
  { def: "SessionConfigSelectOptions", why: "not an array", value: {}, path: "" },
  { def: "SessionConfigSelectOption", why: "missing value", value: { name: "A" }, path: "/value" },
  { def: "SessionConfigSelectGroup", why: "missing options", value: { group: "g", name: "G" }, path: "/options" },
  { def: "SessionInfoUpdate", why: "updatedAt wrong type", value: { updatedAt: 1700000000 }, path: "/updatedAt" },
  { def: "UsageUpdate", why: "missing size", value: { used: 1 }, path: "/size" },
  { def: "UsageUpdate", why: "fractional used", value: { used: 1.5, size: 2 }, path: "/used" },
  { def: "UsageUpdate", why: "bad cost", value: { used: 1, size: 2, cost: { amount: 1 } }, path: "/cost/currency" },
  { def: "Cost", why: "amount not a number", value: { amount: "0.1", currency: "USD" }, path: "/amount" },

  // Cancellation
  { def: "CancelNotification", why: "missing sessionId", value: {}, path: "/sessionId" },
  { def: "CancelRequestNotification", why: "missing requestId", value: {}, path: "/requestId" },
  { def: "CancelRequestNotification", why: "requestId wrong type", value: { requestId: true }, path: "/requestId" },

  // Permission
  { def: "RequestPermissionRequest", why: "missing toolCall", value: { sessionId: "s", options: [] }, path: "/toolCall" },
  {
    def: "RequestPermissionRequest",
    why: "bad option kind",
    value: { sessionId: "s", toolCall: { toolCallId: "t" }, options: [{ optionId: "a", name: "A", kind: "allow" }] },
    path: "/options/0/kind",
  },
  { def: "RequestPermissionResponse", why: "outcome as a bare string", value: { outcome: "cancelled" }, path: "/outcome" },
  { def: "RequestPermissionResponse", why: "selected without optionId", value: { outcome: { outcome: "selected" } }, path: "/outcome/optionId" },
  { def: "PermissionOption", why: "missing name", value: { optionId: "a", kind: "allow_once" }, path: "/name" },
  { def: "PermissionOptionKind", why: "unknown kind", value: "allow", path: "" },
  { def: "RequestPermissionOutcome", why: "unknown outcome", value: { outcome: "dismissed" }, path: "/outcome" },
  { def: "RequestPermissionOutcomeCancelled", why: "wrong tag", value: { outcome: "selected" }, path: "/outcome" },
  { def: "RequestPermissionOutcomeSelected", why: "missing optionId", value: { outcome: "selected" }, path: "/optionId" },
  { def: "SelectedPermissionOutcome", why: "optionId wrong type", value: { optionId: 1 }, path: "/optionId" },

  // fs
  { def: "ReadTextFileRequest", why: "missing path", value: { sessionId: "s" }, path: "/path" },
  { def: "ReadTextFileRequest", why: "negative limit", value: { sessionId: "s", path: "/a", limit: -5 }, path: "/limit" },
  { def: "ReadTextFileResponse", why: "missing content", value: {}, path: "/content" },
  { def: "WriteTextFileRequest", why: "missing content", value: { sessionId: "s", path: "/a" }, path: "/content" },
  { def: "WriteTextFileResponse", why: "wrong type", value: "ok", path: "" },

  // Client session capabilities and elicitation capabilities
  { def: "ClientSessionCapabilities", why: "notices as a boolean", value: { notices: true }, path: "/notices" },
  { def: "CompactionCapabilities", why: "not an object", value: true, path: "" },
  { def: "NoticeCapabilities", why: "not an object", value: "yes", path: "" },
  { def: "SessionConfigOptionsCapabilities", why: "boolean as a boolean", value: { boolean: true }, path: "/boolean" },
  { def: "BooleanConfigOptionCapabilities", why: "not an object", value: 1, path: "" },
  { def: "ElicitationCapabilities", why: "form as a boolean", value: { form: true }, path: "/form" },
  { def: "ElicitationFormCapabilities", why: "not an object", value: [], path: "" },
  { def: "ElicitationUrlCapabilities", why: "not an object", value: false, path: "" },

  // Session methods beyond the prompt turn
  { def: "LogoutRequest", why: "not an object", value: "now", path: "" },
  { def: "LogoutResponse", why: "not an object", value: null, path: "" },
  { def: "ListSessionsRequest", why: "cursor wrong type", value: { cursor: 2 }, path: "/cursor" },
  { def: "ListSessionsResponse", why: "missing sessions", value: { nextCursor: "c" }, path: "/sessions" },
  { def: "ListSessionsResponse", why: "entry without cwd", value: { sessions: [{ sessionId: "s" }] }, path: "/sessions/0/cwd" },
  { def: "SessionInfo", why: "missing sessionId", value: { cwd: "/p" }, path: "/sessionId" },
  { def: "ResumeSessionRequest", why: "missing cwd", value: { sessionId: "s" }, path: "/cwd" },
  { def: "ResumeSessionResponse", why: "modes without currentModeId", value: { modes: { availableModes: [] } }, path: "/modes/currentModeId" },
  { def: "CloseSessionRequest", why: "missing sessionId", value: {}, path: "/sessionId" },
  { def: "CloseSessionResponse", why: "not an object", value: [], path: "" },
  { def: "DeleteSessionRequest", why: "sessionId wrong type", value: { sessionId: 7 }, path: "/sessionId" },
  { def: "DeleteSessionResponse", why: "not an object", value: 0, path: "" },
  { def: "SetSessionModeRequest", why: "missing modeId", value: { sessionId: "s" }, path: "/modeId" },
  { def: "SetSessionModeResponse", why: "not an object", value: "ok", path: "" },
  { def: "SetSessionConfigOptionRequest", why: "missing value", value: { sessionId: "s", configId: "model" }, path: "/value" },
  { def: "SetSessionConfigOptionTarget", why: "missing configId", value: { sessionId: "s" }, path: "/configId" },
  {
    def: "SetSessionConfigOptionBoolean",
    why: "boolean value as a string",
    value: { sessionId: "s", configId: "b", type: "boolean", value: "on" },
    path: "/value",
  },
  { def: "SetSessionConfigOptionValue", why: "value wrong type", value: { sessionId: "s", configId: "m", value: 3 }, path: "/value" },
  { def: "SetSessionConfigOptionResponse", why: "missing configOptions", value: {}, path: "/configOptions" },

  // Notices and compaction
  { def: "SessionUpdateNotice", why: "missing title", value: { sessionUpdate: "notice", severity: "info" }, path: "/title" },
  { def: "SessionUpdateCompactionUpdate", why: "missing status", value: { sessionUpdate: "compaction_update", compactionId: "c" }, path: "/status" },
  {
    def: "SessionUpdateCompactionSummaryChunk",
    why: "missing content",
    value: { sessionUpdate: "compaction_summary_chunk", compactionId: "c" },
    path: "/content",
  },
  { def: "Notice", why: "missing severity", value: { title: "Heads up" }, path: "/severity" },
  { def: "NoticeSeverity", why: "not a string", value: 3, path: "" },
  { def: "CompactionId", why: "not a string", value: 1, path: "" },
  { def: "CompactionStatus", why: "not a string", value: null, path: "" },
  {
    def: "CompactionUpdate",
    why: "bad summary block",
    value: { compactionId: "c", status: "completed", summary: [{ type: "text" }] },
    path: "/summary/0/text",
  },
  { def: "CompactionSummaryChunk", why: "missing compactionId", value: { content: { type: "text", text: "x" } }, path: "/compactionId" },

  // Terminals
  { def: "CreateTerminalRequest", why: "missing command", value: { sessionId: "s" }, path: "/command" },
  { def: "CreateTerminalRequest", why: "negative outputByteLimit", value: { sessionId: "s", command: "ls", outputByteLimit: -1 }, path: "/outputByteLimit" },
  { def: "CreateTerminalResponse", why: "missing terminalId", value: {}, path: "/terminalId" },
  { def: "TerminalOutputRequest", why: "missing terminalId", value: { sessionId: "s" }, path: "/terminalId" },
  { def: "TerminalOutputResponse", why: "missing truncated", value: { output: "" }, path: "/truncated" },
  { def: "TerminalExitStatus", why: "negative exit code", value: { exitCode: -1 }, path: "/exitCode" },
  { def: "WaitForTerminalExitRequest", why: "missing sessionId", value: { terminalId: "t" }, path: "/sessionId" },
  { def: "WaitForTerminalExitResponse", why: "signal wrong type", value: { signal: 9 }, path: "/signal" },
  { def: "KillTerminalRequest", why: "terminalId wrong type", value: { sessionId: "s", terminalId: 1 }, path: "/terminalId" },
  { def: "KillTerminalResponse", why: "not an object", value: "killed", path: "" },
  { def: "ReleaseTerminalRequest", why: "missing terminalId", value: { sessionId: "s" }, path: "/terminalId" },
  { def: "ReleaseTerminalResponse", why: "not an object", value: true, path: "" },

  // Elicitation
  { def: "ElicitationId", why: "not a string", value: 5, path: "" },
  { def: "CreateElicitationRequest", why: "form without requestedSchema", value: { mode: "form", message: "m", sessionId: "s" }, path: "/requestedSchema" },
  { def: "CreateElicitationRequest", why: "missing mode", value: { message: "m", sessionId: "s" }, path: "/mode" },
  { def: "ElicitationCommon", why: "missing message", value: {}, path: "/message" },
  { def: "CreateElicitationForm", why: "no scope", value: { mode: "form", message: "m", requestedSchema: {} }, path: "" },
  { def: "CreateElicitationUrl", why: "missing url", value: { mode: "url", message: "m", elicitationId: "e", sessionId: "s" }, path: "/url" },
  { def: "CreateElicitationUnknown", why: "missing message", value: { mode: "_x" }, path: "/message" },
  { def: "ElicitationSchema", why: "type other than object", value: { type: "array" }, path: "/type" },
  { def: "ElicitationSchema", why: "bad field", value: { properties: { n: { type: "number", minimum: "0" } } }, path: "/properties/n/minimum" },
  { def: "ElicitationPropertySchema", why: "missing type", value: { title: "x" }, path: "/type" },
  { def: "ElicitationStringProperty", why: "unknown format", value: { type: "string", format: "phone" }, path: "/format" },
  { def: "StringFormat", why: "unknown format", value: "phone", path: "" },
  { def: "EnumOption", why: "missing title", value: { const: "a" }, path: "/title" },
  { def: "ElicitationNumberProperty", why: "default wrong type", value: { type: "number", default: "1" }, path: "/default" },
  { def: "ElicitationIntegerProperty", why: "fractional default", value: { type: "integer", default: 1.5 }, path: "/default" },
  { def: "ElicitationBooleanProperty", why: "default wrong type", value: { type: "boolean", default: "yes" }, path: "/default" },
  { def: "ElicitationArrayProperty", why: "missing items", value: { type: "array" }, path: "/items" },
  { def: "MultiSelectItems", why: "not an object", value: ["a", "b"], path: "" },
  { def: "StringMultiSelectItems", why: "missing enum", value: { type: "string" }, path: "/enum" },
  { def: "TitledMultiSelectItems", why: "missing anyOf", value: {}, path: "/anyOf" },
  { def: "OtherMultiSelectItems", why: "type string is not other", value: { type: "string" }, path: "/type" },
  { def: "ElicitationPropertyUnknown", why: "known type", value: { type: "string" }, path: "/type" },
  { def: "CreateElicitationResponse", why: "missing action", value: {}, path: "/action" },
  { def: "CreateElicitationResponse", why: "accept with a bad value", value: { action: "accept", content: { n: { x: 1 } } }, path: "/content/n" },
  { def: "ElicitationAccept", why: "content wrong type", value: { action: "accept", content: [] }, path: "/content" },
  { def: "ElicitationDecline", why: "wrong tag", value: { action: "accept" }, path: "/action" },
  { def: "ElicitationCancel", why: "wrong tag", value: { action: "decline" }, path: "/action" },
  { def: "ElicitationActionUnknown", why: "known action", value: { action: "cancel" }, path: "/action" },
  { def: "ElicitationContentValue", why: "object value", value: { a: 1 }, path: "" },
  { def: "CompleteElicitationNotification", why: "missing elicitationId", value: {}, path: "/elicitationId" },
];

const schemaFile = resolve(fileURLToPath(import.meta.url), "../../../../schema/v1/acp.schema.json");
const v1DefNames = Object.keys((JSON.parse(readFileSync(schemaFile, "utf8")) as { $defs: object }).$defs);

describe("v1 rejections", () => {
  it("cover every $def of schema/v1", () => {
    const covered = new Set(REJECTIONS.map((r) => r.def));
    expect(v1DefNames.filter((name) => !covered.has(name))).toEqual([]);
    expect([...covered].filter((name) => !v1DefNames.includes(name))).toEqual([]);
  });

  it.each(REJECTIONS.map((r) => [`${r.def}: ${r.why}`, r] as const))("%s", (_name, rejection) => {
    const result = validateDefinition(1, rejection.def, rejection.value);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    const atPath = result.errors.filter((error) => error.path === rejection.path);
    expect(atPath, `errors: ${JSON.stringify(result.errors)}`).not.toEqual([]);
    if (rejection.message) expect(atPath.map((error) => error.message).join("\n")).toMatch(rejection.message);
  });
});

describe("v1 method payloads: rejected with the path into params or result", () => {
  it.each([
    ["initialize", { protocolVersion: "1.0.0" }, "/protocolVersion"],
    ["authenticate", { method: "login" }, "/methodId"],
    ["session/new", { cwd: 1, mcpServers: [] }, "/cwd"],
    ["session/load", { sessionId: "s", cwd: "/p" }, "/mcpServers"],
    ["session/prompt", { sessionId: "s", prompt: [{ type: "text" }] }, "/prompt/0/text"],
    ["session/update", { sessionId: "s", update: { sessionUpdate: "tool_call_update" } }, "/update/toolCallId"],
    ["session/cancel", { sessionId: null }, "/sessionId"],
    ["$/cancel_request", { requestId: [1] }, "/requestId"],
    ["session/request_permission", { sessionId: "s", toolCall: {}, options: [] }, "/toolCall/toolCallId"],
    ["fs/read_text_file", { sessionId: "s", path: "/a", line: "10" }, "/line"],
    ["fs/write_text_file", { sessionId: "s", content: "x" }, "/path"],
  ] as const)("%s params", (method, params, path) => {
    const result = validateParams(1, method, params);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors.map((error) => error.path)).toContain(path);
  });

  it.each([
    ["initialize", { protocolVersion: 1, authMethods: {} }, "/authMethods"],
    ["authenticate", [], ""],
    ["session/new", { sessionId: 1 }, "/sessionId"],
    ["session/load", { modes: "code" }, "/modes"],
    ["session/prompt", { stopReason: "max_tokens_exceeded" }, "/stopReason"],
    ["session/request_permission", { outcome: { outcome: "selected", optionId: null } }, "/outcome/optionId"],
    ["fs/read_text_file", { content: null }, "/content"],
    ["fs/write_text_file", null, ""],
  ] as const)("%s result", (method, value, path) => {
    const result = validateResult(1, method, value);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors.map((error) => error.path)).toContain(path);
  });
});

describe("pre-1.0 shapes (MCP-tools draft, §9) under v1 name the modern shape", () => {
  it("acp/session_update with session_id and a PascalCase event", () => {
    const result = validateParams(1, "acp/session_update", { session_id: "s", update: { sessionUpdate: "AgentMessageChunk", content: text } });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors[0]).toMatchObject({ path: "", legacyShape: "acp/session_update", expected: '"session/update"' });
  });

  it("session_id instead of sessionId", () => {
    const result = validateParams(1, "session/update", { session_id: "s", update: { sessionUpdate: "agent_message_chunk", content: text } });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors[0]).toMatchObject({ path: "/session_id", legacyShape: "session_id" });
    expect(result.errors.map((error) => error.path)).toContain("/sessionId");
  });

  it.each([
    ["AgentMessageChunk", "/update/sessionUpdate"],
    ["ToolCall", "/update/sessionUpdate"],
    ["Plan", "/update/sessionUpdate"],
  ])("PascalCase event %s", (tag, path) => {
    const result = validateParams(1, "session/update", { sessionId: "s", update: { sessionUpdate: tag } });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors[0]).toMatchObject({ path, legacyShape: tag });
    expect(result.errors[0]!.message).toMatch(/snake_case/);
  });

  it("PascalCase kind and status", () => {
    const result = validateParams(1, "session/update", {
      sessionId: "s",
      update: { sessionUpdate: "tool_call", toolCallId: "t", title: "Read", kind: "Read", status: "InProgress" },
    });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors[0]).toMatchObject({ path: "/update/status", expected: '"in_progress"' });
  });
});
