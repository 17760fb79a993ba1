// Pinned v2: for every $def of schema/v2/acp.schema.json at least one bad value is rejected, and
// the error points at the offending place (a JSON Pointer into the value; a missing property is
// pointed at directly). A coverage test keeps the table in step with the schema.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateDefinition } from "./support/api.js";
import { repoRoot } from "./support/protocol-examples.js";

/** [definition, what is wrong, value, expected error path] */
type Rejection = [string, string, unknown, string];

const text = { type: "text", text: "hi" };

const rejections: Rejection[] = [
  // JSON-RPC envelope
  ["RequestId", "wrong type", true, ""],
  ["ErrorCode", "not an integer", 1.5, ""],
  ["ErrorCode", "outside int32", 2 ** 31, ""],
  ["Error", "missing code", { message: "x" }, "/code"],
  ["JsonRpcRequest", "missing method", { jsonrpc: "2.0", id: 1 }, "/method"],
  ["JsonRpcRequest", "wrong jsonrpc version", { jsonrpc: "1.0", id: 1, method: "initialize" }, "/jsonrpc"],
  ["JsonRpcRequest", "params is an array", { jsonrpc: "2.0", id: 1, method: "x", params: [] }, "/params"],
  ["JsonRpcNotification", "method is a number", { jsonrpc: "2.0", method: 5 }, "/method"],
  ["JsonRpcSuccessResponse", "id is an object", { jsonrpc: "2.0", id: {}, result: {} }, "/id"],
  ["JsonRpcErrorResponse", "bad nested error code", { jsonrpc: "2.0", id: 1, error: { code: "x", message: "m" } }, "/error/code"],
  ["JsonRpcMessage", "neither request, notification nor response", { jsonrpc: "2.0" }, "/method"],
  ["JsonRpcBatch", "entry is not a message", [{ jsonrpc: "2.0", id: 1 }], "/0/method"],
  ["JsonRpcBatch", "empty batch", [], ""],

  // Scalars
  ["Meta", "a string", "x", ""],
  ["ProtocolVersion", "a semver string", "1.0.0", ""],
  ["ProtocolVersion", "above uint16", 65536, ""],
  ["SessionId", "a number", 1, ""],
  ["MessageId", "null", null, ""],
  ["ToolCallId", "a number", 7, ""],
  ["PlanId", "an object", {}, ""],
  ["PermissionOptionId", "an array", [], ""],
  ["AuthMethodId", "a boolean", false, ""],

  // initialize
  ["InitializeRequest", "missing protocolVersion", {}, "/protocolVersion"],
  ["InitializeRequest", "protocolVersion as a string", { protocolVersion: "2" }, "/protocolVersion"],
  ["InitializeResponse", "authMethods is an object", { protocolVersion: 2, authMethods: {} }, "/authMethods"],
  ["Implementation", "missing version", { name: "a" }, "/version"],
  ["CapabilityMarker", "a boolean instead of {}", true, ""],
  ["ClientCapabilities", "_meta is a number", { _meta: 1 }, "/_meta"],
  ["AgentCapabilities", "session as a boolean", { session: true }, "/session"],
  ["SessionCapabilities", "nested v1-style boolean", { prompt: { image: true } }, "/prompt/image"],
  ["PromptCapabilities", "embeddedContext as a boolean", { embeddedContext: false }, "/embeddedContext"],
  ["McpCapabilities", "http as a string", { http: "yes" }, "/http"],
  ["AgentAuthCapabilities", "logout as a number", { logout: 1 }, "/logout"],
  ["AuthMethod", "v1 untagged method (no type)", { id: "a", name: "b" }, "/type"],
  ["AuthMethod", "known tag without id", { type: "agent", name: "x" }, "/id"],
  ["AuthMethodAgent", "name is a number", { type: "agent", id: "a", name: 1 }, "/name"],
  ["AuthMethodUnknown", "missing name", { type: "_x", id: "a" }, "/name"],
  ["AuthenticateRequest", "missing methodId", {}, "/methodId"],
  ["AuthenticateResponse", "not an object", [], ""],

  // session/new, session/load
  ["NewSessionRequest", "missing mcpServers", { cwd: "/p" }, "/mcpServers"],
  ["NewSessionResponse", "missing sessionId", {}, "/sessionId"],
  ["LoadSessionRequest", "missing sessionId", { cwd: "/p", mcpServers: [] }, "/sessionId"],
  ["LoadSessionResponse", "configOptions is an object", { configOptions: {} }, "/configOptions"],
  ["McpServer", "known tag without headers", { type: "http", name: "x", url: "https://x" }, "/headers"],
  ["McpServerStdio", "non-string argument", { type: "stdio", name: "x", command: "/c", args: [1], env: [] }, "/args/0"],
  ["McpServerHttp", "header without value", { type: "http", name: "x", url: "u", headers: [{ name: "a" }] }, "/headers/0/value"],
  ["McpServerUnknown", "a known tag", { type: "stdio" }, "/type"],
  ["McpServerUnknown", "missing type", { name: "x" }, "/type"],
  ["EnvVariable", "missing value", { name: "A" }, "/value"],
  ["HttpHeader", "missing name", { value: "v" }, "/name"],

  // session/prompt and content
  ["PromptRequest", "legacy `messages` instead of `prompt`", { sessionId: "s", messages: [] }, "/prompt"],
  ["PromptRequest", "prompt is a string", { sessionId: "s", prompt: "hi" }, "/prompt"],
  ["PromptResponse", "later-draft `{}` acknowledgement", {}, "/stopReason"],
  ["PromptResponse", "stopReason is a number", { stopReason: 1 }, "/stopReason"],
  ["StopReason", "a number", 1, ""],
  ["ContentBlock", "text block without text", { type: "text" }, "/text"],
  ["ContentBlock", "missing type", { text: "hi" }, "/type"],
  ["ContentBlockText", "bad nested annotations", { type: "text", text: "x", annotations: { priority: "high" } }, "/annotations/priority"],
  ["ContentBlockImage", "uri is a number", { type: "image", data: "AA==", mimeType: "image/png", uri: 5 }, "/uri"],
  ["ContentBlockAudio", "missing data", { type: "audio", mimeType: "audio/wav" }, "/data"],
  ["ContentBlockResourceLink", "size is not an integer", { type: "resource_link", uri: "file:///a", name: "a", size: 1.5 }, "/size"],
  ["ContentBlockResource", "resource neither text nor blob", { type: "resource", resource: { uri: "file:///a" } }, "/resource/text"],
  ["ContentBlockUnknown", "a known tag", { type: "image" }, "/type"],
  ["TextContent", "text is null", { text: null }, "/text"],
  ["ImageContent", "missing mimeType", { data: "AA==" }, "/mimeType"],
  ["AudioContent", "mimeType is a number", { data: "AA==", mimeType: 1 }, "/mimeType"],
  ["ResourceLink", "missing name", { uri: "u" }, "/name"],
  ["EmbeddedResource", "missing resource", {}, "/resource"],
  ["EmbeddedResourceResource", "text is a number", { uri: "u", text: 1 }, "/text"],
  ["TextResourceContents", "mimeType is a number", { uri: "u", text: "t", mimeType: 1 }, "/mimeType"],
  ["BlobResourceContents", "missing blob", { uri: "u" }, "/blob"],
  ["Annotations", "audience entry is a number", { audience: ["user", 3] }, "/audience/1"],
  ["Role", "a number", 3, ""],

  // session/update
  ["SessionNotification", "missing sessionId", { update: { sessionUpdate: "usage_update", used: 1, size: 2 } }, "/sessionId"],
  ["SessionNotification", "legacy session_id", { session_id: "s", update: { sessionUpdate: "_x" } }, "/sessionId"],
  ["SessionUpdate", "missing tag", {}, "/sessionUpdate"],
  ["SessionUpdateUserMessageChunk", "bad nested block", { sessionUpdate: "user_message_chunk", messageId: "m", content: { type: "text" } }, "/content/text"],
  ["SessionUpdateAgentMessageChunk", "missing messageId (v1 shape)", { sessionUpdate: "agent_message_chunk", content: text }, "/messageId"],
  ["SessionUpdateAgentThoughtChunk", "messageId is a number", { sessionUpdate: "agent_thought_chunk", messageId: 5, content: text }, "/messageId"],
  ["SessionUpdateUserMessage", "missing messageId", { sessionUpdate: "user_message", content: [] }, "/messageId"],
  ["SessionUpdateAgentMessage", "bad block inside content", { sessionUpdate: "agent_message", messageId: "m", content: [{ type: "text" }] }, "/content/0/text"],
  ["SessionUpdateAgentThought", "_meta is a string", { sessionUpdate: "agent_thought", messageId: "m", _meta: "x" }, "/_meta"],
  [
    "SessionUpdateToolCallUpdate",
    "location without path",
    { sessionUpdate: "tool_call_update", toolCallId: "t", locations: [{ line: 1 }] },
    "/locations/0/path",
  ],
  ["SessionUpdateToolCallContentChunk", "missing content", { sessionUpdate: "tool_call_content_chunk", toolCallId: "t" }, "/content"],
  [
    "SessionUpdatePlanUpdate",
    "entry without status",
    { sessionUpdate: "plan_update", plan: { type: "items", id: "p", entries: [{ content: "x", priority: "high" }] } },
    "/plan/entries/0/status",
  ],
  ["SessionUpdateUsageUpdate", "used is fractional", { sessionUpdate: "usage_update", used: 1.5, size: 10 }, "/used"],
  [
    "SessionUpdateAvailableCommandsUpdate",
    "command without description",
    { sessionUpdate: "available_commands_update", availableCommands: [{ name: "x" }] },
    "/availableCommands/0/description",
  ],
  ["SessionUpdateConfigOptionUpdate", "missing configOptions", { sessionUpdate: "config_option_update" }, "/configOptions"],
  ["SessionUpdateSessionInfoUpdate", "title is a number", { sessionUpdate: "session_info_update", title: 1 }, "/title"],
  ["SessionUpdateUnknown", "a known tag", { sessionUpdate: "tool_call_update" }, "/sessionUpdate"],
  ["SessionUpdateUnknown", "missing tag", {}, "/sessionUpdate"],
  ["ContentChunk", "missing content", { messageId: "m" }, "/content"],
  ["MessageUpdate", "content is a string", { messageId: "m", content: "x" }, "/content"],
  ["ToolCallUpdate", "status is a number", { toolCallId: "t", status: 3 }, "/status"],
  ["ToolCallUpdate", "legacy id/name/arguments", { id: "t", name: "read", arguments: {} }, "/toolCallId"],
  ["ToolCallContentChunk", "bad nested item", { toolCallId: "t", content: { type: "content" } }, "/content/content"],
  ["ToolCallContent", "bad nested block", { type: "content", content: { type: "text", text: 1 } }, "/content/text"],
  ["ToolCallContentContent", "missing content", { type: "content" }, "/content"],
  ["ToolCallContentDiff", "oldText is a number", { type: "diff", path: "/a", newText: "x", oldText: 1 }, "/oldText"],
  ["ToolCallContentUnknown", "a known tag", { type: "diff" }, "/type"],
  ["Content", "content is a string", { content: "x" }, "/content"],
  ["Diff", "missing path", { newText: "x" }, "/path"],
  ["ToolCallLocation", "negative line", { path: "/a", line: -1 }, "/line"],
  ["ToolKind", "null (only ToolCallUpdate.kind is nullable)", null, ""],
  ["ToolCallStatus", "a number", 1, ""],
  ["PlanUpdate", "missing plan", {}, "/plan"],
  ["PlanUpdateContent", "reserved markdown type", { type: "markdown", id: "p" }, "/type"],
  ["PlanUpdateContentItems", "missing entries", { type: "items", id: "p" }, "/entries"],
  ["PlanUpdateContentUnknown", "unknown type without id", { type: "_x" }, "/id"],
  ["PlanUpdateContentUnknown", "reserved file type", { type: "file", id: "p" }, "/type"],
  ["PlanItems", "id is a number", { id: 1, entries: [] }, "/id"],
  ["PlanEntry", "status is null", { content: "x", priority: "high", status: null }, "/status"],
  ["PlanEntryPriority", "a number", 1, ""],
  ["PlanEntryStatus", "an object", {}, ""],
  ["UsageUpdate", "missing size", { used: 1 }, "/size"],
  ["Cost", "amount as a string", { amount: "0.1", currency: "USD" }, "/amount"],
  ["AvailableCommandsUpdate", "missing availableCommands", {}, "/availableCommands"],
  ["AvailableCommand", "input neither {hint} nor typed", { name: "x", description: "d", input: {} }, "/input/hint"],
  ["AvailableCommandInput", "hint is a number", { hint: 1 }, "/hint"],
  ["UnstructuredCommandInput", "missing hint", {}, "/hint"],
  ["AvailableCommandInputUnknown", "type is a number", { type: 1 }, "/type"],
  ["ConfigOptionUpdate", "option without type", { configOptions: [{ id: "a", name: "A" }] }, "/configOptions/0/type"],
  ["SessionConfigOption", "unknown option type (closed)", { type: "radio", id: "a", name: "b" }, "/type"],
  ["SessionConfigOptionSelect", "missing options", { type: "select", id: "m", name: "Model", currentValue: "a" }, "/options"],
  ["SessionConfigOptionBoolean", "currentValue is a string", { type: "boolean", id: "b", name: "B", currentValue: "yes" }, "/currentValue"],
  ["SessionConfigOptionCommon", "missing name", { id: "a" }, "/name"],
  ["SessionConfigId", "a number", 1, ""],
  ["SessionConfigValueId", "a number", 1, ""],
  ["SessionConfigGroupId", "a number", 1, ""],
  ["SessionConfigOptionCategory", "a number", 1, ""],
  ["SessionConfigSelectOptions", "entry neither option nor group", [{ value: "a" }], "/0/name"],
  ["SessionConfigSelectOption", "missing name", { value: "a" }, "/name"],
  ["SessionConfigSelectGroup", "missing options", { group: "g", name: "G" }, "/options"],
  ["SessionInfoUpdate", "updatedAt is a number", { updatedAt: 5 }, "/updatedAt"],

  // session/cancel, session/request_permission
  ["CancelNotification", "missing sessionId", {}, "/sessionId"],
  ["RequestPermissionRequest", "later-draft shape without toolCall", { sessionId: "s", title: "Run?", options: [] }, "/toolCall"],
  [
    "RequestPermissionRequest",
    "bad nested option kind",
    { sessionId: "s", toolCall: { toolCallId: "t" }, options: [{ optionId: "a", name: "A", kind: 1 }] },
    "/options/0/kind",
  ],
  ["RequestPermissionResponse", "outcome as a bare string", { outcome: "selected" }, "/outcome"],
  ["PermissionOption", "missing kind", { optionId: "a", name: "A" }, "/kind"],
  ["PermissionOptionKind", "a boolean", true, ""],
  ["RequestPermissionOutcome", "unknown outcome (closed union)", { outcome: "allowed" }, "/outcome"],
  ["RequestPermissionOutcome", "selected without optionId", { outcome: "selected" }, "/optionId"],
  ["RequestPermissionOutcomeCancelled", "wrong tag", { outcome: "selected" }, "/outcome"],
  ["RequestPermissionOutcomeSelected", "missing optionId", { outcome: "selected" }, "/optionId"],
  // Session methods of spec commit bae0a2a7
  ["LogoutRequest", "not an object", "now", ""],
  ["LogoutResponse", "not an object", [], ""],
  ["ListSessionsRequest", "cwd wrong type", { cwd: 1 }, "/cwd"],
  ["ListSessionsResponse", "missing sessions", {}, "/sessions"],
  ["SessionInfo", "missing cwd", { sessionId: "s" }, "/cwd"],
  ["ResumeSessionRequest", "missing sessionId", { cwd: "/p" }, "/sessionId"],
  ["ResumeSessionResponse", "configOptions wrong type", { configOptions: {} }, "/configOptions"],
  ["CloseSessionRequest", "missing sessionId", {}, "/sessionId"],
  ["CloseSessionResponse", "not an object", 1, ""],
  ["DeleteSessionRequest", "sessionId wrong type", { sessionId: null }, "/sessionId"],
  ["DeleteSessionResponse", "not an object", "done", ""],
  ["SetSessionConfigOptionRequest", "a boolean value (v2 has value ids only)", { sessionId: "s", configId: "b", value: true }, "/value"],
  ["SetSessionConfigOptionResponse", "missing configOptions", {}, "/configOptions"],
];

describe("pinned v2 rejections", () => {
  it.each(rejections)("%s rejects %s", (definition, _why, value, path) => {
    const result = validateDefinition(2, definition, value);
    expect(result.valid, `${definition} accepted ${JSON.stringify(value)}`).toBe(false);
    if (result.valid) return;
    expect(result.errors.map((error) => error.path)).toContain(path);
    for (const error of result.errors) expect(error.message).not.toBe("");
  });

  it("covers every $def of schema/v2/acp.schema.json", () => {
    const schema = JSON.parse(readFileSync(resolve(repoRoot, "schema/v2/acp.schema.json"), "utf8")) as { $defs: Record<string, unknown> };
    const covered = new Set(rejections.map(([definition]) => definition));
    const missing = Object.keys(schema.$defs).filter((name) => !covered.has(name));
    expect(missing).toEqual([]);
    const unknownNames = [...covered].filter((name) => !(name in schema.$defs));
    expect(unknownNames).toEqual([]);
  });
});
