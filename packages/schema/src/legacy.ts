// Recognises payloads written against an obsolete or foreign protocol shape (docs/protocol.md §9):
// pre-1.0 drafts (docs/protocol.md §9), the other acpkit version, and the later official v2 draft
// (§10). A bare schema error says "must have required property 'prompt'"; these detectors say
// `legacy pre-1.0 shape "messages": use "prompt": ContentBlock[]`, which is what a developer
// porting old code needs to read.
//
// When to call them (they are pure and cheap, but not free):
// - after a schema validation failed, to replace or lead the schema errors;
// - on pinned v2 also for VALID payloads of the methods `scanLegacyEvenWhenValid` names, because
//   the open v2 unions and enums accept several legacy shapes as "unknown" values: v1 updates
//   `tool_call` / `plan` / `current_mode_update`, pre-1.0 `tool_call` with id/name/arguments,
//   PascalCase or camelCase tags and enum values, `embedded_resource` blocks, `terminal` tool
//   content, status `success` / `cancelled`, stop reason `error`, the later draft's
//   `state_update` and `info` (unknown property), and `_`-less custom values that are really
//   pre-1.0 spellings.
// On v1 every legacy shape already fails the closed schema, so a valid v1 payload is never scanned.
//
// Each detector returns the FIRST legacy shape found (the one the fix should start with), or
// undefined when the value shows none.
import { isJsonObject, ownEntry, SESSION_UPDATE_TAGS, STOP_REASONS } from "./methods.js";

import { type LegacyVersion, type JsonObject, PRE_1_0, V1_ON_V2, V2_ON_V1, LATER_DRAFT, has, legacy, toSnakeCase, wrongCase } from "./legacy-common.js";
import { detectInContentBlock, detectInToolCallContent, detectInToolCallFields, detectInPlanEntries } from "./legacy-content.js";
import type { ValidationError } from "./validation-result.js";

export type { LegacyVersion } from "./legacy-common.js";

const PRE_1_0_METHODS: Record<string, string> = {
  "acp/session_update": "session/update",
  "acp/initialize": "initialize",
  "acp/authenticate": "authenticate",
  "acp/new_session": "session/new",
  "acp/load_session": "session/load",
  "acp/prompt": "session/prompt",
  "acp/cancel": "session/cancel",
  "acp/request_permission": "session/request_permission",
  "acp/read_text_file": "fs/read_text_file",
  "acp/write_text_file": "fs/write_text_file",
};

const LATER_DRAFT_METHODS: Record<string, string> = {
  "auth/login": "authenticate",
};

/**
 * A method name from a pre-1.0 draft (`acp/session_update` → `session/update`) or from the later
 * v2 draft (`auth/login` → `authenticate`). Unknown `acp/…` names still count as legacy: the
 * `acp/` namespace never existed in a released version.
 */
