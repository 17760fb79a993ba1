// Agent side of a v1 connection: the model's (pinned-v2-shaped) session updates → v1 wire updates,
// for one session (docs/protocol.md §7.2, B3–B6). State kept: what each message has already shown the v1
// client (`sent`), every tool call's accumulated content (`tools`) and the one plan id v1 sees.
import type { MessageKind, Meta } from "../model.js";
import { contentBlockToV1, toolCallContentToV1 } from "./content.js";
import { plainTextOf } from "../index.js";
import { extensionStart, SentMessage } from "./sent-messages.js";
import { LossyReporter, type V1BridgeOptions } from "./lossy.js";
import { COMPACTION_SUMMARY_CHUNK, COMPACTION_UPDATE, CURRENT_MODE_UPDATE, NOTICE_UPDATE } from "./model-names.js";
import { permissionOptionsToV1, stopReasonToV1 } from "./stateless.js";
import { toolCallCreateToV1, toolCallPatchToV1 } from "./tool-calls.js";
import type { v1, v2 } from "@acpkit/schema";

type V1ChunkTag = "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk";

const CHUNK_TAG: Record<MessageKind, V1ChunkTag> = {
  user_message: "user_message_chunk",
  agent_message: "agent_message_chunk",
  agent_thought: "agent_thought_chunk",
};
const V1_PRIORITIES: ReadonlySet<string> = new Set(["high", "medium", "low"]);
const V1_ENTRY_STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "completed"]);

/** What a v2 permission request becomes on v1: updates to send first (B4.5), then the request. */
export interface V1PermissionRequest {
  updates: v1.SessionUpdate[];
  params: v1.RequestPermissionRequest;
}

interface ToolState {
  /** The model's current content (T3–T5). */
  content: v2.ToolCallContent[];
  /** The same items converted once to v1 (`undefined` = not expressible, reported when first seen). */
  v1Content: (v1.ToolCallContent | undefined)[];
}

/**
 * Converts one session's model updates (pinned-v2 shape) into v1 `session/update` payloads for an
 * agent serving a v1 client. Construct one per session; feed it every update in order.
 *
 * ```ts
 * const bridge = new AgentSideV1Bridge({ sessionId, onLossy: (e) => log(e.code, e.detail) });
 * for (const update of bridge.toV1(modelUpdate)) await conn.notify("session/update", { sessionId, update });
 * ```
 */
export class AgentSideV1Bridge {
  readonly sessionId: string;
  private readonly lossy: LossyReporter;
  private readonly sent = new Map<string, SentMessage>();
  private readonly tools = new Map<string, ToolState>();
  private primaryPlanId: string | undefined;

  constructor(options: V1BridgeOptions) {
    this.sessionId = options.sessionId;
    this.lossy = new LossyReporter(options.sessionId, options);
  }

  /**
   * The v1 updates to send for one model update (often exactly one, sometimes none).
   * `replay: true` while answering `session/load`: user messages are then forwarded (B3.5).
   */
  toV1(update: v2.SessionUpdate, options?: { replay?: boolean }): v1.SessionUpdate[] {
    switch (update.sessionUpdate) {
      case "user_message_chunk":
        return options?.replay === true ? listOf(this.chunk(update as v2.ContentChunk & { sessionUpdate: string })) : [];
      case "agent_message_chunk":
        return listOf(this.chunk(update as v2.SessionUpdateAgentMessageChunk));
      case "agent_thought_chunk":
        return listOf(this.chunk(update as v2.SessionUpdateAgentThoughtChunk));
      case "user_message":
        // v1 clients already show the prompt they sent; only a replay carries user messages (B3.5).
        return options?.replay === true ? this.upsert("user_message", update as v2.SessionUpdateUserMessage) : [];
      case "agent_message":
        return this.upsert("agent_message", update as v2.SessionUpdateAgentMessage);
      case "agent_thought":
        return this.upsert("agent_thought", update as v2.SessionUpdateAgentThought);
      case "tool_call_update":
        return this.toolCallUpdate(update as v2.SessionUpdateToolCallUpdate);
      case "tool_call_content_chunk":
        return this.toolCallContentChunk(update as v2.SessionUpdateToolCallContentChunk);
      case "plan_update":
        return this.planUpdate(update as v2.SessionUpdatePlanUpdate);
      case "usage_update":
      case "session_info_update":
      case "config_option_update":
        return [update as v1.SessionUpdate];
      case "available_commands_update":
        return [this.availableCommands(update as v2.SessionUpdateAvailableCommandsUpdate)];
      case CURRENT_MODE_UPDATE:
        return [renamed(update, "current_mode_update")];
      case NOTICE_UPDATE:
        return [renamed(update, "notice")];
      case COMPACTION_UPDATE:
        return [renamed(update, "compaction_update")];
      case COMPACTION_SUMMARY_CHUNK:
        return [renamed(update, "compaction_summary_chunk")];
      default:
        this.lossy.report("session_update", `session update ${JSON.stringify(update.sessionUpdate)} does not exist in v1; it was not sent`, update);
        return [];
    }
  }

