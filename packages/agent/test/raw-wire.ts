// A hand-rolled ACP client for black-box tests: it starts an agent as a real child process and
// talks to it with JSON lines written by hand. No acpkit code runs on this side (only
// child_process, line splitting and JSON.parse), so a bug shared by acpkit's agent and client
// cannot cancel itself out.
//
// Every line the agent writes is audited as it arrives (`violations`):
// - framing (S3, S5): one JSON value per line, nothing else on stdout;
// - v1 connections: params/results/errors against the OFFICIAL v1 schema (official-v1-oracle.ts);
// - v2 connections: the docs/protocol.md rules (update tags, required messageId, plan_update shape,
//   creating tool_call_update, stop reasons) and acpkit's v2 schema as a secondary check;
// - both: O1/O3 ordering and the JSON-RPC envelope.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { validateParams, validateResult } from "@acpkit/schema";
import { officialV1ParamsDefinition, officialV1Problem, officialV1ResultDefinition } from "./official-v1-oracle.js";

export type Json = any;

/** Tags of pinned v2 `SessionUpdate` (docs/protocol.md §4.2). */
const V2_UPDATE_TAGS = new Set([
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "user_message",
  "agent_message",
  "agent_thought",
  "tool_call_update",
  "tool_call_content_chunk",
  "plan_update",
  "usage_update",
  "available_commands_update",
  "config_option_update",
  "session_info_update",
]);
const CHUNK_TAGS = new Set(["user_message_chunk", "agent_message_chunk", "agent_thought_chunk"]);
const KNOWN_STOP_REASONS = new Set(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]);
/** Requests an agent may send, per version (docs/protocol.md §2). */
const AGENT_REQUESTS: Record<1 | 2, Set<string>> = {
  1: new Set(["session/request_permission", "fs/read_text_file", "fs/write_text_file"]),
  2: new Set(["session/request_permission"]),
};

interface Watcher {
  from: number;
  match: (message: Json) => boolean;
  resolve: (message: Json) => void;
}

export class RawAgent {
  /** Every line the agent wrote, exactly as written (without the newline). */
  readonly lines: string[] = [];
  /** The parsed lines, in wire order (undefined where a line did not parse). */
  readonly messages: Json[] = [];
  /** Rule violations seen on the wire; a test ends by expecting this to be empty. */
  readonly violations: string[] = [];
  /** What the agent wrote to stderr (its diagnostics). */
  stderr = "";
  /** The version the agent answered in initialize, once it did. */
  version: 1 | 2 | undefined;

  private readonly child: ChildProcessWithoutNullStreams;
  private buffered = "";
  private watchers: Watcher[] = [];
  private nextId = 100;
  /** Our requests by id: the method, to validate the matching result. */
  private readonly ourRequests = new Map<string | number, string>();
  /** Sessions whose prompt (or load) is pending: updates are allowed only then (O1). */
  private readonly openTurns = new Map<string, number>();
  /** Prompt/load request id → session id. */
  private readonly turnOfRequest = new Map<string | number, string>();
  /** v1: tool call ids announced by `tool_call`; v2: created by a first `tool_call_update`. */
  private readonly knownToolCalls = new Set<string>();
  private batchesSent = 0;
  private readonly exited: Promise<{ code: number | null; signal: string | null }>;

  constructor(script: string, args: string[] = [], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [script, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (text: string) => this.onStdout(text));
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (text: string) => (this.stderr += text));
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  /** Write raw text to the agent's stdin, exactly as given (add "\n" yourself). */
  writeRaw(text: string | Buffer): void {
    this.child.stdin.write(text);
  }

