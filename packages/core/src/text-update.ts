// What an agent streams most is plain text: a `session/update` per text chunk of a message or
// thought, or (an agent that sends each piece as a message of its own) a whole message of one text
// block. Serializing one with JSON.stringify walks four or five nested objects and costs several
// times the JSON of its strings (the largest single cost of an agent that streams, per the
// instruction counts in docs/performance.md). So the runtime
// marks such params when it builds them (`sessionUpdateParams`), and `encodeMessage` writes a
// notification that carries them from its strings: a constant envelope, parts kept for the last
// session, tag and message id, and the text.
//
// The encoding is the JSON value JSON.stringify would give, with the keys in the order the type
// declares (sessionId, update; sessionUpdate, messageId, content; type, text). The encoder writes
// the strings `sessionUpdateParams` found when it checked the update's shape, so a change to the
// caller's object afterwards cannot put an unchecked shape on the wire.
//
// The receiving side has the mirror cost: JSON.parse of a chunk line builds four objects and four
// strings, most of a client's time per streamed chunk. `TextChunkDecoder` recognizes a
// line that is exactly what the encoder writes for the last (session, tag, message id) it parsed,
// and then parses only the text's string literal. (Whole messages each have an id of their own,
// so no prefix repeats and there is nothing to recognize.)
import { isJsonObject, plainTextOf } from "./json.js";

/** The `session/update` tags whose content is one content block of a message. */
const CHUNK_TAGS: ReadonlySet<string> = new Set(["agent_message_chunk", "agent_thought_chunk", "user_message_chunk"]);
/** The pinned-v2 `session/update` tags whose content is a whole message's blocks. */
const MESSAGE_TAGS: ReadonlySet<string> = new Set(["agent_message", "agent_thought", "user_message"]);

/**
 * A plain text update as it goes on the wire: a text chunk (v1, where `messageId` is optional, or
 * pinned v2), or a pinned-v2 whole message whose content is one text block.
 */
export type TextUpdate =
  | {
      readonly sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk";
      readonly messageId?: string;
      readonly content: { readonly type: "text"; readonly text: string };
    }
  | {
      readonly sessionUpdate: "agent_message" | "agent_thought" | "user_message";
      readonly messageId: string;
      readonly content: readonly [{ readonly type: "text"; readonly text: string }];
    };

/**
 * `session/update` params carrying plain text: one text chunk, or a whole message of one text
 * block (no annotations, no `_meta`). Made only by `sessionUpdateParams`; `{ sessionId, update }`
 * to everything that reads it (validators, JSON.stringify, the in-memory transport), with the
 * caller's update object as `update`. It also keeps the strings it found in that update when it
 * was made, and `encodeMessage` writes the notification from those.
 */
export class TextUpdateParams {
  readonly sessionId: string;
  readonly update: TextUpdate;
  // Private fields are not properties: JSON.stringify and validators see only the two above.
  readonly #tag: string;
  readonly #messageId: string | undefined;
  readonly #text: string;
  readonly #whole: boolean;

  /** @internal Use `sessionUpdateParams`, which decides whether an update qualifies. */
  constructor(sessionId: string, update: object, tag: string, messageId: string | undefined, text: string, whole: boolean) {
    this.sessionId = sessionId;
    this.update = update as TextUpdate;
    this.#tag = tag;
    this.#messageId = messageId;
    this.#text = text;
    this.#whole = whole;
  }

  /** @internal The notification's JSON text (see `encodeTextUpdateNotification`). */
  encodeNotification(): string {
    const sessionId = this.sessionId;
    const tag = this.#tag;
    const messageId = this.#messageId;
    if (sessionId !== lastSessionId || tag !== lastTag) {
      lastSessionId = sessionId;
      lastTag = tag;
      lastSessionPart = sessionPart(sessionId, tag);
    }
    if (messageId !== lastMessageId) {
      lastMessageId = messageId;
      lastIdPart = idPart(messageId);
    }
    return this.#whole
      ? `${lastSessionPart}${lastIdPart}${MESSAGE_CONTENT}${jsonString(this.#text)}${MESSAGE_END}`
      : `${lastSessionPart}${lastIdPart}${CHUNK_CONTENT}${jsonString(this.#text)}${CHUNK_END}`;
  }
}