export function detectLegacyMethod(method: string): { legacyShape: string; expected: string } | undefined {
  const modern = ownEntry(PRE_1_0_METHODS, method) ?? ownEntry(LATER_DRAFT_METHODS, method);
  if (modern) return { legacyShape: method, expected: `"${modern}"` };
  if (method.startsWith("acp/")) {
    return { legacyShape: method, expected: 'a method of the ACP method table without the acp/ prefix (e.g. "session/update", "session/prompt")' };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Session update tags

const V1_UPDATE_TAGS: ReadonlySet<string> = new Set(SESSION_UPDATE_TAGS[1]);
const V2_UPDATE_TAGS: ReadonlySet<string> = new Set(SESSION_UPDATE_TAGS[2]);

/** v2-only updates met on v1, and what v1 offers instead. */
const V2_UPDATES_ON_V1: Record<string, { tag: string; expected: string }> = {
  plan_update: { tag: "plan", expected: '{"sessionUpdate":"plan","entries":[…]} (the complete list; v1 has one plan per session)' },
  user_message: { tag: "user_message_chunk", expected: '"user_message_chunk" updates, one per content block' },
  agent_message: { tag: "agent_message_chunk", expected: '"agent_message_chunk" updates, one per content block' },
  agent_thought: { tag: "agent_thought_chunk", expected: '"agent_thought_chunk" updates, one per content block' },
  tool_call_content_chunk: { tag: "tool_call_update", expected: '{"sessionUpdate":"tool_call_update","toolCallId",…,"content":[…the full content array]}' },
};

/** v1-only updates met on pinned v2, and what v2 offers instead. */
const V1_UPDATES_ON_V2: Record<string, { tag: string; expected: string }> = {
  tool_call: { tag: "tool_call_update", expected: '{"sessionUpdate":"tool_call_update","toolCallId",…} (the first tool_call_update creates the tool call)' },
  plan: { tag: "plan_update", expected: '{"sessionUpdate":"plan_update","plan":{"type":"items","id","entries":[…]}}' },
  current_mode_update: {
    tag: "_acpkit/current_mode_update",
    expected: 'a custom update such as {"sessionUpdate":"_acpkit/current_mode_update","currentModeId"} (v2 has no session modes)',
  },
};

/** Later-draft updates; unknown to both acpkit versions. */
const LATER_DRAFT_UPDATES: Record<string, string> = {
  state_update: 'the session/prompt response {"stopReason"}, which ends the turn (acpkit v2 has no state_update)',
  terminal_update: "tool call content without terminals (acpkit v2 has no terminals)",
  terminal_output_chunk: "tool call content without terminals (acpkit v2 has no terminals)",
};

/** The tag the version uses for a (snake_case) tag, crossing versions where one maps to another. */
function modernUpdateTag(version: LegacyVersion, tag: string): string | undefined {
  if ((version === 1 ? V1_UPDATE_TAGS : V2_UPDATE_TAGS).has(tag)) return tag;
  return ownEntry(version === 1 ? V2_UPDATES_ON_V1 : V1_UPDATES_ON_V2, tag)?.tag;
}

// ---------------------------------------------------------------------------------------------
// Content

function detectInSessionUpdate(version: LegacyVersion, update: unknown, path: string): ValidationError | undefined {
  if (!isJsonObject(update)) return undefined;
  const tag = update.sessionUpdate;
  const tagPath = `${path}/sessionUpdate`;
  if (typeof tag !== "string") return undefined;

  if (tag === "Started") return legacy(PRE_1_0, tagPath, "Started", "no update at all: a turn starts with the session/prompt request");
  if (wrongCase(tag)) {
    const snake = toSnakeCase(tag);
    const modern = modernUpdateTag(version, snake) ?? modernUpdateTag(version, `${snake}_chunk`);
    return legacy(PRE_1_0, tagPath, tag, modern ? `"${modern}" (update tags are snake_case)` : "a snake_case sessionUpdate tag");
  }
  const laterDraft = ownEntry(LATER_DRAFT_UPDATES, tag);
  if (laterDraft) return legacy(LATER_DRAFT, tagPath, tag, laterDraft);

  // The pre-1.0 tool call is more specific than "v1 tool_call on v2": report it first.
  if (tag === "tool_call" || tag === "tool_call_update") {
    const found = detectInToolCallFields(version, update, path, tag === "tool_call");
    if (found) return found;
  }
  const crossVersion = ownEntry(version === 1 ? V2_UPDATES_ON_V1 : V1_UPDATES_ON_V2, tag);
  if (crossVersion) return legacy(version === 1 ? V2_ON_V1 : V1_ON_V2, tagPath, tag, crossVersion.expected);
  if (version === 1 && tag.startsWith("_")) {
    return legacy(V2_ON_V1, tagPath, tag, `one of the v1 update tags (v1 is closed: no custom updates): ${[...V1_UPDATE_TAGS].join(", ")}`);
  }

  switch (tag) {
    case "user_message_chunk":
    case "agent_message_chunk":
    case "agent_thought_chunk":
      return detectInContentBlock(update.content, `${path}/content`);
    case "tool_call_content_chunk":
      return detectInToolCallContent(version, update.content, `${path}/content`);
    case "plan":
      return detectInPlanEntries(update.entries, `${path}/entries`);
    case "plan_update": {
      const plan = update.plan;
      if (!isJsonObject(plan)) {
        if (has(update, "entries")) return legacy(V1_ON_V2, `${path}/entries`, "entries", '"plan": {"type":"items","id","entries":[…]}');
        return undefined;
      }
      if (has(plan, "planId") && !has(plan, "id")) return legacy(LATER_DRAFT, `${path}/plan/planId`, "planId", '"id" (pinned v2 names the plan "plan.id")');
      return detectInPlanEntries(plan.entries, `${path}/plan/entries`);
    }
    case "user_message":
    case "agent_message":
    case "agent_thought": {
      const content = update.content;
      if (!Array.isArray(content)) return undefined;
      for (let i = 0; i < content.length; i++) {
        const found = detectInContentBlock(content[i], `${path}/content/${i}`);
        if (found) return found;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Per-method params

function detectInPromptParams(params: JsonObject): ValidationError | undefined {
  if (has(params, "messages") && !has(params, "prompt")) {
    return legacy(PRE_1_0, "/messages", "messages", '"prompt": ContentBlock[]');
  }
  if (!Array.isArray(params.prompt)) return undefined;
  for (let i = 0; i < params.prompt.length; i++) {
    const found = detectInContentBlock(params.prompt[i], `/prompt/${i}`);
    if (found) return found;
  }
  return undefined;
}

function detectInPermissionParams(version: LegacyVersion, params: JsonObject): ValidationError | undefined {
  if (!has(params, "toolCall")) {
    if (has(params, "subject")) return legacy(LATER_DRAFT, "/subject", "subject", '"toolCall": ToolCallUpdate (describing the operation)');
    if (has(params, "tool_call")) return legacy(PRE_1_0, "/tool_call", "tool_call", '"toolCall"');
  }
  if (isJsonObject(params.toolCall)) {
    const found = detectInToolCallFields(version, params.toolCall, "/toolCall", false);
    if (found) return found;
  }
  if (Array.isArray(params.options)) {
    for (let i = 0; i < params.options.length; i++) {
      const option = params.options[i];
      const kind = isJsonObject(option) ? wrongCase(option.kind) : undefined;
      if (kind) return legacy(PRE_1_0, `/options/${i}/kind`, kind, `"${toSnakeCase(kind)}"`);
    }
  }
  return undefined;
}

function detectInInitializeParams(version: LegacyVersion, params: JsonObject): ValidationError | undefined {
  if (version === 2 && has(params, "info") && !has(params, "clientInfo")) {
    return legacy(LATER_DRAFT, "/info", "info", '"clientInfo": Implementation');
  }
  return undefined;
}

/**
 * The first legacy shape in the params of `method` (a pre-1.0 draft, the other acpkit version, or
 * the later v2 draft), as a ValidationError whose message names the modern shape; undefined if
 * none is recognised. `acp/…` method names are reported at path "" before anything else.
 */
export function detectLegacyShape(version: LegacyVersion, method: string, params: unknown): ValidationError | undefined {
  const legacyMethod = detectLegacyMethod(method);
  if (legacyMethod) {
    return legacy(legacyMethod.legacyShape.startsWith("acp/") ? PRE_1_0 : LATER_DRAFT, "", legacyMethod.legacyShape, legacyMethod.expected);
  }
  if (!isJsonObject(params)) return undefined;
  if (has(params, "session_id") && !has(params, "sessionId")) return legacy(PRE_1_0, "/session_id", "session_id", '"sessionId"');
  switch (method) {
    case "session/update":
      return detectInSessionUpdate(version, params.update, "/update");
    case "session/prompt":
      return detectInPromptParams(params);
    case "session/request_permission":
      return detectInPermissionParams(version, params);
    case "initialize":
      return detectInInitializeParams(version, params);
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Results

const V1_STOP_REASONS: ReadonlySet<string> = new Set(STOP_REASONS[1]);

function detectInPromptResult(version: LegacyVersion, result: unknown): ValidationError | undefined {
  if (!isJsonObject(result)) return undefined;
  if (!has(result, "stopReason")) {
    return legacy(LATER_DRAFT, "", "{} prompt acknowledgement", '{"stopReason": …}, sent when the turn ends (the response ends the turn)');
  }
  const reason = result.stopReason;
  if (reason === "error") {
    const custom = version === 2 ? '; custom stop reasons start with "_"' : "";
    return legacy(PRE_1_0, "/stopReason", "error", `a JSON-RPC error response (e.g. -32603) instead of a stop reason${custom}`);
  }
  const badReason = wrongCase(reason);
  if (badReason) return legacy(PRE_1_0, "/stopReason", badReason, `"${toSnakeCase(badReason)}"`);
  if (version === 1 && typeof reason === "string" && !V1_STOP_REASONS.has(reason)) {
    return legacy(V2_ON_V1, "/stopReason", reason, '"end_turn" with the custom reason in _meta["acpkit/v2StopReason"] (v1 stop reasons are closed)');
  }
  return undefined;
}

/**
 * The first legacy shape in the result of `method`: stop reason `error` or PascalCase, a `{}`
 * prompt acknowledgement (later v2 draft), a v2 custom stop reason on v1, `info` instead of
 * `agentInfo` on v2. Undefined if none is recognised.
 */
export function detectLegacyResult(version: LegacyVersion, method: string, result: unknown): ValidationError | undefined {
  switch (method) {
    case "session/prompt":
      return detectInPromptResult(version, result);
    case "initialize":
      if (version === 2 && isJsonObject(result) && has(result, "info") && !has(result, "agentInfo")) {
        return legacy(LATER_DRAFT, "/info", "info", '"agentInfo": Implementation');
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Whether a payload that PASSED schema validation must still be scanned for legacy shapes: only
 * on pinned v2, whose open unions and enums (and ignored unknown properties) accept some legacy
 * shapes as "unknown" values. v1 is closed, so a valid v1 payload holds none of them.
 */
export function scanLegacyEvenWhenValid(version: LegacyVersion, method: string, part: "params" | "result"): boolean {
  if (version !== 2) return false;
  if (part === "result") return method === "session/prompt" || method === "initialize";
  return method === "session/update" || method === "session/prompt" || method === "session/request_permission" || method === "initialize";
}
