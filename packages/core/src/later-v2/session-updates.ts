// Session updates, tool calls and permission requests between the model (pinned-v2 shapes plus
// acpkit's `_acpkit/…` updates) and the later v2 draft (docs/protocol.md §12, A7–A9 and A12). Stateless: each
// function maps one value; what cannot be carried is reported through the reporter it is given.
import {
  AGENT_TERMINAL_CONTENT_TYPE,
  AGENT_TERMINAL_OUTPUT,
  AGENT_TERMINAL_UPDATE,
  COMPACTION_SUMMARY_CHUNK,
  COMPACTION_UPDATE,
  CURRENT_MODE_UPDATE,
  DIFF_CHANGES_CONTENT_TYPE,
  isJsonObject,
  NOTICE_UPDATE,
  STATE_UPDATE,
} from "../index.js";
import { diffFromLater, diffToLater } from "./diffs.js";
import type { LaterLossy } from "./lossy.js";

type Json = Record<string, unknown>;

/** Model update tags that are later-draft updates under an `_acpkit/` name, and their later names. */
const MODEL_TO_LATER_TAGS: Readonly<Record<string, string>> = {
  [STATE_UPDATE]: "state_update",
  [AGENT_TERMINAL_UPDATE]: "terminal_update",
  [AGENT_TERMINAL_OUTPUT]: "terminal_output_chunk",
  [NOTICE_UPDATE]: "notice",
  [COMPACTION_UPDATE]: "compaction_update",
  [COMPACTION_SUMMARY_CHUNK]: "compaction_summary_chunk",
};

const LATER_TO_MODEL_TAGS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(MODEL_TO_LATER_TAGS).map(([model, later]) => [later, model]));

/** `value` with the key `from` renamed `to` (absent stays absent). */
function renameKey(value: Json, from: string, to: string): Json {
  if (!(from in value)) return value;
  const { [from]: moved, ...rest } = value;
  return { ...rest, [to]: moved };
}

// ---- tool calls ----

function contentItemToLater(item: unknown): unknown {
  if (!isJsonObject(item)) return item;
  if (item.type === "diff" || item.type === DIFF_CHANGES_CONTENT_TYPE) return diffToLater(item);
  if (item.type === AGENT_TERMINAL_CONTENT_TYPE) return { ...item, type: "terminal" };
  return item;
}

// Nothing is lost here: a diff the model cannot hold as text is kept as `_acpkit/diff_changes`.
function contentItemFromLater(item: unknown): unknown {
  if (!isJsonObject(item)) return item;
  if (item.type === "diff") return diffFromLater(item).item;
  if (item.type === "terminal") return { ...item, type: AGENT_TERMINAL_CONTENT_TYPE };
  return item;
}

/** A model tool-call patch (the `toolCall` of a permission request, or a `tool_call_update`) in the later shape. */
export function toolCallToLater(patch: Json): Json {
  if (!Array.isArray(patch.content)) return patch;
  return { ...patch, content: patch.content.map(contentItemToLater) };
}

/** A later tool-call patch in the model's shape (`name`, `capabilities` and the statuses `paused`/`cancelled` are kept: the model's enums are open). */
export function toolCallFromLater(patch: Json): Json {
  if (!Array.isArray(patch.content)) return patch;
  return { ...patch, content: patch.content.map(contentItemFromLater) };
}

// ---- plans, commands, config options ----

function planToLater(plan: unknown): unknown {
  return isJsonObject(plan) ? renameKey(plan, "id", "planId") : plan;
}

function planFromLater(plan: unknown): unknown {
  return isJsonObject(plan) ? renameKey(plan, "planId", "id") : plan;
}

/** A model (pinned) command `{name, description, input?: {hint}}` as the later tagged `{type: "command", …, input?: {type: "text", hint}}`. */
export function commandToLater(command: Json): Json {
  const input = command.input;
  const out: Json = { type: "command", ...command };
  if (isJsonObject(input) && typeof input.type !== "string") out.input = { type: "text", ...input };
  return out;
}