/**
 * The params of a `session/update` notification for `update` in session `sessionId`:
 * `{ sessionId, update }`, as a `TextUpdateParams` when the update is plain text (a text chunk of a
 * message or thought, or a whole message of one text block), which transports then encode without
 * a generic JSON walk, from the strings the update held at this call.
 */
export function sessionUpdateParams<U extends object>(sessionId: string, update: U): { sessionId: string; update: U } {
  const tag = (update as { sessionUpdate?: unknown }).sessionUpdate;
  if (typeof tag !== "string") return { sessionId, update };
  const chunk = CHUNK_TAGS.has(tag);
  if (!chunk && !MESSAGE_TAGS.has(tag)) return { sessionId, update };
  const text = plainText(update, chunk);
  if (text === undefined) return { sessionId, update };
  const messageId = (update as { messageId?: string }).messageId;
  return new TextUpdateParams(sessionId, update, tag, messageId, text, !chunk) as unknown as { sessionId: string; update: U };
}

// How many enumerable keys `object` has (inherited ones too, which only makes a plain-text check
// fail safe). A for-in over an object's cached keys allocates nothing, unlike Object.keys.
function keyCount(object: object): number {
  let count = 0;
  for (const _ in object) count++;
  return count;
}

// The text of an update that is exactly { sessionUpdate, messageId?: string, content } where
// content is { type: "text", text: string } (a chunk) or an array of exactly that one block (a
// whole message, whose id is required). Anything more (annotations, _meta, a null id, a second
// block) keeps the generic path, so nothing the caller put in is ever dropped.
function plainText(update: object, chunk: boolean): string | undefined {
  const { messageId, content } = update as { messageId?: unknown; content?: unknown };
  let block: unknown = content;
  if (!chunk) {
    if (!Array.isArray(content) || content.length !== 1 || typeof messageId !== "string") return undefined;
    block = content[0];
  }
  const text = plainTextOf(block);
  if (text === undefined) return undefined;
  const keys = keyCount(update);
  if (messageId === undefined ? keys !== 2 : typeof messageId !== "string" || keys !== 3) return undefined;
  return text;
}

