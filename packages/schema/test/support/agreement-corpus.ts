// A corpus of method payloads, valid and invalid, that between them reach every $def of acpkit's
// schemas. official-agreement.test.ts checks that acpkit's validators and the official schemas
// give the same verdict on each; `expect` records the verdict both must reach, so a row that
// stops meaning what it says fails too.

export interface CorpusRow {
  method: string;
  part: "params" | "result";
  value: unknown;
  valid: boolean;
  /** What the row exercises, for the test name. */
  note: string;
}

const text = { type: "text", text: "hello" };
const image = { type: "image", data: "aGk=", mimeType: "image/png", uri: "file:///a.png" };
const audio = { type: "audio", data: "aGk=", mimeType: "audio/wav" };
const link = { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain", size: 3, title: "A", description: "file a" };
const embeddedText = { type: "resource", resource: { uri: "file:///b.txt", text: "b", mimeType: "text/plain" } };
const embeddedBlob = {
  type: "resource",
  resource: { uri: "file:///c.bin", blob: "AA==" },
  annotations: { audience: ["user", "assistant"], priority: 0.5, lastModified: "2026-01-01T00:00:00Z" },
};
const selectOption = {
  type: "select",
  id: "model",
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
  id: "effort",
  name: "Effort",
  category: "thought_level",
  currentValue: "low",
  options: [{ group: "basic", name: "Basic", options: [{ value: "low", name: "Low" }] }],
};
const booleanOption = { type: "boolean", id: "yolo", name: "Auto-approve", category: "_custom", currentValue: false };
const modes = {
  currentModeId: "ask",
  availableModes: [
    { id: "ask", name: "Ask" },
    { id: "code", name: "Code", description: "Edits files" },
  ],
};
const stdioServer = { name: "fs", command: "/usr/bin/mcp-fs", args: ["--root", "/p"], env: [{ name: "A", value: "1" }] };
const httpServer = { type: "http", name: "web", url: "https://mcp.example/", headers: [{ name: "Authorization", value: "x" }] };
const sseServer = { type: "sse", name: "old", url: "https://mcp.example/sse", headers: [] };
const toolCall = { toolCallId: "t1", title: "Read a", kind: "read", status: "pending", locations: [{ path: "/p/a", line: 3 }], rawInput: { path: "/p/a" } };

const row = (method: string, part: CorpusRow["part"], note: string, value: unknown, valid = true): CorpusRow => ({ method, part, value, valid, note });
const update = (note: string, value: Record<string, unknown>, valid = true) => row("session/update", "params", note, { sessionId: "s1", update: value }, valid);

/** Stable v1, every method and every session update variant. */
export const V1_CORPUS: CorpusRow[] = [
  row("initialize", "params", "every client capability", {
    protocolVersion: 1,
    clientCapabilities: {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      auth: { terminal: true },
      session: { compaction: {}, notices: {}, configOptions: { boolean: {} } },
      elicitation: { form: {}, url: {} },
    },
    clientInfo: { name: "c", version: "1", title: "C" },
  }),
  row("initialize", "params", "string version", { protocolVersion: "1.0.0" }, false),
  row("initialize", "result", "every agent capability", {
    protocolVersion: 1,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { list: {}, delete: {}, additionalDirectories: {}, resume: {}, close: {} },
      auth: { logout: {} },
    },
    authMethods: [
      { id: "login", name: "Log in", description: "browser" },
      { type: "terminal", id: "tty", name: "Terminal login", args: ["--login"], env: { A: "1" } },
    ],
    agentInfo: { name: "a", version: "1" },
  }),
  row("initialize", "result", "notices capability as true", { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { list: true } } }, false),
  row("authenticate", "params", "method id and _meta", { methodId: "login", _meta: { trace: "t1" } }),
  row("authenticate", "result", "empty", {}),
  row("logout", "params", "empty", {}),
  row("logout", "result", "empty", {}),
  row("session/new", "params", "every MCP server kind", { cwd: "/p", mcpServers: [stdioServer, httpServer, sseServer] }),
  row("session/new", "params", "missing mcpServers", { cwd: "/p" }, false),
  row("session/new", "result", "modes and config options", { sessionId: "s1", modes, configOptions: [selectOption, groupedSelect, booleanOption] }),
  row(
    "session/new",
    "result",
    "config option without name",
    { sessionId: "s1", configOptions: [{ type: "select", id: "m", currentValue: "a", options: [] }] },
    false,
  ),
  row("session/load", "params", "load", { sessionId: "s1", cwd: "/p", mcpServers: [] }),
  row("session/load", "result", "modes", { modes, configOptions: null }),
  row("session/list", "params", "cursor and cwd", { cwd: "/p", cursor: "c1" }),
  row("session/list", "result", "a page", {
    sessions: [{ sessionId: "s1", cwd: "/p", title: "Fix", updatedAt: "2026-11-01T00:00:00Z", additionalDirectories: ["/q"] }],
    nextCursor: "c2",
  }),
  row("session/list", "result", "entry without cwd", { sessions: [{ sessionId: "s1" }] }, false),
  row("session/resume", "params", "resume", { sessionId: "s1", cwd: "/p", mcpServers: [stdioServer], additionalDirectories: ["/q"] }),
  row("session/resume", "params", "missing cwd", { sessionId: "s1" }, false),
  row("session/resume", "result", "modes and options", { modes, configOptions: [booleanOption] }),
  row("session/close", "params", "close", { sessionId: "s1" }),
  row("session/close", "result", "empty", {}),
  row("session/delete", "params", "delete", { sessionId: "s1" }),
  row("session/delete", "params", "missing sessionId", {}, false),
  row("session/delete", "result", "empty", {}),
  row("session/set_mode", "params", "mode", { sessionId: "s1", modeId: "code" }),
  row("session/set_mode", "params", "missing modeId", { sessionId: "s1" }, false),
  row("session/set_mode", "result", "empty", {}),
  row("session/set_config_option", "params", "select value", { sessionId: "s1", configId: "model", value: "deep" }),
  row("session/set_config_option", "params", "boolean value", { sessionId: "s1", configId: "yolo", type: "boolean", value: true }),
  row("session/set_config_option", "params", "boolean without type", { sessionId: "s1", configId: "yolo", value: true }, false),
  row("session/set_config_option", "result", "options", { configOptions: [selectOption, booleanOption] }),
  row("session/prompt", "params", "every content block", { sessionId: "s1", prompt: [text, image, audio, link, embeddedText, embeddedBlob] }),
  row("session/prompt", "params", "unknown block type", { sessionId: "s1", prompt: [{ type: "video" }] }, false),
  row("session/prompt", "result", "end_turn with usage", { stopReason: "end_turn" }),
  row("session/prompt", "result", "unknown stop reason", { stopReason: "done" }, false),
  update("user chunk", { sessionUpdate: "user_message_chunk", content: text, messageId: "m0" }),
  update("agent chunk", { sessionUpdate: "agent_message_chunk", content: text }),
  update("thought chunk", { sessionUpdate: "agent_thought_chunk", content: text }),
  update("tool call", {
    sessionUpdate: "tool_call",
    ...toolCall,
    content: [
      { type: "content", content: text },
      { type: "diff", path: "/p/a", oldText: "a", newText: "b" },
      { type: "terminal", terminalId: "term1" },
    ],
  }),
  update("tool call update", { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", rawOutput: { ok: true } }),
  update("plan", { sessionUpdate: "plan", entries: [{ content: "step", priority: "high", status: "in_progress" }] }),
  update("commands", { sessionUpdate: "available_commands_update", availableCommands: [{ name: "web", description: "Search", input: { hint: "query" } }] }),
  update("current mode", { sessionUpdate: "current_mode_update", currentModeId: "code" }),
  update("config options", { sessionUpdate: "config_option_update", configOptions: [selectOption] }),
  update("session info", { sessionUpdate: "session_info_update", title: "Fix the build", updatedAt: "2026-11-01T00:00:00Z" }),
  update("usage", { sessionUpdate: "usage_update", used: 10, size: 100, cost: { amount: 0.1, currency: "USD" } }),
  update("notice", { sessionUpdate: "notice", severity: "warning", title: "Rate limited", message: "retrying" }),
  update("notice with an unknown severity", { sessionUpdate: "notice", severity: "debug", title: "x" }),
  update("notice without title", { sessionUpdate: "notice", severity: "info" }, false),
  update("compaction update", { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed", summary: [text] }),
  update("failed compaction", { sessionUpdate: "compaction_update", compactionId: "c1", status: "failed", error: "too long" }),
  update("compaction summary chunk", { sessionUpdate: "compaction_summary_chunk", compactionId: "c1", content: text }),
  update("unknown variant", { sessionUpdate: "state_update", state: "idle" }, false),
  row("session/cancel", "params", "cancel", { sessionId: "s1" }),
  row("$/cancel_request", "params", "by id", { requestId: 7 }),
  row("session/request_permission", "params", "options", {
    sessionId: "s1",
    toolCall: { toolCallId: "t1", title: "Write" },
    options: [
      { optionId: "a", name: "Allow", kind: "allow_once" },
      { optionId: "aa", name: "Always", kind: "allow_always" },
      { optionId: "r", name: "Reject", kind: "reject_once" },
      { optionId: "rr", name: "Never", kind: "reject_always" },
    ],
  }),
  row("session/request_permission", "result", "selected", { outcome: { outcome: "selected", optionId: "a" } }),
  row("session/request_permission", "result", "cancelled", { outcome: { outcome: "cancelled" } }),
  row("fs/read_text_file", "params", "range", { sessionId: "s1", path: "/p/a", line: 1, limit: 10 }),
  row("fs/read_text_file", "result", "content", { content: "a" }),
  row("fs/write_text_file", "params", "write", { sessionId: "s1", path: "/p/a", content: "b" }),
  row("fs/write_text_file", "result", "empty", {}),
  row("terminal/create", "params", "everything", {
    sessionId: "s1",
    command: "ls",
    args: ["-l"],
    env: [{ name: "A", value: "1" }],
    cwd: "/p",
    outputByteLimit: 1024,
  }),
  row("terminal/create", "params", "negative limit", { sessionId: "s1", command: "ls", outputByteLimit: -1 }, false),
  row("terminal/create", "result", "id", { terminalId: "term1" }),
  row("terminal/output", "params", "output", { sessionId: "s1", terminalId: "term1" }),
  row("terminal/output", "result", "exited", { output: "x\n", truncated: false, exitStatus: { exitCode: 0, signal: null } }),
  row("terminal/output", "result", "missing truncated", { output: "x" }, false),
  row("terminal/wait_for_exit", "params", "wait", { sessionId: "s1", terminalId: "term1" }),
  row("terminal/wait_for_exit", "result", "signal", { exitCode: null, signal: "SIGTERM" }),
  row("terminal/kill", "params", "kill", { sessionId: "s1", terminalId: "term1" }),
  row("terminal/kill", "result", "empty", {}),
  row("terminal/release", "params", "release", { sessionId: "s1", terminalId: "term1" }),
  row("terminal/release", "result", "empty", {}),
  row("elicitation/create", "params", "form with every field type", {
    mode: "form",
    message: "Configure",
    sessionId: "s1",
    toolCallId: "t1",
    requestedSchema: {
      type: "object",
      title: "Settings",
      properties: {
        name: { type: "string", title: "Name", minLength: 1, maxLength: 20, pattern: "^[a-z]+$", default: "x" },
        email: { type: "string", format: "email" },
        color: { type: "string", enum: ["red", "blue"] },
        size: { type: "string", oneOf: [{ const: "s", title: "Small" }] },
        ratio: { type: "number", minimum: 0, maximum: 1, default: 0.5 },
        count: { type: "integer", minimum: 1, maximum: 9, default: 2 },
        ok: { type: "boolean", default: true },
        tags: { type: "array", minItems: 1, maxItems: 3, items: { type: "string", enum: ["a", "b"] }, default: ["a"] },
        picks: { type: "array", items: { anyOf: [{ const: "x", title: "X" }] } },
      },
      required: ["name"],
    },
  }),
  row("elicitation/create", "params", "url in request scope", {
    mode: "url",
    message: "Log in",
    requestId: 3,
    elicitationId: "e1",
    url: "https://example.com/login",
  }),
  row("elicitation/create", "params", "form without scope", { mode: "form", message: "m", requestedSchema: {} }, false),
  row("elicitation/create", "params", "url without elicitationId", { mode: "url", message: "m", sessionId: "s1", url: "https://x/" }, false),
  row("elicitation/create", "result", "accept", { action: "accept", content: { name: "x", ratio: 0.5, count: 2, ok: true, tags: ["a"] } }),
  row("elicitation/create", "result", "decline", { action: "decline" }),
  row("elicitation/create", "result", "cancel", { action: "cancel" }),
  row("elicitation/create", "result", "accept with an object value", { action: "accept", content: { name: { x: 1 } } }, false),
  row("elicitation/complete", "params", "complete", { elicitationId: "e1" }),
  row("elicitation/complete", "params", "missing id", {}, false),
];

/** Pinned v2: the session methods acpkit takes from spec commit bae0a2a7. */
export const V2_SESSION_CORPUS: CorpusRow[] = [
  row("initialize", "result", "every session capability", {
    protocolVersion: 2,
    capabilities: { session: { list: {}, delete: {}, resume: {}, close: {}, additionalDirectories: {} }, auth: { logout: {} } },
  }),
  row("logout", "params", "empty", {}),
  row("logout", "result", "empty", {}),
  row("session/list", "params", "cursor and cwd", { cwd: "/p", cursor: "c1" }),
  row("session/list", "result", "a page", {
    sessions: [{ sessionId: "s1", cwd: "/p", title: "Fix", updatedAt: "2026-11-01T00:00:00Z", additionalDirectories: [] }],
    nextCursor: null,
  }),
  row("session/list", "result", "missing sessions", {}, false),
  row("session/resume", "params", "resume", { sessionId: "s1", cwd: "/p", mcpServers: [], additionalDirectories: ["/q"] }),
  row("session/resume", "params", "missing cwd", { sessionId: "s1" }, false),
  row("session/resume", "result", "config options", { configOptions: [selectOption, booleanOption] }),
  row("session/close", "params", "close", { sessionId: "s1" }),
  row("session/close", "result", "empty", {}),
  row("session/delete", "params", "delete", { sessionId: "s1" }),
  row("session/delete", "params", "missing sessionId", {}, false),
  row("session/delete", "result", "empty", {}),
  row("session/set_config_option", "params", "value id", { sessionId: "s1", configId: "model", value: "deep" }),
  row("session/set_config_option", "params", "missing value", { sessionId: "s1", configId: "model" }, false),
  row("session/set_config_option", "result", "options", { configOptions: [groupedSelect] }),
];
