// Valid traffic to start from, for each side and version, and what each side serves (the oracle's
// view of the method table: the protocol's methods that the fuzzed peer has handlers for).
import type { ServedMethods } from "./oracle.js";
import type { Random } from "./random.js";

type Message = Record<string, unknown>;

const text = (t: string) => ({ type: "text", text: t });

/** Requests and notifications a client sends an agent, valid for `version` and `sessionId`. */
export function clientTraffic(random: Random, version: 1 | 2, sessionId: string, id: string | number, later = false): Message {
  const request = (method: string, params: unknown) => ({ jsonrpc: "2.0", id, method, params });
  const notification = (method: string, params: unknown) => ({ jsonrpc: "2.0", method, params });
  const v1Only = [
    () => request("session/set_mode", { sessionId, modeId: random.pick(["ask", "code"]) }),
    () => notification("$/cancel_request", { requestId: random.int(1000) }),
    () => request("session/set_config_option", { sessionId, configId: "fast", type: "boolean", value: random.chance(0.5) }),
  ];
  const both = [
    () => request("session/new", { cwd: "/work", mcpServers: [] }),
    () => request("session/prompt", { sessionId: random.chance(0.8) ? sessionId : "nope", prompt: [text(random.pick(["hi", "update", "permission"]))] }),
    () => notification("session/cancel", { sessionId }),
    () => request("session/set_config_option", { sessionId, configId: "model", value: random.pick(["small", "large", "huge"]) }),
    () => request("session/list", random.chance(0.5) ? {} : { cwd: "/work" }),
    () => request("session/resume", { sessionId: random.pick([sessionId, "nope"]), cwd: "/work" }),
    () => request("session/close", { sessionId: "never-made" }),
    () => request("session/delete", { sessionId: "never-made" }),
    () => request("authenticate", { methodId: random.pick(["key", "nope"]) }),
    () => request("logout", {}),
    () => request("initialize", { protocolVersion: version }),
    () => request("_vendor/ping", { any: [1, 2] }),
    () => notification("_vendor/event", {}),
  ];
  // The later v2 draft's own names and methods (docs/protocol.md §12); its client sends them beside the rest.
  const laterOnly = [
    () => request("initialize", { protocolVersion: random.pick([0, 1, 2, 3]), info: { name: "fuzz", version: "1" } }),
    () => request("auth/login", { methodId: random.pick(["key", "nope"]) }),
    () => request("auth/logout", {}),
    () => request("tool_call/cancel", { sessionId, toolCallId: random.pick(["call_1", "nope"]) }),
    () => request("terminal/cancel", { sessionId, terminalId: "term_1" }),
    () =>
      request("session/resume", {
        sessionId: random.pick([sessionId, "nope"]),
        cwd: "/work",
        replayFrom: random.pick([{ type: "start" }, { type: "_other" }, null]),
      }),
    () => request("session/set_config_option", { sessionId, configId: "fast", type: "boolean", value: random.chance(0.5) }),
  ];
  return random.pick(version === 1 ? [...both, ...v1Only] : later ? [...both, ...laterOnly] : both)();
}

/** What the fuzz agent serves (fixtures/fuzz-agent.mjs), per version. */
export function agentServed(version: 1 | 2, later = false): ServedMethods {
  const requests = [
    "initialize",
    "authenticate",
    "logout",
    "session/new",
    "session/prompt",
    "session/set_config_option",
    "session/list",
    "session/resume",
    "session/close",
    "session/delete",
  ];
  if (version === 1) requests.push("session/set_mode");
  // The later draft's methods reach the same runtime through its codec (tool_call/cancel and
  // terminal/cancel are answered, -32602 for work that advertises no cancel).
  if (later) requests.push("auth/login", "auth/logout", "tool_call/cancel", "terminal/cancel");
  const notifications = version === 1 ? ["session/cancel", "$/cancel_request"] : ["session/cancel"];
  return { requests: new Set(requests), notifications: new Set(notifications), ...(later ? { later } : {}) };
}

