// What a turn's writer does with updates it cannot hand to the transport at once. An agent that
// streams without ever awaiting `turn.flush()` (the obvious loop of `append` or `message` calls)
// would otherwise pile every update up as a serialized line in the transport's queue. Past a burst
// of HOLD_AFTER updates in one tick, or while the transport still has not accepted earlier ones,
// updates are held here instead: an append to the same message or tool call as the update held
// just before it joins that update (the client sees the same text, in fewer chunks), and held
// updates go to the transport in batches, each batch waiting until the previous one was accepted.
import { plainTextOf } from "@acpkit/core";
import { messageIdFor, messageNumberOf } from "./message-ids.js";
import type { SessionUpdate } from "./types.js";

/** Updates one tick may hand to the transport before later ones are held (idiomatic code flushes far sooner). */
export const HOLD_AFTER = 1024;
/** Held updates sent per batch; the next batch waits until the transport accepted this one. */
export const DRAIN_BATCH = 512;
/**
 * Longest text (UTF-16 units) one joined append grows to; the next append starts a new update, so
 * joining never makes a line a client might refuse as too long.
 */
export const MAX_JOINED_TEXT = 64 * 1024;
/** Distinct held updates beyond which the writer says once that the agent should await `turn.flush()`. */
export const HELD_HIGH_WATER = 10_000;

type Chunk = { sessionUpdate: string; messageId?: string; toolCallId?: string; content: unknown; _meta?: unknown };

const TEXT_CHUNKS = new Set(["agent_message_chunk", "agent_thought_chunk", "user_message_chunk"]);

/** The text an append carries, when it can join another append to the same target. */
function appendedText(update: Chunk): string | undefined {
  if (update._meta !== undefined) return undefined;
  if (TEXT_CHUNKS.has(update.sessionUpdate)) return plainTextOf(update.content);
  if (update.sessionUpdate === "tool_call_content_chunk") {
    const item = update.content as { type?: unknown; content?: unknown } | null;
    if (typeof item === "object" && item !== null && Object.keys(item).length === 2 && item.type === "content") return plainTextOf(item.content);
  }
  return undefined;
}

function sameTarget(a: Chunk, b: Chunk): boolean {
  return a.sessionUpdate === b.sessionUpdate && a.messageId === b.messageId && a.toolCallId === b.toolCallId;
}

/** A copy of `update` carrying `text`, and the text block inside it (the caller's update is never changed). */
function ownCopy(update: Chunk, text: string): { update: SessionUpdate; block: { type: "text"; text: string } } {
  const block = { type: "text" as const, text };
  const content = update.sessionUpdate === "tool_call_content_chunk" ? { type: "content", content: block } : block;
  return { update: { ...update, content } as unknown as SessionUpdate, block };
}

/** The length of an update's text, when it is a text chunk (what makes joined updates big). */
function textLength(update: SessionUpdate): number {
  const content = (update as unknown as Chunk).content as { text?: unknown; content?: { text?: unknown } } | undefined;
  const text = content?.text ?? content?.content?.text;
  return typeof text === "string" ? text.length : 0;
}

const WHOLE_MESSAGES = new Set(["agent_message", "agent_thought", "user_message"]);

/** The update of a text update held in compact form: a whole message's content is a one-block array. */
function textUpdate(sessionUpdate: string, messageId: string, text: string, whole: boolean): SessionUpdate {
  const block = { type: "text", text };
  return { sessionUpdate, messageId, content: whole ? [block] : block } as unknown as SessionUpdate;
}

/**
 * A held text update in the least memory: one object instead of the update, its content and its
 * block. The agent that piles up distinct messages holds hundreds of thousands of these.
 */
class HeldText {
  constructor(
    readonly sessionUpdate: string,
    readonly messageId: string,
    readonly text: string,
    /** A whole message (`agent_message`: content is a one-block array) rather than a chunk. */
    readonly whole: boolean,
  ) {}

  toUpdate(): SessionUpdate {
    return textUpdate(this.sessionUpdate, this.messageId, this.text, this.whole);
  }
}

/** Texts a run gathers before joining them into one block (see HeldTextRun). */
const BLOCK_TEXTS = 256;
/** UTF-16 units a block grows to at most; a longer text is a block of its own, never copied. */
const BLOCK_UNITS = 16 * 1024;

/** Texts joined into one string, and where each ends in it. */
class TextBlock {
  constructor(
    readonly text: string,
    /** `ends[i]` is where text i ends in `text` (it starts where text i - 1 ends). */
    readonly ends: Uint32Array,
  ) {}

  /** Text `index`: a slice of the block (V8 makes a slice of 13 or more units without copying). */
  textAt(index: number): string {
    return this.ends.length === 1 ? this.text : this.text.slice(index === 0 ? 0 : this.ends[index - 1], this.ends[index]);
  }

