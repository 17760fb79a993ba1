// What the v1 client has already received of each message (docs/protocol.md §7.2 B3): the
// bookkeeping behind the B3.2 extension rule, kept compact because a long streamed message keeps
// every chunk it sent for the rest of the session.
import type { v2 } from "@acpkit/schema";
import { plainTextOf } from "../index.js";
import { jsonEqual } from "./content.js";

/** One block the v1 client has received: a plain text block (only `type` and `text`) as its text. */
export type SentBlock = v2.ContentBlock | string;

/** How many consecutive plain text blocks are joined into one TextRun. */
const TEXT_RUN_LENGTH = 256;

/** TEXT_RUN_LENGTH consecutive plain text blocks as one string, and where each one ends in it. */
class TextRun {
  constructor(
    readonly text: string,
    readonly ends: Uint32Array,
  ) {}
}

/**
 * What the v1 client has received for one message id, in order (B3.0). A streamed message is
 * mostly plain text chunks, each kept for the rest of the session (a later upsert is compared
 * with them), so they are stored cheaply: as their text, and every TEXT_RUN_LENGTH of them joined
 * into one TextRun. The agent then holds a few large strings instead of an object per chunk, which
 * is what the garbage collector would otherwise copy and trace over and over.
 */
export class SentMessage {
  private entries: (SentBlock | TextRun)[] = emptyObjectArray();
  /** How many plain texts at the end of `entries` are not joined into a run yet. */
  private trailingTexts = 0;

  /** Record one chunk's block; `text` is its text when it is a plain text block. */
  append(block: v2.ContentBlock, text: string | undefined): void {
    if (text === undefined) {
      this.entries.push(block);
      this.trailingTexts = 0;
      return;
    }
    this.entries.push(text);
    if (++this.trailingTexts === TEXT_RUN_LENGTH) this.joinTrailingTexts();
  }

  /** Every block received, in order (plain text blocks as their text). */
  blocks(): SentBlock[] {
    const out: SentBlock[] = [];
    for (const entry of this.entries) {
      if (!(entry instanceof TextRun)) {
        out.push(entry);
        continue;
      }
      let from = 0;
      for (const end of entry.ends) {
        out.push(entry.text.slice(from, end));
        from = end;
      }
    }
    return out;
  }

  /** The client's content was replaced by (or extended to) `blocks`. */
  replace(blocks: readonly v2.ContentBlock[]): void {
    this.entries = blocks.slice();
    this.trailingTexts = 0;
  }

  private joinTrailingTexts(): void {
    const start = this.entries.length - TEXT_RUN_LENGTH;
    const texts = this.entries.slice(start) as string[];
    const ends = new Uint32Array(TEXT_RUN_LENGTH);
    let length = 0;
    for (let i = 0; i < TEXT_RUN_LENGTH; i++) ends[i] = length += texts[i]!.length;
    this.entries.length = start;
    this.entries.push(new TextRun(texts.join(""), ends));
    this.trailingTexts = 0;
  }
}

/**
 * An empty array that already holds objects as far as V8 is concerned. A new message starts with
 * an empty `entries`; had it started as `[]` (an array of small integers to V8), the first push of
 * a string would break the optimized streaming code that inlined `append` once per message, i.e.
 * at the start of every turn, and the agent would run unoptimized until it was compiled again.
 */
function emptyObjectArray<T>(): T[] {
  const array: unknown[] = [undefined];
  array.pop();
  return array as T[];
}

/** Where N starts adding to S when N extends S (B3.2), or `undefined` when it replaces S. */
export function extensionStart(
  sent: readonly SentBlock[],
  next: readonly v2.ContentBlock[],
): { textRemainder?: v2.ContentBlockText; nextIndex: number } | undefined {
  if (sent.length === 0) return { nextIndex: 0 };
  if (next.length < sent.length) return undefined;
  const last = sent.length - 1;
  for (let i = 0; i < last; i++) if (!sameBlock(sent[i]!, next[i])) return undefined;
  const before = blockOf(sent[last]!);
  const after = next[last]!;
  if (jsonEqual(before, after)) return { nextIndex: sent.length };
  if (before.type !== "text" || after.type !== "text") return undefined;
  const oldText = before as v2.ContentBlockText;
  const newText = after as v2.ContentBlockText;
  if (!jsonEqual(oldText.annotations, newText.annotations) || !jsonEqual(oldText._meta, newText._meta)) return undefined;
  if (!newText.text.startsWith(oldText.text)) return undefined;
  // The remainder keeps the block's annotations and _meta so it reads as the same block continuing.
  const textRemainder: v2.ContentBlockText = { ...newText, text: newText.text.slice(oldText.text.length) };
  return { textRemainder, nextIndex: sent.length };
}

function blockOf(sent: SentBlock): v2.ContentBlock {
  return typeof sent === "string" ? ({ type: "text", text: sent } as v2.ContentBlockText) : sent;
}

/** jsonEqual of a sent block (possibly kept as its text) and a model block. */
function sameBlock(sent: SentBlock, block: v2.ContentBlock | undefined): boolean {
  if (typeof sent === "string") return block !== undefined && plainTextOf(block) === sent;
  return jsonEqual(sent, block);
}
