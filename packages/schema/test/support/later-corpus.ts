// The agreement corpus of the later v2 draft: payloads of every method, valid and invalid, that
// between them reach every $def of schema/v2-later/acp.schema.json (except the unknown branches,
// which only values the official schema also accepts under another branch can reach).
// official-agreement.test.ts checks that acpkit's validators and the official SDK 2.4.0's v2
// schema give each row the verdict it records.
import type { CorpusRow } from "./agreement-corpus.js";

const row = (method: string, part: CorpusRow["part"], note: string, value: unknown, valid = true): CorpusRow => ({ method, part, value, valid, note });
const update = (note: string, value: Record<string, unknown>, valid = true) => row("session/update", "params", note, { sessionId: "s1", update: value }, valid);

const info = { name: "zed", title: "Zed", version: "1.0.0", _meta: { build: 7 } };
const text = { type: "text", text: "hello", annotations: { audience: ["user"], priority: 0.5, lastModified: "2026-01-01T00:00:00Z" } };
const image = { type: "image", data: "aGk=", mimeType: "image/png", uri: "file:///a.png" };
const audio = { type: "audio", data: "aGk=", mimeType: "audio/wav" };
const icon = { src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"], theme: "dark" };
const link = { type: "resource_link", uri: "file:///a.txt", name: "a.txt", title: "A", description: "file a", icons: [icon], mimeType: "text/plain", size: 3 };
const embeddedText = { type: "resource", resource: { uri: "file:///b.txt", text: "b", mimeType: "text/plain" } };
const embeddedBlob = { type: "resource", resource: { uri: "file:///c.bin", blob: "AA==" } };
const select = {
  type: "select",
  configId: "model",
  name: "Model",
  description: "Which model answers",
  category: "model",
  currentValue: "fast",
  options: [
    { value: "fast", name: "Fast" },
    { value: "deep", name: "Deep", description: "slower" },
  ],
};
const groupedSelect = {
  type: "select",
  configId: "effort",
  name: "Effort",
  currentValue: "low",
  options: [{ groupId: "g1", name: "Basic", options: [{ value: "low", name: "Low" }] }],
};
const booleanOption = { type: "boolean", configId: "yolo", name: "Auto-approve", category: "_custom", currentValue: false };
const unknownOption = { type: "_slider", configId: "temp", name: "Temperature", min: 0 };
const commands = [
  { type: "command", name: "test", description: "Run the tests", input: { type: "text", hint: "test name" } },
  { type: "command", name: "plan", description: "Make a plan", input: { type: "_choices", choices: ["a"] } },
  { type: "_macro", name: "m", description: "A macro" },
];
const toolCall = {
  toolCallId: "t1",
  name: "read_file",
  title: "Read a",
  kind: "read",
  status: "pending",
  locations: [{ path: "/p/a", line: 3 }],
  rawInput: { path: "/p/a" },
  capabilities: { cancel: {} },
};
const diff = {
  type: "diff",
  changes: [
    { operation: "add", path: "/p/new.txt", fileType: "text", mimeType: "text/plain" },
    { operation: "delete", path: "/p/old.txt" },
    { operation: "modify", path: "/p/a.txt", fileType: "_sparse" },
    { operation: "move", oldPath: "/p/b.txt", path: "/p/c.txt" },
    { operation: "copy", oldPath: "/p/d.txt", path: "/p/e.txt" },
    { operation: "_chmod", path: "/p/f.sh" },
  ],
  patch: { format: "git_patch", text: "diff --git a/p/a.txt b/p/a.txt\n--- a/p/a.txt\n+++ b/p/a.txt\n@@ -1 +1 @@\n-a\n+b\n" },
};
const background = [
  { type: "tool_call", toolCallId: "t1" },
  { type: "terminal", terminalId: "term1" },
  { type: "_job", jobId: "j" },
];
const options = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "never", name: "Never", kind: "reject_always", _meta: null },
];
const formSchema = {
  type: "object",
  title: "Sign up",
  description: "Tell us about you",
  properties: {
    email: {
      type: "string",
      title: "Email",
      description: "Your address",
      minLength: 3,
      maxLength: 80,
      pattern: "^[^@]+@[^@]+$",
      format: "email",
      default: "a@b.c",
    },
    color: { type: "string", enum: ["red", "blue"] },
    size: { type: "string", oneOf: [{ const: "s", title: "Small", description: "the small one" }] },
    ratio: { type: "number", minimum: 0, maximum: 1.5, default: 1 },
    count: { type: "integer", minimum: 0, maximum: 5, default: 2 },
    agree: { type: "boolean", title: "Agree", default: true },
    tags: { type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["x", "y"] }, default: ["x"] },
    sizes: { type: "array", items: { anyOf: [{ const: "m", title: "Medium" }] } },
    shade: { type: "_color", palette: "web" },
  },
  required: ["email"],
};

