// The handles a turn's writer hands out (a message, a compaction, a tool call): each turns its
// calls into model updates and gives them to the writer that made it, which keeps their order and
// the turn's end (writer.ts).
import { AcpError, COMPACTION_SUMMARY_CHUNK, COMPACTION_UPDATE, type MessageKind, valueKind } from "@acpkit/core";
import { messageIdFor } from "./message-ids.js";
import type { CancellableWork } from "./cancellable-work.js";
import { checkToolCallPaths } from "./tool-call-paths.js";
import type {
  CompactionHandle,
  ContentBlock,
  MessageHandle,
  Meta,
  SessionUpdate,
  PermissionOption,
  PermissionOutcome,
  AgentPermissionRequest,
  ToolCallContent,
  ToolCallFields,
  ToolCallHandle,
} from "./types.js";

/** What a handle needs of the writer that made it. */
export interface HandleSink {
  send(update: SessionUpdate): void;
  /** Adds `text` to a held chunk of the same message, when there is one (true: taken). */
  joinHeldText(sessionUpdate: string, messageId: string, text: string): boolean;
  /** Holds a whole message's text to be sent as chunks (true: taken). */
  holdWholeText(kind: string, messageNumber: number, text: string): boolean;
}

export function toBlock(block: ContentBlock | string): ContentBlock {
  return typeof block === "string" ? ({ type: "text", text: block } as ContentBlock) : block;
}

export function toBlocks(content: readonly ContentBlock[] | string): ContentBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content } as ContentBlock];
  // A number or an object here used to fail as "content is not iterable".
  if (!Array.isArray(content)) throw new TypeError(`content must be a string or a list of content blocks, got ${valueKind(content)}`);
  return [...content];
}

/** The chunk tag of each message kind (a constant: an agent that sends a message per piece makes a handle per piece). */
const CHUNK_TAGS: Readonly<Record<MessageKind, string>> = {
  agent_message: "agent_message_chunk",
  agent_thought: "agent_thought_chunk",
  user_message: "user_message_chunk",
};

export class MessageHandleImpl implements MessageHandle {
  private readonly chunkTag: string;
  // The id string is made on first use: an agent that sends each piece as a message of its own
  // (`turn.message(text)` in a loop) never reads it, and its held messages keep only the number.
  #messageId: string | undefined;
  constructor(
    private readonly writer: HandleSink,
    private readonly messageNumber: number,
    private readonly kind: MessageKind,
  ) {
    this.chunkTag = CHUNK_TAGS[kind];
  }
  get messageId(): string {
    return (this.#messageId ??= messageIdFor(this.messageNumber));
  }
  append(block: ContentBlock | string): void {
    if (typeof block === "string" && this.writer.joinHeldText(this.chunkTag, this.messageId, block)) return;
    this.writer.send({ sessionUpdate: this.chunkTag, messageId: this.messageId, content: toBlock(block) } as SessionUpdate);
  }
  replace(content: readonly ContentBlock[] | string): void {
    if (typeof content === "string" && this.writer.holdWholeText(this.kind, this.messageNumber, content)) return;
    this.writer.send({ sessionUpdate: this.kind, messageId: this.messageId, content: toBlocks(content) } as SessionUpdate);
  }
  setMeta(meta: Meta | null): void {
    this.writer.send({ sessionUpdate: this.kind, messageId: this.messageId, _meta: meta } as SessionUpdate);
  }
}

export class CompactionHandleImpl implements CompactionHandle {
  constructor(
    private readonly writer: HandleSink,
    readonly compactionId: string,
  ) {}
  appendSummary(block: ContentBlock | string): void {
    this.writer.send({ sessionUpdate: COMPACTION_SUMMARY_CHUNK, compactionId: this.compactionId, content: toBlock(block) } as unknown as SessionUpdate);
  }
  complete(summary?: readonly ContentBlock[] | string): void {
    this.status("completed", summary === undefined ? {} : { summary: toBlocks(summary) });
  }
  fail(error: string): void {
    this.status("failed", { error });
  }
  cancel(): void {
    this.status("cancelled", {});
  }
  status(status: string, fields: Record<string, unknown>): void {
    this.writer.send({ sessionUpdate: COMPACTION_UPDATE, compactionId: this.compactionId, status, ...fields } as unknown as SessionUpdate);
  }
}

/** Asks for permission on behalf of a tool call; only a live turn can. */
export type PermissionAsker = (request: AgentPermissionRequest) => Promise<PermissionOutcome>;

/** What a tool call handle knows beyond its writer: how to make its signal, the dialect, and its cancel registry. */
export interface ToolCallContext {
  /** The handle's `signal` (made on first read). */
  signal(): AbortSignal;
  /** The later v2 draft has a wire status `cancelled`; v1 and the pinned v2 do not (C2). */
  laterDialect: boolean;
  /** Set for a `cancellable` call: where its cancel is registered until it ends. */
  work: CancellableWork | undefined;
  /** Called once the call reaches a final status (a background call leaves the session's snapshot). */
  onEnd?: () => void;
}

/** Statuses after which a tool call does nothing more (and can no longer be cancelled). */
const FINAL_STATUSES: ReadonlySet<unknown> = new Set(["completed", "failed", "cancelled"]);

export class ToolCallHandleImpl implements ToolCallHandle {
  #signal: AbortSignal | undefined;
  constructor(
    private readonly writer: HandleSink,
    readonly toolCallId: string,
    private readonly ask: PermissionAsker,
    private readonly context: ToolCallContext,
  ) {}
  get signal(): AbortSignal {
    this.#signal ??= this.context.signal();
    return this.#signal;
  }
  update(fields: ToolCallFields): void {
    // No wire status "cancelled" in v1 or the pinned v2 (docs/protocol.md C2): there it is client display state.
    if ((fields.status as string | null | undefined) === "cancelled" && !this.context.laterDialect) {
      throw new AcpError(
        "ProtocolViolation",
        `Tool call ${this.toolCallId}: status "cancelled" is client display state and must not be sent on this connection; use cancelled(), or end the turn with stopReason "cancelled"`,
      );
    }
    checkToolCallPaths(this.toolCallId, fields);
    const final = FINAL_STATUSES.has(fields.status);
    if (final) this.context.work?.end("tool_call", this.toolCallId);
    this.writer.send({ ...fields, sessionUpdate: "tool_call_update", toolCallId: this.toolCallId } as SessionUpdate);
    if (final) this.context.onEnd?.();
  }
  cancelled(fields?: Omit<ToolCallFields, "status">): void {
    // The capability goes with the call's end (the draft: stop advertising cancel once final).
    const end = this.context.work === undefined ? {} : { capabilities: null };
    this.update({ ...fields, ...end, status: this.context.laterDialect ? "cancelled" : "failed" } as ToolCallFields);
  }
  appendContent(item: ToolCallContent | string): void {
    if (typeof item !== "string") checkToolCallPaths(this.toolCallId, { content: item });
    const content = typeof item === "string" ? { type: "content", content: { type: "text", text: item } } : item;
    this.writer.send({ sessionUpdate: "tool_call_content_chunk", toolCallId: this.toolCallId, content } as SessionUpdate);
  }
  complete(fields?: Omit<ToolCallFields, "status">): void {
    this.update({ ...fields, status: "completed" });
  }
  fail(fields?: Omit<ToolCallFields, "status">): void {
    this.update({ ...fields, status: "failed" });
  }
  requestPermission(options: readonly PermissionOption[], fields?: ToolCallFields): Promise<PermissionOutcome> {
    return this.ask({ toolCall: { ...fields, toolCallId: this.toolCallId }, options });
  }
}