  lengthAt(index: number): number {
    return this.ends[index]! - (index === 0 ? 0 : this.ends[index - 1]!);
  }
}

/**
 * Consecutive whole plain text messages of one kind whose ids are consecutive (`msg_7`, `msg_8`, …):
 * what `turn.message(text)` in a loop produces. Held as the first number and the texts, so each
 * message costs the held agent no object and no id string.
 *
 * The texts are joined a few hundred at a time into one string per block. A loop that holds
 * hundreds of thousands of small strings otherwise keeps every one of them alive through the
 * young generation's collections, each copied from one semispace to the other and then into the
 * old generation (the largest cost of such an agent, and most of its memory: a 40-character
 * text a program built with `slice` is two heap strings, ~90 bytes). Joined, they die young and a
 * block holds each text in its own characters only. Taking a text back is a slice of its block.
 */
class HeldTextRun {
  /** Joined texts, oldest first; `blocks[head]` is the one being taken from. */
  readonly #blocks: (TextBlock | undefined)[] = [];
  #head = 0;
  /** The next text to take in `blocks[head]`. */
  #index = 0;
  /** Texts not joined yet, after every block's. */
  #pending: string[] = [];
  #pendingUnits = 0;
  #remaining = 0;

  constructor(
    readonly sessionUpdate: string,
    /** The number of the message taken next. */
    public first: number,
  ) {}

  /** Whether message number `number` comes right after this run's last message. */
  continuesWith(sessionUpdate: string, number: number): boolean {
    return sessionUpdate === this.sessionUpdate && number === this.first + this.#remaining;
  }

  get remaining(): number {
    return this.#remaining;
  }

  push(text: string): void {
    this.#remaining++;
    if (text.length > BLOCK_UNITS) {
      // Long texts are not worth copying: the pending ones become a block, and this one another.
      this.#join();
      this.#blocks.push(new TextBlock(text, Uint32Array.of(text.length)));
      return;
    }
    this.#pending.push(text);
    this.#pendingUnits += text.length;
    if (this.#pending.length >= BLOCK_TEXTS || this.#pendingUnits >= BLOCK_UNITS) this.#join();
  }

  /** The length of the text `takeOne` returns next. */
  get nextLength(): number {
    const block = this.#blocks[this.#head];
    return block === undefined ? this.#pending[0]!.length : block.lengthAt(this.#index);
  }

  /** The next message of the run as its update. */
  takeOne(): SessionUpdate {
    const update = textUpdate(this.sessionUpdate, messageIdFor(this.first), this.#nextText(), true);
    this.first++;
    this.#remaining--;
    return update;
  }

  #nextText(): string {
    const block = this.#blocks[this.#head];
    if (block === undefined) {
      // Every block was taken: the text is the first pending one (join keeps pending short).
      this.#pendingUnits -= this.#pending[0]!.length;
      return this.#pending.shift()!;
    }
    const text = block.textAt(this.#index);
    if (++this.#index === block.ends.length) {
      // The block is done: drop it, and now and then the slots of the dropped ones.
      this.#blocks[this.#head++] = undefined;
      this.#index = 0;
      if (this.#head >= 1024 && this.#head * 2 >= this.#blocks.length) {
        this.#blocks.splice(0, this.#head);
        this.#head = 0;
      }
    }
    return text;
  }

  #join(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    const ends = new Uint32Array(pending.length);
    let end = 0;
    for (let i = 0; i < pending.length; i++) ends[i] = end += pending[i]!.length;
    this.#blocks.push(new TextBlock(pending.length === 1 ? pending[0]! : pending.join(""), ends));
    this.#pending = [];
    this.#pendingUnits = 0;
  }
}

/** The compact form of a plain text message update (no _meta, one plain text block), if it has one. */
function compactText(update: Chunk): HeldText | undefined {
  if (typeof update.messageId !== "string" || Object.keys(update).length !== 3) return undefined;
  if (TEXT_CHUNKS.has(update.sessionUpdate)) {
    const text = plainTextOf(update.content);
    return text === undefined ? undefined : new HeldText(update.sessionUpdate, update.messageId, text, false);
  }
  if (WHOLE_MESSAGES.has(update.sessionUpdate) && Array.isArray(update.content) && update.content.length === 1) {
    const text = plainTextOf(update.content[0]);
    return text === undefined ? undefined : new HeldText(update.sessionUpdate, update.messageId, text, true);
  }
  return undefined;
}

/** How many UTF-16 units of text one drain batch hands to the transport at most (besides DRAIN_BATCH). */
export const DRAIN_TEXT_BUDGET = 256 * 1024;

/** The held updates of one writer, in order, with appends to the same target joined. */
export class HeldUpdates {
  readonly #items: (SessionUpdate | HeldText | HeldTextRun)[] = [];
  #next = 0;
  /** Updates held (a run counts each of its messages). */
  #count = 0;
  /** The texts joined into the last held update so far (joined into one string when it closes). */
  #pieces: string[] | undefined;
  #piecesLength = 0;
  /** The text block of the last held update once it is our own copy. */
  #ownBlock: { type: "text"; text: string } | undefined;
  /** Appends joined into an earlier held update so far. */
  joined = 0;