  /**
   * `toV1` for a caller that sends the v1 updates one at a time: hands each to `emit`, and for an
   * agent message or thought chunk (the streaming case) allocates no array.
   */
  forEachToV1(update: v2.SessionUpdate, options: { replay?: boolean } | undefined, emit: (update: v1.SessionUpdate) => void): void {
    const tag = update.sessionUpdate;
    if (tag === "agent_message_chunk" || tag === "agent_thought_chunk") {
      const out = this.chunk(update as v2.ContentChunk & { sessionUpdate: string });
      if (out !== undefined) emit(out);
      return;
    }
    const converted = this.toV1(update, options);
    for (let i = 0; i < converted.length; i++) emit(converted[i]!);
  }

  /**
   * A model permission request as v1 (docs/protocol.md §4.7, B4.5): custom option kinds are dropped;
   * a tool call v1 has not heard of is first introduced with a v1 `tool_call` (send `updates` first).
   */
  permissionToV1(params: v2.RequestPermissionRequest): V1PermissionRequest {
    const { toolCall } = params;
    const updates: v1.SessionUpdate[] = [];
    let v1ToolCall: v1.ToolCallUpdate;
    if (this.tools.has(toolCall.toolCallId)) {
      const { sessionUpdate: _tag, ...body } = this.laterToolPatch(toolCall, params)[0] ?? {
        sessionUpdate: "tool_call_update",
        toolCallId: toolCall.toolCallId,
      };
      v1ToolCall = body;
    } else {
      const created = this.createTool(toolCall, params);
      updates.push(created);
      const { sessionUpdate: _tag, ...body } = created;
      // The permission's toolCall repeats what the tool_call said, minus the invented title.
      if (typeof toolCall.title !== "string") delete (body as { title?: string }).title;
      v1ToolCall = body as v1.ToolCallUpdate;
    }
    const out: v1.RequestPermissionRequest = {
      ...params,
      toolCall: v1ToolCall,
      options: permissionOptionsToV1(params.options, this.lossy, params),
    } as v1.RequestPermissionRequest;
    return { updates, params: out };
  }

  /** The v1 `session/prompt` result for a model stop reason (B5: custom values → `end_turn` + `_meta`). */
  stopReasonToV1(stopReason: v2.StopReason, meta?: Meta | null): v1.PromptResponse {
    return stopReasonToV1(stopReason, meta, this.lossy);
  }

  // ── messages (B3) ─────────────────────────────────────────────────────────────────────────

  private sentFor(id: string): SentMessage {
    let entry = this.sent.get(id);
    if (entry === undefined) {
      entry = new SentMessage();
      this.sent.set(id, entry);
    }
    return entry;
  }

  /** The v1 update for one chunk, or `undefined` when v1 cannot carry its block (reported). */
  private chunk(update: v2.ContentChunk & { sessionUpdate: string }): v1.SessionUpdate | undefined {
    const content = update.content;
    const text = plainTextOf(content);
    this.sentFor(update.messageId).append(content, text);
    // A v2 chunk whose block v1 understands is already a valid v1 chunk: pass it through.
    if (text !== undefined) return update as unknown as v1.SessionUpdate;
    const block = contentBlockToV1(content, this.lossy, update);
    if (block === undefined) return undefined;
    if (block === content) return update as unknown as v1.SessionUpdate;
    return { ...update, content: block } as unknown as v1.SessionUpdate;
  }