  /** Write several messages as separate lines in ONE write (they reach the agent in one chunk). */
  sendTogether(messages: Json[]): void {
    for (const message of messages) this.track(message);
    this.writeRaw(messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
  }

  /** Write one message (or batch) as one line, remembering our requests for result validation. */
  send(message: Json): void {
    for (const entry of Array.isArray(message) ? message : [message]) this.track(entry);
    if (Array.isArray(message)) this.batchesSent++;
    this.writeRaw(`${JSON.stringify(message)}\n`);
  }

  /** A fresh request id (numbers; the tests use strings explicitly where they matter). */
  id(): number {
    return this.nextId++;
  }

  /** Send a request and wait for its response. */
  request(method: string, params?: Json, id: string | number = this.id()): Promise<Json> {
    this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return this.response(id);
  }

  notify(method: string, params?: Json): void {
    this.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Answer a request the agent sent. */
  respond(id: string | number, result: Json): void {
    this.send({ jsonrpc: "2.0", id, result });
  }
  respondError(id: string | number, code: number, message: string): void {
    this.send({ jsonrpc: "2.0", id, error: { code, message } });
  }

  /**
   * A barrier: an unknown extension request the agent must answer -32601 (docs/protocol.md §2). The agent
   * handles lines in wire order, so once this answer is in, everything the agent was going to
   * write in reply to earlier lines has been written. Returns the index of the answer.
   */
  async barrier(): Promise<number> {
    const id = `barrier-${this.id()}`;
    const answer = await this.request("_wiretest/barrier", {}, id);
    if (answer.error?.code !== -32601) this.violations.push(`barrier: expected -32601 for an unknown _ request, got ${JSON.stringify(answer)}`);
    return this.messages.indexOf(answer);
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  /** The response to our request `id`. */
  response(id: string | number): Promise<Json> {
    return this.waitFor((m) => m !== undefined && !Array.isArray(m) && m.method === undefined && m.id === id);
  }

  /** The first message at index ≥ `from` (default 0) that matches. */
  waitFor(match: (message: Json) => boolean, from = 0): Promise<Json> {
    for (let i = from; i < this.messages.length; i++) if (match(this.messages[i])) return Promise.resolve(this.messages[i]);
    return new Promise((resolve) => this.watchers.push({ from, match, resolve }));
  }

  /** The next request the agent sends for `method` (from index `from`). */
  agentRequest(method: string, from = 0): Promise<Json> {
    return this.waitFor((m) => m?.method === method && "id" in m, from);
  }

  /** session/update payloads of `sessionId`, in wire order. */
  updates(sessionId: string): Json[] {
    return this.messages.filter((m) => m?.method === "session/update" && m.params?.sessionId === sessionId).map((m) => m.params.update);
  }

  indexOf(message: Json): number {
    return this.messages.indexOf(message);
  }

  // ---------------------------------------------------------------------------------------------
  // Conveniences for the common setup

  async initialize(protocolVersion: number, params: Json = {}): Promise<Json> {
    const fields =
      protocolVersion === 1 ? { clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } } : { capabilities: {} };
    return this.request("initialize", { protocolVersion, ...fields, clientInfo: { name: "raw-wire-test", version: "0" }, ...params });
  }

  async newSession(): Promise<string> {
    const answer = await this.request("session/new", { cwd: "/work", mcpServers: [] });
    if (typeof answer.result?.sessionId !== "string") throw new Error(`session/new failed: ${JSON.stringify(answer)}`);
    return answer.result.sessionId;
  }

  /** Send a one-text-block prompt; returns its id and the pending response. */
  prompt(sessionId: string, text: string, id: string | number = this.id()): { id: string | number; response: Promise<Json> } {
    return { id, response: this.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }, id) };
  }