/** Later commands in the model's shape; a command kind other than `command` has no model form and is left out (reported). */
export function commandsFromLater(commands: unknown, lossy: LaterLossy): unknown {
  if (!Array.isArray(commands)) return commands;
  const out: Json[] = [];
  for (const command of commands) {
    if (!isJsonObject(command)) continue;
    if (command.type !== "command") {
      lossy.report("session_update", `available command of kind ${JSON.stringify(command.type)} has no model form; it was left out`, command);
      continue;
    }
    const { type: _type, ...rest } = command;
    const input = rest.input;
    if (isJsonObject(input) && input.type === "text") {
      const { type: _inputType, ...hint } = input;
      rest.input = hint;
    }
    out.push(rest);
  }
  return out;
}

function selectOptionsMap(options: unknown, from: string, to: string): unknown {
  if (!Array.isArray(options)) return options;
  return options.map((entry) => (isJsonObject(entry) && Array.isArray(entry.options) ? renameKey(entry, from, to) : entry));
}

/** A model config option (`id`, groups by `group`) in the later shape (`configId`, `groupId`). */
export function configOptionToLater(option: unknown): unknown {
  if (!isJsonObject(option)) return option;
  const renamed = renameKey(option, "id", "configId");
  return "options" in renamed ? { ...renamed, options: selectOptionsMap(renamed.options, "group", "groupId") } : renamed;
}

/** A later config option in the model shape. */
export function configOptionFromLater(option: unknown): unknown {
  if (!isJsonObject(option)) return option;
  const renamed = renameKey(option, "configId", "id");
  return "options" in renamed ? { ...renamed, options: selectOptionsMap(renamed.options, "groupId", "group") } : renamed;
}

export function configOptionsToLater(options: unknown): unknown {
  return Array.isArray(options) ? options.map(configOptionToLater) : options;
}

export function configOptionsFromLater(options: unknown): unknown {
  return Array.isArray(options) ? options.map(configOptionFromLater) : options;
}

// ---- session updates ----

/**
 * A model update as a later-draft update, or undefined when the later draft has no form for it
 * (reported). Text chunks and the other shared variants come back as the same object.
 */
export function sessionUpdateToLater(update: Json, lossy: LaterLossy): Json | undefined {
  const tag = update.sessionUpdate as string;
  switch (tag) {
    case "agent_message_chunk":
    case "agent_thought_chunk":
    case "user_message_chunk":
    case "agent_message":
    case "agent_thought":
    case "user_message":
    case "usage_update":
    case "session_info_update":
      return update;
    case "tool_call_update":
      return toolCallToLater(update);
    case "tool_call_content_chunk":
      return { ...update, content: contentItemToLater(update.content) };
    case "plan_update":
      return { ...update, plan: planToLater(update.plan) };
    case "available_commands_update":
      return {
        ...update,
        availableCommands: Array.isArray(update.availableCommands)
          ? update.availableCommands.map((c) => (isJsonObject(c) ? commandToLater(c) : c))
          : update.availableCommands,
      };
    case "config_option_update":
      return { ...update, configOptions: configOptionsToLater(update.configOptions) };
    case NOTICE_UPDATE:
      return { ...renameKey(update, "message", "description"), sessionUpdate: "notice" };
    case CURRENT_MODE_UPDATE:
      lossy.report("session_update", "the later v2 draft has no session modes; the current_mode_update was not sent", update);
      return undefined;
    default: {
      const later = Object.hasOwn(MODEL_TO_LATER_TAGS, tag) ? MODEL_TO_LATER_TAGS[tag] : undefined;
      if (later !== undefined) return { ...update, sessionUpdate: later };
      // Other custom updates (`_…`) are extensions both drafts allow.
      return update;
    }
  }
}