  get size(): number {
    return this.#count;
  }

  push(update: SessionUpdate): void {
    const text = appendedText(update as unknown as Chunk);
    const last = this.size > 0 ? this.#items[this.#items.length - 1]! : undefined;
    if (
      text !== undefined &&
      last !== undefined &&
      !(last instanceof HeldTextRun) &&
      this.#pieces !== undefined &&
      this.#piecesLength + text.length <= MAX_JOINED_TEXT &&
      sameTarget(last as unknown as Chunk, update as unknown as Chunk)
    ) {
      if (this.#ownBlock === undefined) {
        const copy = ownCopy(last as unknown as Chunk, "");
        this.#items[this.#items.length - 1] = copy.update;
        this.#ownBlock = copy.block;
      }
      this.#pieces.push(text);
      this.#piecesLength += text.length;
      this.joined++;
      return;
    }
    this.#close();
    this.#count++;
    if (text !== undefined) {
      // Chunks stay whole updates while later appends may join them (ownCopy needs the original).
      this.#items.push(update);
      this.#pieces = [text];
      this.#piecesLength = text.length;
      return;
    }
    this.#items.push(compactText(update as unknown as Chunk) ?? update);
  }

  /** Hold a whole plain text message without building its update first (the writer's fast path). */
  pushWholeText(sessionUpdate: string, messageId: string, text: string): void {
    const number = messageNumberOf(messageId);
    if (number !== undefined) return this.pushNumberedWholeText(sessionUpdate, number, text);
    this.#close();
    this.#count++;
    this.#items.push(new HeldText(sessionUpdate, messageId, text, true));
  }

  /** `pushWholeText` for the message whose id is `messageIdFor(number)`, without its id string. */
  pushNumberedWholeText(sessionUpdate: string, number: number, text: string): void {
    this.#close();
    this.#count++;
    const last = this.size > 1 ? this.#items[this.#items.length - 1] : undefined;
    if (last instanceof HeldTextRun && last.continuesWith(sessionUpdate, number)) {
      last.push(text);
      return;
    }
    const run = new HeldTextRun(sessionUpdate, number);
    run.push(text);
    this.#items.push(run);
  }

  /**
   * Join `text` to the last held update when it is an append of `sessionUpdate` to `messageId`
   * that can take it; false when it cannot (the caller then holds a whole update). Lets a plain
   * string append skip building an update object that would only be joined and dropped.
   */
  joinText(sessionUpdate: string, messageId: string, text: string): boolean {
    // (#pieces is set only while the last held item is a chunk update, never a run.)
    if (this.#pieces === undefined || this.size === 0 || this.#piecesLength + text.length > MAX_JOINED_TEXT) return false;
    const last = this.#items[this.#items.length - 1] as unknown as Chunk;
    if (last.sessionUpdate !== sessionUpdate || last.messageId !== messageId) return false;
    if (this.#ownBlock === undefined) {
      const copy = ownCopy(last, "");
      this.#items[this.#items.length - 1] = copy.update;
      this.#ownBlock = copy.block;
    }
    this.#pieces.push(text);
    this.#piecesLength += text.length;
    this.joined++;
    return true;
  }

  /** Take up to `count` updates from the front, stopping early once `textBudget` units of text were taken. */
  take(count: number, textBudget = Number.POSITIVE_INFINITY): SessionUpdate[] {
    this.#close();
    const batch: SessionUpdate[] = [];
    let text = 0;
    while (this.#next < this.#items.length && batch.length < count && text < textBudget) {
      const item = this.#items[this.#next]!;
      if (item instanceof HeldTextRun) {
        while (item.remaining > 0 && batch.length < count && text < textBudget) {
          text += item.nextLength;
          batch.push(item.takeOne());
        }
        if (item.remaining === 0) this.#next++;
        continue;
      }
      this.#next++;
      if (item instanceof HeldText) {
        text += item.text.length;
        batch.push(item.toUpdate());
      } else {
        text += textLength(item);
        batch.push(item);
      }
    }
    this.#count -= batch.length;
    if (this.#next === this.#items.length) {
      this.#items.length = 0;
      this.#next = 0;
    } else if (this.#next > 65_536) {
      this.#items.splice(0, this.#next);
      this.#next = 0;
    }
    return batch;
  }

  /**
   * The last update takes no more joins: its text becomes one flat string (a long chain of `+=`
   * would keep every small piece alive until it is written).
   */
  #close(): void {
    if (this.#ownBlock !== undefined) this.#ownBlock.text = this.#pieces!.join("");
    this.#ownBlock = undefined;
    this.#pieces = undefined;
    this.#piecesLength = 0;
  }
}