  async close(): Promise<{ code: number | null; signal: string | null }> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    const exit = await this.exited;
    clearTimeout(timer);
    if (this.buffered.length > 0) this.violations.push(`stdout ended with an unterminated line: ${JSON.stringify(this.buffered)}`);
    return exit;
  }

  // ---------------------------------------------------------------------------------------------
  // Auditing

  /** Remember a message we write by hand with `writeRaw` (our requests' ids, open turns). */
  track(message: Json): void {
    if (message === null || typeof message !== "object") return;
    if (typeof message.method === "string" && "id" in message) {
      this.ourRequests.set(message.id, message.method);
      const sessionId = message.params?.sessionId;
      if ((message.method === "session/prompt" || message.method === "session/load") && typeof sessionId === "string") {
        this.openTurns.set(sessionId, (this.openTurns.get(sessionId) ?? 0) + 1);
        this.turnOfRequest.set(message.id, sessionId);
      }
    }
  }

  private onStdout(text: string): void {
    this.buffered += text;
    let newline: number;
    while ((newline = this.buffered.indexOf("\n")) >= 0) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    this.lines.push(line);
    let message: Json;
    try {
      message = JSON.parse(line);
    } catch {
      this.violations.push(`S5: stdout line is not JSON: ${JSON.stringify(line)}`);
      message = undefined;
    }
    if (line.endsWith("\r")) this.violations.push(`S8: the writer emitted a \\r before the newline`);
    if (message !== undefined) this.audit(message, line);
    this.messages.push(message);
    const index = this.messages.length - 1;
    this.watchers = this.watchers.filter((w) => {
      if (index >= w.from && w.match(message)) {
        w.resolve(message);
        return false;
      }
      return true;
    });
  }

  private audit(message: Json, line: string): void {
    const where = `line ${this.lines.length}: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`;
    const fail = (rule: string): void => {
      this.violations.push(`${rule} — ${where}`);
    };
    if (Array.isArray(message)) {
      if (this.version !== 2) fail("§8.2: a batch array written on a non-v2 connection");
      else if (this.batchesSent === 0) fail("§8.2: a batch array that answers no batch of ours");
      if (message.length === 0) fail("§8.2: an empty array was written (never `[]`)");
      for (const entry of message) {
        if (entry?.method !== undefined) fail("§8.2: a batch reply holds something other than responses");
        else this.auditResponse(entry, fail);
      }
      return;
    }
    if (message === null || typeof message !== "object") return fail("§3.1: a line that is not a JSON-RPC object");
    if (message.jsonrpc !== "2.0") fail('§3.1: "jsonrpc" is not "2.0"');
    if (typeof message.method === "string") {
      if ("id" in message) this.auditAgentRequest(message, fail);
      else this.auditNotification(message, fail);
    } else {
      this.auditResponse(message, fail);
    }
  }

  private auditResponse(message: Json, fail: (rule: string) => void): void {
    if (!("id" in message)) return fail("§3.1: a response without an id");
    const hasResult = "result" in message;
    const hasError = "error" in message;
    if (hasResult === hasError) return fail("§3.1: a response must carry exactly one of result / error");
    if (hasError) {
      const error = message.error;
      if (!Number.isInteger(error?.code) || typeof error?.message !== "string") fail("§4.11: an error object needs an integer code and a string message");
      if (this.version === 1) {
        const problem = officialV1Problem("Error", error);
        if (problem) fail(`official v1 schema: ${problem}`);
      }
    } else if (message.id === null) {
      fail("§3.1: a success response with id null");
    }
    const method = message.id === null ? undefined : this.ourRequests.get(message.id);
    if (message.id !== null && method === undefined) fail("a response to an id we never used");
    if (method === undefined) return;
    this.ourRequests.delete(message.id);
    const sessionId = this.turnOfRequest.get(message.id);
    if (sessionId !== undefined) {
      this.turnOfRequest.delete(message.id);
      const open = (this.openTurns.get(sessionId) ?? 1) - 1;
      if (open === 0) this.openTurns.delete(sessionId);
      else this.openTurns.set(sessionId, open);
    }
    if (!hasResult) return;
    if (method === "initialize" && (message.result?.protocolVersion === 1 || message.result?.protocolVersion === 2)) {
      this.version = message.result.protocolVersion;
    }
    if (this.version === 1) {
      const definition = officialV1ResultDefinition(method);
      if (definition === undefined) return fail(`official v1 schema: no result definition for ${method}`);
      const problem = officialV1Problem(definition, message.result);
      if (problem) fail(`official v1 schema: ${problem}`);
    } else if (this.version === 2) {
      if (method === "session/prompt") {
        const reason = message.result?.stopReason;
        if (typeof reason !== "string" || (!KNOWN_STOP_REASONS.has(reason) && !reason.startsWith("_")))
          fail(`§4.6: stop reason ${JSON.stringify(reason)} is neither known nor "_"-prefixed`);
      }
      if (method === "initialize") {
        if ("agentCapabilities" in message.result) fail("§1.3: a v2 initialize result with the v1 field agentCapabilities");
        if ("info" in message.result) fail("§10: later-draft `info` on pinned v2");
        for (const auth of message.result.authMethods ?? []) if (typeof auth?.type !== "string") fail("§1.3: v2 AuthMethod needs `type`");
      }
      const checked = validateResult(2, method, message.result);
      if (!checked.valid) fail(`acpkit v2 schema (secondary): ${method} result ${JSON.stringify(checked.errors[0])}`);
    }
  }

  private auditAgentRequest(message: Json, fail: (rule: string) => void): void {
    if (message.id === null) fail("§3.1 [acpkit]: never send id null on a request");
    else if (typeof message.id !== "string" && !Number.isInteger(message.id)) fail("§3.1: request id must be an integer or a string");
    const version = this.version;
    if (version === undefined) return fail("N8: the agent sent a request before initialize completed");
    if (!AGENT_REQUESTS[version].has(message.method)) fail(`§2: the agent sent ${message.method}, which an agent may not send on v${version}`);
    if (message.method === "session/request_permission") {
      const toolCallId = message.params?.toolCall?.toolCallId;
      if (!this.knownToolCalls.has(toolCallId)) fail(`O3: permission request for tool call ${JSON.stringify(toolCallId)} before the update that creates it`);
      const sessionId = message.params?.sessionId;
      if (!this.openTurns.has(sessionId)) fail("O6: a permission request outside a prompt turn");
    }
    this.auditParams(message.method, message.params, fail);
  }

  private auditNotification(message: Json, fail: (rule: string) => void): void {
    const version = this.version;
    if (version === undefined) return fail("N8: the agent sent a notification before initialize completed");
    if (message.method === "$/cancel_request") {
      if (version === 2) fail("C9 [acpkit]: $/cancel_request sent on pinned v2");
    } else if (message.method !== "session/update") {
      return fail(`§2: the agent sent the notification ${message.method}`);
    }
    if (message.method === "session/update") this.auditUpdate(version, message.params, fail);
    this.auditParams(message.method, message.params, fail);
  }

  private auditParams(method: string, params: Json, fail: (rule: string) => void): void {
    if (this.version === 1) {
      const definition = officialV1ParamsDefinition(method);
      if (definition === undefined) return fail(`official v1 schema: ${method} does not exist`);
      const problem = officialV1Problem(definition, params);
      if (problem) fail(`official v1 schema: ${problem}`);
    } else {
      const checked = validateParams(2, method, params);
      if (!checked.valid) fail(`acpkit v2 schema (secondary): ${method} params ${JSON.stringify(checked.errors[0])}`);
    }
  }

  private auditUpdate(version: 1 | 2, params: Json, fail: (rule: string) => void): void {
    const sessionId = params?.sessionId;
    const update = params?.update ?? {};
    const tag = update.sessionUpdate;
    // O1: updates of a turn come before its response; acpkit agents send none outside a turn.
    if (!this.openTurns.has(sessionId)) fail(`O1: a ${tag} update for session ${sessionId} outside any pending prompt/load`);
    if (update.status === "cancelled") fail('C2: the agent sent status "cancelled"');
    if (version === 1) {
      if (tag === "tool_call") this.knownToolCalls.add(update.toolCallId);
      else if (tag === "tool_call_update" && !this.knownToolCalls.has(update.toolCallId)) fail("V4/O3: v1 tool_call_update before the tool_call for that id");
      return;
    }
    if (!V2_UPDATE_TAGS.has(tag)) fail(`§4.2: ${JSON.stringify(tag)} is not a pinned-v2 update an acpkit agent may send`);
    if (CHUNK_TAGS.has(tag) || tag === "user_message" || tag === "agent_message" || tag === "agent_thought") {
      if (typeof update.messageId !== "string") fail("M1: a v2 message update or chunk without a string messageId");
    }
    if (tag === "plan_update") {
      const plan = update.plan;
      if (plan?.type !== "items" || typeof plan?.id !== "string" || !Array.isArray(plan?.entries))
        fail('§4.5: plan_update needs plan {type:"items", id, entries}');
      if ("planId" in (plan ?? {})) fail("§10: later-draft planId on pinned v2");
    }
    if (tag === "tool_call_update") this.knownToolCalls.add(update.toolCallId);
    if (tag === "tool_call_content_chunk" && !this.knownToolCalls.has(update.toolCallId))
      fail("O3 [acpkit]: tool_call_content_chunk before the tool_call_update that creates the id");
    for (const entry of update.plan?.entries ?? []) {
      for (const field of ["priority", "status"]) {
        const value = entry[field];
        if (typeof value === "string" && !["high", "medium", "low", "pending", "in_progress", "completed"].includes(value) && !value.startsWith("_"))
          fail(`§3.3: plan entry ${field} ${value} is neither known nor "_"-prefixed`);
      }
    }
  }
}
