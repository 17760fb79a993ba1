// Client side of a v1 connection: v1 wire updates → the client model (pinned-v2 shape), for one
// session (docs/protocol.md §7.1, §7.2 B2/B6/B7). The only state is which synthesized message is open per
// kind, so that v1 chunks without `messageId` group into messages the way B2 says.
import { contentBlocksToV1 } from "./content.js";
import type { BridgeDiagnosticCode, Diagnostic } from "../diagnostics.js";
import { LossyReporter, type V1BridgeOptions } from "./lossy.js";
import { SYNTH_MESSAGE_ID_PREFIX, V1_ONLY_UPDATES, V1_PLAN_ID } from "./model-names.js";
import { toolCallPatchFromV1 } from "./tool-calls.js";
import type { v1, v2 } from "@acpkit/schema";

type ChunkTag = "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk";

/**
 * Converts one session's v1 `session/update` payloads into model updates for a client talking to a
 * v1 agent. Call the hooks at the turn boundaries B2.3 names so id-less chunks group correctly.
 *
 * ```ts
 * const bridge = new ClientSideV1Bridge({ sessionId });
 * bridge.promptStarted();
 * for (const update of bridge.fromV1(v1Update)) state = applyUpdate(state, update);
 * bridge.promptEnded();
 * ```
 */
export class ClientSideV1Bridge {
  readonly sessionId: string;
  private readonly lossy: LossyReporter;
  private readonly openSynth: Record<ChunkTag, string | undefined> = {
    user_message_chunk: undefined,
    agent_message_chunk: undefined,
    agent_thought_chunk: undefined,
  };
  private synthCounter = 0;
  /** Tool call ids introduced by a v1 `tool_call` (or reported as missing one, V4). */
  private readonly knownTools = new Set<string>();
  private readonly onDiagnostic: ((diagnostic: Diagnostic<BridgeDiagnosticCode>) => void) | undefined;

  constructor(options: V1BridgeOptions) {
    this.sessionId = options.sessionId;
    this.lossy = new LossyReporter(options.sessionId, options);
    this.onDiagnostic = options.onDiagnostic;
  }

  /** A new `session/prompt` was sent: id-less chunks after it start a new message (B2.3). */
  promptStarted(): void {
    this.closeAll();
  }

  /** The `session/prompt` response arrived (B2.3). */
  promptEnded(): void {
    this.closeAll();
  }

  /** `session/load` is starting (B2.3). */
  loadStarted(): void {
    this.closeAll();
  }

  /** The model updates for one v1 update (one, or none for something the model cannot hold). */
  fromV1(update: v1.SessionUpdate): v2.SessionUpdate[] {
    switch (update.sessionUpdate) {
      case "user_message_chunk":
      case "agent_message_chunk":
      case "agent_thought_chunk":
        return [this.chunk(update)];
      case "tool_call": {
        this.closeAll();
        this.knownTools.add(update.toolCallId);
        const { sessionUpdate: _tag, ...body } = toolCallPatchFromV1(update);
        return [{ sessionUpdate: "tool_call_update", ...body } as v2.SessionUpdateToolCallUpdate];
      }
      case "tool_call_update":
        this.closeAll();
        this.checkKnownTool(update.toolCallId, update);
        return [toolCallPatchFromV1(update) as v2.SessionUpdateToolCallUpdate];
      case "plan": {
        this.closeAll();
        const out: v2.SessionUpdatePlanUpdate = { sessionUpdate: "plan_update", plan: { type: "items", id: V1_PLAN_ID, entries: update.entries } };
        if (update._meta !== undefined) out._meta = update._meta;
        return [out];
      }
      case "current_mode_update":
      case "notice":
      case "compaction_update":
      case "compaction_summary_chunk": {
        // v1-only updates travel through the model under their `_acpkit/` tag (model-names.ts).
        const { sessionUpdate: tag, ...rest } = update;
        return [{ sessionUpdate: V1_ONLY_UPDATES[tag]!, ...rest } as unknown as v2.SessionUpdate];
      }
      case "usage_update":
      case "available_commands_update":
      case "config_option_update":
      case "session_info_update":
        // Identical in both versions, and they do not end a synthesized message (B2.3).
        return [update as v2.SessionUpdate];
      default: {
        const tag = (update as { sessionUpdate?: unknown }).sessionUpdate;
        this.lossy.report("session_update", `v1 session update ${JSON.stringify(tag)} is not part of v1; it was ignored`, update);
        return [];
      }
    }
  }

  /**
   * `fromV1` for a caller that takes the model updates one at a time: hands each to `apply`, and
   * for a chunk (the streaming case) allocates no array.
   */
  forEachFromV1(update: v1.SessionUpdate, apply: (update: v2.SessionUpdate) => void): void {
    const tag = update.sessionUpdate;
    if (tag === "agent_message_chunk" || tag === "agent_thought_chunk" || tag === "user_message_chunk") {
      apply(this.chunk(update));
      return;
    }
    const converted = this.fromV1(update);
    for (let i = 0; i < converted.length; i++) apply(converted[i]!);
  }

  /** A v1 permission request in model form: its `toolCall` is converted like a v1 `tool_call_update`. */
  permissionFromV1(params: v1.RequestPermissionRequest): v2.RequestPermissionRequest {
    this.checkKnownTool(params.toolCall.toolCallId, params);
    const toolCall = toolCallPatchFromV1(params.toolCall);
    return (toolCall === params.toolCall ? params : { ...params, toolCall }) as v2.RequestPermissionRequest;
  }

  /** A model prompt for the v1 agent: unknown blocks and custom roles are dropped and reported. */
  promptToV1(params: v2.PromptRequest): v1.PromptRequest {
    return { ...params, prompt: contentBlocksToV1(params.prompt, this.lossy, params) };
  }

  private chunk(update: v1.ContentChunk & { sessionUpdate: ChunkTag }): v2.SessionUpdate {
    const tag = update.sessionUpdate;
    if (typeof update.messageId === "string") {
      this.closeAll(); // B2.1
      return update as v2.SessionUpdate;
    }
    // B2.3: a chunk of another kind closes the open synthesized messages of the other kinds.
    for (const other of CHUNK_TAGS) if (other !== tag) this.openSynth[other] = undefined;
    let messageId = this.openSynth[tag];
    if (messageId === undefined) {
      messageId = `${SYNTH_MESSAGE_ID_PREFIX}${++this.synthCounter}`;
      this.openSynth[tag] = messageId;
    }
    const out: v2.ContentChunk & { sessionUpdate: ChunkTag } = { sessionUpdate: tag, messageId, content: update.content };
    if (update._meta !== undefined && update._meta !== null) out._meta = update._meta;
    return out as v2.SessionUpdate;
  }

  /** V4/O3: v1 agents must send `tool_call` first; the model still creates the call (T1), so only report it. */
  private checkKnownTool(toolCallId: string, update: unknown): void {
    if (this.knownTools.has(toolCallId)) return;
    this.knownTools.add(toolCallId);
    this.onDiagnostic?.({
      code: "v1_tool_call_missing",
      message: `the v1 agent referred to tool call ${JSON.stringify(toolCallId)} before sending its tool_call; it was created with defaults`,
      sessionId: this.sessionId,
      detail: update,
    });
  }

  private closeAll(): void {
    this.openSynth.user_message_chunk = undefined;
    this.openSynth.agent_message_chunk = undefined;
    this.openSynth.agent_thought_chunk = undefined;
  }
}

const CHUNK_TAGS: readonly ChunkTag[] = ["user_message_chunk", "agent_message_chunk", "agent_thought_chunk"];