  private upsert(kind: MessageKind, update: v2.MessageUpdate & { sessionUpdate: string }): v1.SessionUpdate[] {
    if ("_meta" in update && update._meta !== undefined) {
      this.lossy.report("meta", "v1 has no message-level _meta; the message _meta patch was not sent", update);
    }
    if (update.content === undefined) return [];
    const next = update.content ?? [];
    const entry = this.sentFor(update.messageId);
    const sent = entry.blocks();
    const start = extensionStart(sent, next);
    if (start === undefined) {
      this.lossy.report(
        "message_replace",
        `v1 chunks can only append; the new content of message ${JSON.stringify(update.messageId)} does not extend what the v1 client already has, so nothing was sent`,
        update,
      );
      return [];
    }
    const out: v1.SessionUpdate[] = [];
    const tag = CHUNK_TAG[kind];
    const emit = (block: v2.ContentBlock) => {
      const converted = contentBlockToV1(block, this.lossy, update);
      if (converted !== undefined) out.push({ sessionUpdate: tag, messageId: update.messageId, content: converted });
    };
    if (start.textRemainder !== undefined) emit(start.textRemainder);
    for (let i = start.nextIndex; i < next.length; i++) emit(next[i]!);
    entry.replace(next);
    return out;
  }

  // ── tool calls (B4) ───────────────────────────────────────────────────────────────────────

  private createTool(patch: v2.ToolCallUpdate, update: unknown): v1.SessionUpdateToolCall {
    const content = Array.isArray(patch.content) ? patch.content : [];
    const v1Content = this.trackContent(patch.toolCallId, content, update);
    // Content was converted (and its losses reported) by trackContent; pass it ready-made.
    return toolCallCreateToV1({ ...patch, content: undefined }, this.lossy, update, Array.isArray(patch.content) ? v1Content : undefined);
  }

  /** Record a tool call's new whole content; returns it converted to v1 (losses reported once). */
  private trackContent(id: string, content: readonly v2.ToolCallContent[], update: unknown): v1.ToolCallContent[] {
    const v1Content = content.map((item) => toolCallContentToV1(item, this.lossy, update));
    this.tools.set(id, { content: content.slice(), v1Content });
    return defined(v1Content);
  }

  private toolCallUpdate(update: v2.SessionUpdateToolCallUpdate): v1.SessionUpdate[] {
    if (!this.tools.has(update.toolCallId)) return [this.createTool(update, update)];
    return this.laterToolPatch(update, update) as v1.SessionUpdate[];
  }

  /** A patch for a tool call v1 already knows (B4.4); `[]` when everything in it was inexpressible. */
  private laterToolPatch(patch: v2.ToolCallUpdate, update: unknown): (v1.ToolCallUpdate & { sessionUpdate: "tool_call_update" })[] {
    const out = toolCallPatchToV1({ ...patch, content: undefined }, this.lossy, update);
    if (patch.content !== undefined) out.content = this.trackContent(patch.toolCallId, patch.content ?? [], update);
    if (Object.keys(out).length === 1 && hasPatchField(patch)) return []; // all of it was reported as lossy
    return [{ sessionUpdate: "tool_call_update", ...out }];
  }

  private toolCallContentChunk(update: v2.SessionUpdateToolCallContentChunk): v1.SessionUpdate[] {
    const tool = this.tools.get(update.toolCallId);
    if (tool === undefined) {
      if (update._meta !== undefined && update._meta !== null) {
        this.lossy.report(
          "meta",
          "the chunk that introduced this tool call became a v1 tool_call, where _meta would describe the whole tool call; it was not sent",
          update,
        );
      }
      return [this.createTool({ toolCallId: update.toolCallId, content: [update.content] }, update)];
    }
    tool.content.push(update.content);
    tool.v1Content.push(toolCallContentToV1(update.content, this.lossy, update));
    // v1 content updates replace, never append: send the whole accumulated list (B4.3).
    const out: v1.SessionUpdateToolCallUpdate = { sessionUpdate: "tool_call_update", toolCallId: update.toolCallId, content: defined(tool.v1Content) };
    if (update._meta !== undefined && update._meta !== null) out._meta = update._meta;
    return [out];
  }