/** A later-draft update in the model's shape (later-only variants become their `_acpkit/…` model updates). */
export function sessionUpdateFromLater(update: Json, lossy: LaterLossy): Json {
  const tag = update.sessionUpdate as string;
  switch (tag) {
    case "tool_call_update":
      return toolCallFromLater(update);
    case "tool_call_content_chunk":
      return { ...update, content: contentItemFromLater(update.content) };
    case "plan_update":
      return { ...update, plan: planFromLater(update.plan) };
    case "available_commands_update":
      return { ...update, availableCommands: commandsFromLater(update.availableCommands, lossy) };
    case "config_option_update":
      return { ...update, configOptions: configOptionsFromLater(update.configOptions) };
    case "notice":
      return { ...renameKey(update, "description", "message"), sessionUpdate: NOTICE_UPDATE };
    default: {
      const model = Object.hasOwn(LATER_TO_MODEL_TAGS, tag) ? LATER_TO_MODEL_TAGS[tag] : undefined;
      return model === undefined ? update : { ...update, sessionUpdate: model };
    }
  }
}

// ---- permission requests ----

/**
 * Model `session/request_permission` params (`toolCall`) as the later form (`title`, `subject`).
 * The title is the tool call's: the one in the request, else `knownTitle` (what an earlier update
 * called it), else a generic one.
 */
export function permissionRequestToLater(params: Json, knownTitle?: string): Json {
  const toolCall = isJsonObject(params.toolCall) ? params.toolCall : { toolCallId: "" };
  const { toolCall: _toolCall, subject, ...rest } = params;
  const given = typeof toolCall.title === "string" && toolCall.title.length > 0 ? toolCall.title : knownTitle;
  const title = given !== undefined && given.length > 0 ? given : "Permission requested";
  // A command subject (the model's extension field) names the tool call it belongs to.
  if (isJsonObject(subject) && subject.type === "command") return { ...rest, title, subject: { ...subject, toolCallId: toolCall.toolCallId } };
  return { ...rest, title, subject: { type: "tool_call", toolCall: toolCallToLater(toolCall) } };
}

/**
 * Later `session/request_permission` params in the model's form. A tool-call subject maps exactly;
 * a command subject (or none) becomes a tool call of kind `execute` titled with the request's title
 * (reported: the model's permission request is always about a tool call). `syntheticId` names
 * that tool call when the subject gives no `toolCallId`.
 */
export function permissionRequestFromLater(params: Json, syntheticId: string, lossy: LaterLossy): Json {
  const { title, description, subject, ...rest } = params;
  if (isJsonObject(subject) && subject.type === "tool_call" && isJsonObject(subject.toolCall)) {
    return { ...rest, toolCall: toolCallFromLater(subject.toolCall) };
  }
  const toolCall: Json = {
    toolCallId: isJsonObject(subject) && typeof subject.toolCallId === "string" ? subject.toolCallId : syntheticId,
    title: typeof title === "string" ? title : "Permission requested",
    kind: "execute",
  };
  if (isJsonObject(subject)) toolCall.rawInput = subject;
  if (typeof description === "string") toolCall.content = [{ type: "content", content: { type: "text", text: description } }];
  lossy.report(
    "permission_subject",
    `a permission request about ${isJsonObject(subject) ? `a ${JSON.stringify(subject.type)} subject` : "no subject"} reaches the model as a tool call "${toolCall.toolCallId}" of kind execute (the subject is its rawInput)`,
    params,
  );
  // The subject also stays on the model's request (an extension field), so a handler can read it.
  return isJsonObject(subject) ? { ...rest, toolCall, subject } : { ...rest, toolCall };
}

/** A later permission outcome in the model's closed form: an unknown outcome is taken as `cancelled` (reported). */
export function permissionOutcomeFromLater(result: Json, lossy: LaterLossy): Json {
  const outcome = isJsonObject(result.outcome) ? result.outcome : undefined;
  if (outcome === undefined || outcome.outcome === "selected" || outcome.outcome === "cancelled") return result;
  lossy.report("enum_value", `permission outcome ${JSON.stringify(outcome.outcome)} has no model form; taken as cancelled`, result);
  return { ...result, outcome: { outcome: "cancelled" } };
}