export const LATER_V2_CORPUS: CorpusRow[] = [
  row("initialize", "params", "info and the draft's client capabilities", {
    protocolVersion: 2,
    info,
    capabilities: { auth: { terminal: {} }, elicitation: { form: {}, url: {} }, _meta: {} },
    _meta: { trace: "x" },
  }),
  row("initialize", "params", "the least a client sends", { protocolVersion: 2, info: { name: "c", version: "0" } }),
  row("initialize", "params", "the pinned draft's clientInfo instead of info", { protocolVersion: 2, clientInfo: info }, false),
  row("initialize", "params", "info without its version", { protocolVersion: 2, info: { name: "c" } }, false),
  row("initialize", "params", "a capability marker that is not an object", { protocolVersion: 2, info, capabilities: { elicitation: { form: true } } }, false),
  row("initialize", "params", "a negative version", { protocolVersion: -1, info }, false),
  row("initialize", "result", "every capability and each kind of auth method", {
    protocolVersion: 2,
    info: { name: "agent", version: "2.0.0" },
    capabilities: {
      session: { prompt: { image: {}, audio: {}, embeddedContext: {} }, mcp: { stdio: {}, http: {} }, delete: {}, additionalDirectories: {} },
      auth: {},
    },
    authMethods: [
      { type: "agent", methodId: "oauth", name: "OAuth", description: "Sign in in the browser" },
      { type: "terminal", methodId: "cli", name: "CLI login", args: ["login"], env: [{ name: "MODE", value: "tty" }] },
      { type: "_device", methodId: "device", name: "Device code", code: "ABCD" },
    ],
  }),
  row("initialize", "result", "the pinned draft's agentInfo instead of info", { protocolVersion: 2, agentInfo: info }, false),
  row(
    "initialize",
    "result",
    "an agent auth method named by `id`",
    { protocolVersion: 2, info, authMethods: [{ type: "agent", id: "oauth", name: "OAuth" }] },
    false,
  ),
  row("initialize", "result", "an unknown auth method without a name", { protocolVersion: 2, info, authMethods: [{ type: "_x", methodId: "x" }] }, false),
  row("auth/login", "params", "a method id", { methodId: "oauth" }),
  row("auth/login", "params", "no method id", {}, false),
  row("auth/login", "result", "empty", {}),
  row("auth/logout", "params", "empty", {}),
  row("auth/logout", "result", "empty", {}),
  row("session/new", "params", "directories and each kind of MCP server", {
    cwd: "/p",
    additionalDirectories: ["/q"],
    mcpServers: [
      { type: "stdio", name: "fs", command: "/usr/bin/mcp-fs", args: ["--root", "/p"], env: [{ name: "A", value: "1" }] },
      { type: "stdio", name: "min", command: "/usr/bin/mcp-min" },
      { type: "http", name: "web", url: "https://mcp.example/", headers: [{ name: "Authorization", value: "x" }] },
      { type: "_sse", name: "old", url: "https://mcp.example/sse" },
    ],
  }),
  row("session/new", "params", "an MCP server without a type", { cwd: "/p", mcpServers: [{ name: "fs", command: "/usr/bin/fs" }] }, false),
  row("session/new", "params", "no cwd", { mcpServers: [] }, false),
  row("session/new", "result", "options of each type and commands", {
    sessionId: "s1",
    configOptions: [select, groupedSelect, booleanOption, unknownOption],
    availableCommands: commands,
  }),
  row("session/new", "result", "a select with no values", { sessionId: "s1", configOptions: [{ ...select, options: [] }] }, false),
  row(
    "session/new",
    "result",
    "an option named by `id`",
    { sessionId: "s1", configOptions: [{ type: "boolean", id: "yolo", name: "Y", currentValue: true }] },
    false,
  ),
  row("session/new", "result", "a command without a type", { sessionId: "s1", availableCommands: [{ name: "test", description: "d" }] }, false),
  row("session/list", "params", "cwd and cursor", { cwd: "/p", cursor: "page-2" }),
  row("session/list", "params", "empty", {}),
  row("session/list", "result", "a page", {
    sessions: [{ sessionId: "s1", cwd: "/p", additionalDirectories: ["/q"], title: "Fix the build", updatedAt: "2026-01-01T00:00:00Z" }],
    nextCursor: "page-3",
  }),
  row("session/list", "result", "no sessions array", { nextCursor: null }, false),
  row("session/delete", "params", "a session", { sessionId: "s1" }),
  row("session/delete", "result", "empty", {}),
  row("session/resume", "params", "replay from the start", { sessionId: "s1", cwd: "/p", mcpServers: [], replayFrom: { type: "start" } }),
  row("session/resume", "params", "a replay start the draft does not define", {
    sessionId: "s1",
    cwd: "/p",
    replayFrom: { type: "_message", messageId: "m1" },
  }),
  row("session/resume", "params", "no cwd", { sessionId: "s1" }, false),
  row("session/resume", "result", "options and commands", { configOptions: [booleanOption], availableCommands: [] }),
  row("session/close", "params", "a session", { sessionId: "s1" }),
  row("session/close", "result", "empty", {}),
  row("tool_call/cancel", "params", "a tool call", { sessionId: "s1", toolCallId: "t1" }),
  row("tool_call/cancel", "params", "no tool call", { sessionId: "s1" }, false),
  row("tool_call/cancel", "result", "empty", {}),
  row("terminal/cancel", "params", "a terminal", { sessionId: "s1", terminalId: "term1" }),
  row("terminal/cancel", "result", "empty", {}),
  row("session/set_config_option", "params", "a select value by id", { sessionId: "s1", configId: "model", type: "id", value: "deep" }),
  row("session/set_config_option", "params", "a boolean", { sessionId: "s1", configId: "yolo", type: "boolean", value: true }),
  row("session/set_config_option", "params", "a value type the draft does not define", { sessionId: "s1", configId: "temp", type: "_number", value: 0.7 }),
  row("session/set_config_option", "params", "a boolean that is a string", { sessionId: "s1", configId: "yolo", type: "boolean", value: "yes" }, false),
  row("session/set_config_option", "params", "the pinned shape, without type", { sessionId: "s1", configId: "model", value: "deep" }, false),
  row("session/set_config_option", "result", "every option after the change", { configOptions: [select, booleanOption] }),
  row("session/set_config_option", "result", "no options", {}, false),
  row("session/prompt", "params", "every content block type", {
    sessionId: "s1",
    prompt: [text, image, audio, link, embeddedText, embeddedBlob, { type: "_x", y: 1 }],
  }),
  row("session/prompt", "params", "an empty prompt", { sessionId: "s1", prompt: [] }, false),
  row("session/prompt", "result", "the insertion receipt", { messageId: "m-user-1" }),
  row("session/prompt", "result", "the pinned draft's stop reason instead", { stopReason: "end_turn" }, false),
  row("session/cancel", "params", "a session", { sessionId: "s1" }),
  update("a user message chunk", { sessionUpdate: "user_message_chunk", messageId: "m1", content: text }),
  update("an agent message chunk", { sessionUpdate: "agent_message_chunk", messageId: "m2", content: text, _meta: {} }),
  update("a thought chunk", { sessionUpdate: "agent_thought_chunk", messageId: "m3", content: text }),
  update("a chunk without a message id", { sessionUpdate: "agent_message_chunk", content: text }, false),
  update("a whole user message", { sessionUpdate: "user_message", messageId: "m1", content: [text, image] }),
  update("a whole agent message", { sessionUpdate: "agent_message", messageId: "m2", content: [text] }),
  update("a whole thought", { sessionUpdate: "agent_thought", messageId: "m3" }),
  update("running", { sessionUpdate: "state_update", state: "running" }),
  update("waiting for the user, with background work", { sessionUpdate: "state_update", state: "requires_action", background }),
  update("idle after the turn, with background work", { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn", background }),
  update("idle with the error stop reason and -32022's data", {
    sessionUpdate: "state_update",
    state: "idle",
    stopReason: "error",
    error: { code: -32022, message: "Unsupported protocol version", data: { requested: 3, supported: [1, 2] } },
  }),
  update("idle with the error stop reason and -32002's data", {
    sessionUpdate: "state_update",
    state: "idle",
    stopReason: "error",
    error: { code: -32002, message: "Resource not found", data: { sessionId: "s9" } },
  }),
  update("idle with no turn", { sessionUpdate: "state_update", state: "idle" }),
  update("idle with a custom stop reason", { sessionUpdate: "state_update", state: "idle", stopReason: "_budget" }),
  update("a state the draft does not define", { sessionUpdate: "state_update", state: "_paused" }),
  update("a state update without a state", { sessionUpdate: "state_update", stopReason: "end_turn" }, false),
  update("a stop reason that is a number", { sessionUpdate: "state_update", state: "idle", stopReason: 5 }, false),
  update("a tool call with every field and content type", {
    sessionUpdate: "tool_call_update",
    ...toolCall,
    status: "paused",
    content: [{ type: "content", content: text }, diff, { type: "terminal", terminalId: "term1" }, { type: "_chart", data: [] }],
    rawOutput: "ok",
  }),
  update("a cancelled tool call of a custom kind", { sessionUpdate: "tool_call_update", toolCallId: "t2", kind: "_k", status: "cancelled" }),
  update(
    "a diff in the pinned shape (path and texts)",
    {
      sessionUpdate: "tool_call_update",
      toolCallId: "t3",
      content: [{ type: "diff", path: "/p/a.txt", oldText: "a", newText: "b" }],
    },
    false,
  ),
  update(
    "a move without its old path",
    { sessionUpdate: "tool_call_update", toolCallId: "t4", content: [{ type: "diff", changes: [{ operation: "move", path: "/p/c" }] }] },
    false,
  ),
  update("a location at line 0", { sessionUpdate: "tool_call_update", toolCallId: "t5", locations: [{ path: "/p/a", line: 0 }] }, false),
  update("tool call content appended", { sessionUpdate: "tool_call_content_chunk", toolCallId: "t1", content: { type: "content", content: text } }),
  update("an agent terminal with every field", {
    sessionUpdate: "terminal_update",
    terminalId: "term1",
    command: "npm test",
    cwd: "/p",
    output: { data: "aGk=" },
    exitStatus: { exitCode: 0, signal: null },
    size: { cols: 80, rows: 24 },
    capabilities: { cancel: {} },
  }),
  update("a terminal of zero columns", { sessionUpdate: "terminal_update", terminalId: "term1", size: { cols: 0, rows: 24 } }, false),
  update("terminal output appended", { sessionUpdate: "terminal_output_chunk", terminalId: "term1", data: "aGk=" }),
  update("terminal output without data", { sessionUpdate: "terminal_output_chunk", terminalId: "term1" }, false),
  update("a plan of items", {
    sessionUpdate: "plan_update",
    plan: {
      type: "items",
      planId: "p1",
      entries: [
        { content: "Read", priority: "high", status: "cancelled" },
        { content: "Fix", priority: "_p", status: "pending" },
      ],
    },
  }),
  update("a plan form the draft does not define", { sessionUpdate: "plan_update", plan: { type: "_markdown", planId: "p2", text: "# Plan" } }),
  update("a plan named by `id`", { sessionUpdate: "plan_update", plan: { type: "items", id: "p1", entries: [] } }, false),
  update("commands", { sessionUpdate: "available_commands_update", availableCommands: commands }),
  update("options", { sessionUpdate: "config_option_update", configOptions: [groupedSelect] }),
  update("session info", { sessionUpdate: "session_info_update", title: "Fix the build", updatedAt: "2026-01-02T00:00:00Z" }),
  update("usage and cost", { sessionUpdate: "usage_update", used: 1200, size: 200000, cost: { amount: 0.25, currency: "USD" } }),
  update("negative usage", { sessionUpdate: "usage_update", used: -1, size: 10 }, false),
  update("a notice", { sessionUpdate: "notice", severity: "warning", title: "Rate limited", description: "Retrying in 10 s" }),
  update("a notice with an empty title", { sessionUpdate: "notice", severity: "info", title: "" }, false),
  update("a compaction", { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed", summary: [text], error: null }),
  update("a compaction summary chunk", { sessionUpdate: "compaction_summary_chunk", compactionId: "c1", content: text }),
  update("an update the draft does not define", { sessionUpdate: "_progress", percent: 40 }),
  row("session/request_permission", "params", "about a tool call", {
    sessionId: "s1",
    title: "Read /p/a?",
    description: "The agent wants to read a file",
    subject: { type: "tool_call", toolCall },
    options,
  }),
  row("session/request_permission", "params", "about a command", {
    sessionId: "s1",
    title: "Run a command?",
    subject: { type: "command", command: "rm -rf build", cwd: "/p", toolCallId: "t1", terminalId: null },
    options,
  }),
  row("session/request_permission", "params", "about something the draft does not define", {
    sessionId: "s1",
    title: "?",
    subject: { type: "_file", path: "/p" },
    options,
  }),
  row("session/request_permission", "params", "without a subject", { sessionId: "s1", title: "Continue?", options }),
  row("session/request_permission", "params", "no options", { sessionId: "s1", title: "Continue?", options: [] }, false),
  row("session/request_permission", "params", "the pinned shape (toolCall, no title)", { sessionId: "s1", toolCall, options }, false),
  row("session/request_permission", "result", "an option chosen", { outcome: { outcome: "selected", optionId: "allow" } }),
  row("session/request_permission", "result", "cancelled", { outcome: { outcome: "cancelled" } }),
  row("session/request_permission", "result", "an outcome the draft does not define", { outcome: { outcome: "_deferred" } }),
  row("session/request_permission", "result", "selected without an option", { outcome: { outcome: "selected" } }, false),
  row("elicitation/create", "params", "a form about a session, with every field type", {
    mode: "form",
    message: "Sign up",
    sessionId: "s1",
    toolCallId: "t1",
    requestedSchema: formSchema,
  }),
  row("elicitation/create", "params", "a URL about a request", {
    mode: "url",
    message: "Log in",
    requestId: 7,
    elicitationId: "e1",
    url: "https://login.example/",
  }),
  row(
    "elicitation/create",
    "params",
    "a form scoped to both a session and a request",
    {
      mode: "form",
      message: "?",
      sessionId: "s1",
      requestId: 7,
      requestedSchema: { type: "object", properties: {} },
    },
    false,
  ),
  row("elicitation/create", "params", "a form scoped to nothing", { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } }, false),
  row("elicitation/create", "params", "a form without its schema", { mode: "form", message: "?", sessionId: "s1" }, false),
  row("elicitation/create", "result", "accepted with values", {
    action: "accept",
    content: { email: "a@b.c", count: 2, ratio: 0.5, agree: true, tags: ["x"] },
  }),
  row("elicitation/create", "result", "accepted without content", { action: "accept", content: null }),
  row("elicitation/create", "result", "declined", { action: "decline" }),
  row("elicitation/create", "result", "cancelled", { action: "cancel", _meta: {} }),
  row("elicitation/create", "result", "an action the draft does not define", { action: "_snooze" }),
  row("elicitation/create", "result", "no action", { content: {} }, false),
  row("elicitation/complete", "params", "a URL elicitation done", { elicitationId: "e1" }),
  row("elicitation/complete", "params", "no id", {}, false),
  row("$/cancel_request", "params", "a numeric id", { requestId: 3 }),
  row("$/cancel_request", "params", "a string id", { requestId: "req-3" }),
  row("$/cancel_request", "params", "a null id (never one in this draft)", { requestId: null }, false),
];