  // ── plans (B6) and the rest ───────────────────────────────────────────────────────────────

  private planUpdate(update: v2.SessionUpdatePlanUpdate): v1.SessionUpdate[] {
    const plan = update.plan;
    if (plan.type !== "items") {
      this.lossy.report("plan", `plan ${JSON.stringify(plan.id)} has type ${JSON.stringify(plan.type)}, which v1 does not have; it was not sent`, update);
      return [];
    }
    this.primaryPlanId ??= plan.id;
    if (plan.id !== this.primaryPlanId) {
      this.lossy.report(
        "plan",
        `v1 has one plan per session and it shows plan ${JSON.stringify(this.primaryPlanId)}; plan ${JSON.stringify(plan.id)} was not sent`,
        update,
      );
      return [];
    }
    const items = plan as v2.PlanUpdateContentItems;
    if (items._meta !== undefined && items._meta !== null) {
      this.lossy.report("meta", "v1 plans have no content-level _meta; the plan's _meta was not sent", update);
    }
    const out: v1.SessionUpdatePlan = { sessionUpdate: "plan", entries: items.entries.map((entry) => this.planEntry(entry, update)) };
    if (update._meta !== undefined) out._meta = update._meta;
    return [out];
  }

  private planEntry(entry: v2.PlanEntry, update: unknown): v1.PlanEntry {
    const priorityOk = V1_PRIORITIES.has(entry.priority);
    const statusOk = V1_ENTRY_STATUSES.has(entry.status);
    if (priorityOk && statusOk) return entry as v1.PlanEntry;
    const out = { ...entry } as v1.PlanEntry;
    if (!priorityOk) {
      out.priority = "medium";
      this.lossy.report("enum_value", `plan entry priority ${JSON.stringify(entry.priority)} does not exist in v1; sent "medium"`, update);
    }
    if (!statusOk) {
      out.status = "pending";
      this.lossy.report("enum_value", `plan entry status ${JSON.stringify(entry.status)} does not exist in v1; sent "pending"`, update);
    }
    return out;
  }

  private availableCommands(update: v2.SessionUpdateAvailableCommandsUpdate): v1.SessionUpdate {
    let commands: v1.AvailableCommand[] | undefined;
    update.availableCommands.forEach((command, index) => {
      const input = command.input;
      if (input === undefined || input === null || typeof (input as { hint?: unknown }).hint === "string") return;
      commands ??= update.availableCommands.slice() as v1.AvailableCommand[];
      const { input: _input, ...withoutInput } = command;
      commands[index] = withoutInput as v1.AvailableCommand;
      this.lossy.report(
        "session_update",
        `command ${JSON.stringify(command.name)} has an input of type ${JSON.stringify((input as { type?: unknown }).type)}, which v1 does not have; the input was left out`,
        update,
      );
    });
    return (commands === undefined ? update : { ...update, availableCommands: commands }) as v1.SessionUpdate;
  }
}

function listOf<T>(item: T | undefined): T[] {
  return item === undefined ? [] : [item];
}

function defined<T>(items: readonly (T | undefined)[]): T[] {
  const out: T[] = [];
  for (const item of items) if (item !== undefined) out.push(item);
  return out;
}

function hasPatchField(update: object): boolean {
  for (const key in update) if (key !== "toolCallId" && key !== "sessionUpdate" && (update as Record<string, unknown>)[key] !== undefined) return true;
  return false;
}

/** A model update under an `_acpkit/` tag as the v1 update it stands for (same fields, v1 tag). */
function renamed(update: v2.SessionUpdate, tag: string): v1.SessionUpdate {
  const { sessionUpdate: _model, ...rest } = update as { sessionUpdate: string };
  return { sessionUpdate: tag, ...rest } as v1.SessionUpdate;
}