// JSON.stringify escapes these in a string: '"', '\', control characters, and lone surrogates
// (ES2019). A string with none of them (almost every text and id) is its own JSON body; one with
// any surrogate at all, paired or not, is left to JSON.stringify.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what JSON must escape.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** The line up to the message id: envelope, session and tag. */
function sessionPart(sessionId: string, sessionUpdate: string): string {
  return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${jsonString(sessionId)},"update":{"sessionUpdate":"${sessionUpdate}",`;
}

function idPart(messageId: string | undefined): string {
  return messageId === undefined ? "" : `"messageId":${jsonString(messageId)},`;
}

// Between the message id and the text's string literal, and after it, for a chunk and for a whole message.
const CHUNK_CONTENT = '"content":{"type":"text","text":';
const CHUNK_END = "}}}}";
const MESSAGE_CONTENT = '"content":[{"type":"text","text":';
const MESSAGE_END = "}]}}}";

/** A chunk line up to the text's string literal, as `encodeMessage` writes it. */
function chunkLinePrefix(sessionId: string, sessionUpdate: string, messageId: string | undefined): string {
  return sessionPart(sessionId, sessionUpdate) + idPart(messageId) + CHUNK_CONTENT;
}

// The parts for the last session and tag, and for the last message id, encoded: a stream repeats
// them for every update (an agent that sends a message per piece repeats the session part only).
let lastSessionId: string | undefined;
let lastTag: string | undefined;
let lastSessionPart = "";
let lastMessageId: string | undefined;
let lastIdPart = "";

/**
 * The JSON text of `message` when it is `{ jsonrpc: "2.0", method: "session/update", params }`
 * with `TextUpdateParams` (what `Connection.notify` builds for them), else `undefined`.
 */
export function encodeTextUpdateNotification(message: object): string | undefined {
  const params = (message as { params?: unknown }).params;
  if (!(params instanceof TextUpdateParams)) return undefined;
  const envelope = message as { jsonrpc?: unknown; method?: unknown };
  if (envelope.jsonrpc !== "2.0" || envelope.method !== "session/update" || keyCount(message) !== 3) return undefined;
  return params.encodeNotification();
}

const QUOTE = 0x22;
const CLOSING_BRACE = 0x7d;

/**
 * JSON.parse for one connection's incoming lines, with a shortcut for the line a streaming peer
 * sends most. After it parses a plain text chunk notification written exactly as `encodeMessage`
 * writes it, a later line that starts with the same prefix (same session, tag and message id) and
 * ends with the same suffix has only its text literal parsed: the rest of such a line is fixed, so
 * the result is the value JSON.parse would give, built without reading the envelope again.
 * Anything else, or a literal that is not exactly one JSON string, goes to JSON.parse, which also
 * throws the same errors for bad input.
 */
export class TextChunkDecoder {
  #prefix: string | undefined;
  #sessionId = "";
  #tag = "";
  #messageId: string | undefined;
  /** Set once a chunk line of this peer did not match the encoding: its lines are then only parsed. */
  #foreign = false;

  /** The parsed message of one line. Throws JSON.parse's SyntaxError for text that is not JSON. */
  decode(line: string): unknown {
    const prefix = this.#prefix;
    if (prefix !== undefined) {
      const start = prefix.length;
      const end = line.length - CHUNK_END.length;
      // Cheapest checks first: the suffix's last brace and the literal's opening quote, then the
      // prefix itself (a slice compares in one native call; startsWith takes a slow path on a
      // sliced string).
      if (
        end > start &&
        line.charCodeAt(line.length - 1) === CLOSING_BRACE &&
        line.charCodeAt(start) === QUOTE &&
        line.slice(end) === CHUNK_END &&
        line.slice(0, start) === prefix
      ) {
        const text = parseStringLiteral(line.slice(start, end));
        if (text !== undefined) return this.#message(text);
      }
    }
    const message = JSON.parse(line) as unknown;
    if (!this.#foreign) this.#learn(line, message);
    return message;
  }

  #message(text: string): object {
    const update =
      this.#messageId === undefined
        ? { sessionUpdate: this.#tag, content: { type: "text", text } }
        : { sessionUpdate: this.#tag, messageId: this.#messageId, content: { type: "text", text } };
    return { jsonrpc: "2.0", method: "session/update", params: { sessionId: this.#sessionId, update } };
  }

  // Keep the prefix of a text chunk line the peer wrote in the encoder's exact form.
  #learn(line: string, message: unknown): void {
    if (!isJsonObject(message) || (message as { method?: unknown }).method !== "session/update") return;
    const params = (message as { params?: unknown }).params;
    if (!isJsonObject(params)) return;
    const { sessionId, update } = params as { sessionId?: unknown; update?: unknown };
    if (typeof sessionId !== "string" || !isJsonObject(update)) return;
    const { sessionUpdate, messageId } = update as { sessionUpdate?: unknown; messageId?: string };
    if (typeof sessionUpdate !== "string" || !CHUNK_TAGS.has(sessionUpdate) || plainText(update, true) === undefined) return;
    const prefix = chunkLinePrefix(sessionId, sessionUpdate, messageId);
    if (line.slice(0, prefix.length) !== prefix) {
      // Another writer's key order or spacing: the shortcut would never match.
      this.#foreign = true;
      this.#prefix = undefined;
      return;
    }
    this.#prefix = prefix;
    this.#sessionId = sessionId;
    this.#tag = sessionUpdate;
    this.#messageId = messageId;
  }
}

// The string a JSON string literal stands for, if `literal` is exactly one (surrounding JSON
// whitespace allowed, as in the whole line); JSON.parse also makes the copy that keeps the text
// from holding on to the line it was cut from.
function parseStringLiteral(literal: string): string | undefined {
  try {
    const value = JSON.parse(literal) as unknown;
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