/** Requests and notifications an agent sends a client, valid for `version` and `sessionId`. */
export function agentTraffic(random: Random, version: 1 | 2, sessionId: string, id: string | number, later = false): Message {
  const request = (method: string, params: unknown) => ({ jsonrpc: "2.0", id, method, params });
  const update = (u: Message) => ({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: u } });
  const messageId = `m${random.int(5)}`;
  const updates =
    version === 1
      ? [
          () => update({ sessionUpdate: "agent_message_chunk", content: text("chunk") }),
          () => update({ sessionUpdate: "tool_call", toolCallId: `t${random.int(3)}`, title: "Read", status: "pending" }),
          () => update({ sessionUpdate: "tool_call_update", toolCallId: `t${random.int(3)}`, status: "completed" }),
          () => update({ sessionUpdate: "plan", entries: [{ content: "step", priority: "high", status: "pending" }] }),
          () => update({ sessionUpdate: "notice", severity: "info", title: "note" }),
          () => update({ sessionUpdate: "current_mode_update", currentModeId: "code" }),
          () => update({ sessionUpdate: "compaction_update", compactionId: "c1", status: "completed" }),
        ]
      : [
          () => update({ sessionUpdate: "agent_message_chunk", messageId, content: text("chunk") }),
          () => update({ sessionUpdate: "agent_message", messageId, content: [text("whole")] }),
          () => update({ sessionUpdate: "tool_call_update", toolCallId: `t${random.int(3)}`, title: "Read", status: "in_progress" }),
          () => update({ sessionUpdate: "tool_call_content_chunk", toolCallId: `t${random.int(3)}`, content: { type: "content", content: text("x") } }),
          () => update({ sessionUpdate: "plan_update", plan: { type: "items", id: "p", entries: [] } }),
          () => update({ sessionUpdate: "_vendor/custom", anything: true }),
        ];
  const requests = [
    () => request("session/request_permission", { sessionId, toolCall: { toolCallId: "t1" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] }),
    () => request("_vendor/question", {}),
    () => request("terminal/create", { sessionId, command: "ls" }),
    () => ({ jsonrpc: "2.0", method: "_vendor/notice", params: {} }),
    () => update({ sessionUpdate: "usage_update", used: 1, size: 2 }),
    () => update({ sessionUpdate: "session_info_update", title: "t" }),
  ];
  if (later) {
    // The later v2 draft's own shapes (docs/protocol.md §12), which reach the client through its codec.
    updates.push(
      () =>
        update({
          sessionUpdate: "state_update",
          state: random.pick(["running", "requires_action"]),
          background: random.chance(0.5) ? [{ type: "tool_call", toolCallId: "t1" }] : null,
        }),
      () =>
        update({
          sessionUpdate: "terminal_update",
          terminalId: `x${random.int(3)}`,
          command: "ls",
          exitStatus: random.chance(0.3) ? { exitCode: 0 } : undefined,
        }),
      () => update({ sessionUpdate: "terminal_output_chunk", terminalId: `x${random.int(3)}`, data: random.pick(["aGVsbG8K", "not base64!", ""]) }),
      () =>
        update({
          sessionUpdate: "tool_call_update",
          toolCallId: `t${random.int(3)}`,
          status: random.pick(["paused", "cancelled"]),
          capabilities: { cancel: {} },
          name: "run",
        }),
      () =>
        update({
          sessionUpdate: "tool_call_update",
          toolCallId: `t${random.int(3)}`,
          content: [
            {
              type: "diff",
              changes: [{ operation: random.pick(["add", "modify", "move"]), path: "/w/a", oldPath: "/w/b" }],
              patch: { format: "git_patch", text: "@@ -0,0 +1 @@\n+x\n" },
            },
          ],
        }),
      () => update({ sessionUpdate: "plan_update", plan: { type: "items", planId: "p", entries: [] } }),
      () =>
        update({
          sessionUpdate: "available_commands_update",
          availableCommands: [{ type: random.pick(["command", "_other"]), name: "x", description: "d", input: { type: "text", hint: "h" } }],
        }),
      () => update({ sessionUpdate: "notice", severity: "info", title: "note", description: "more" }),
    );
    requests.push(() =>
      request("session/request_permission", {
        sessionId,
        title: "Run it?",
        subject: random.pick([{ type: "command", command: "ls", cwd: "/w" }, { type: "tool_call", toolCall: { toolCallId: "t2" } }, { type: "_other" }]),
        options: [{ optionId: "ok", name: "OK", kind: "allow_once" }],
      }),
    );
  }
  if (version === 1) {
    requests.push(() => request("fs/read_text_file", { sessionId, path: "/work/a.txt" }));
    requests.push(() => request("elicitation/create", { mode: "form", sessionId, message: "?", requestedSchema: { type: "object", properties: {} } }));
  }
  return random.chance(0.6) ? random.pick(updates)() : random.pick(requests)();
}

/** What the fuzzed client serves: permission questions always; fs and elicitation on v1 (it offers them). */
export function clientServed(version: 1 | 2): ServedMethods {
  const requests = ["session/request_permission"];
  if (version === 1) requests.push("fs/read_text_file", "fs/write_text_file", "elicitation/create");
  const notifications = version === 1 ? ["session/update", "$/cancel_request", "elicitation/complete"] : ["session/update"];
  return { requests: new Set(requests), notifications: new Set(notifications) };
}
