// The update an agent streams most is a plain text chunk of a message or thought, one
// `session/update` per chunk. Serializing it with JSON.stringify walks four nested objects and, on
// Node 20, costs several times the JSON of its strings (1.4–2 µs against ~0.2 µs per chunk on the
// benchmark machine; it was the largest single cost of an agent that streams). So the runtime
// marks such params when it builds them (`sessionUpdateParams`), and `encodeMessage` writes a
// notification that carries them from its strings: a constant envelope, a prefix kept for the last
// session, tag and message id, and the text.
//
// The encoding is the JSON value JSON.stringify would give, with the keys in the order the type
// declares (sessionId, update; sessionUpdate, messageId, content; type, text). The params are
// built here and never changed afterwards, which is what lets the encoder trust their shape.
//
// The receiving side has the mirror cost: JSON.parse of such a line builds four objects and four
// strings, 1.5–2 µs, most of a client's time per streamed chunk. `TextChunkDecoder` recognizes a
// line that is exactly what the encoder writes for the last (session, tag, message id) it parsed,
// and then parses only the text's string literal.
import { isJsonObject } from "./json.js";

/** The `session/update` tags whose content is one content block of a message. */
type TextChunkTag = "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk";

/** A text chunk update as it goes on the wire (v1, where `messageId` is optional, or pinned v2). */
export interface TextChunkUpdate {
  readonly sessionUpdate: TextChunkTag;
  readonly messageId?: string;
  readonly content: { readonly type: "text"; readonly text: string };
}

/**
 * `session/update` params carrying one plain text chunk (no annotations, no `_meta`). Made only by
 * `sessionUpdateParams`; an object like any other to everything that reads it (validators, the
 * in-memory transport), and encoded from its strings by `encodeMessage`. Never change one.
 */
export class TextChunkParams {
  readonly sessionId: string;
  readonly update: TextChunkUpdate;

  /** @internal Use `sessionUpdateParams`, which decides whether an update qualifies. */
  constructor(sessionId: string, sessionUpdate: TextChunkTag, messageId: string | undefined, text: string) {
    this.sessionId = sessionId;
    this.update = messageId === undefined ? { sessionUpdate, content: { type: "text", text } } : { sessionUpdate, messageId, content: { type: "text", text } };
  }
}

/**
 * The params of a `session/update` notification for `update` in session `sessionId`:
 * `{ sessionId, update }`, as a `TextChunkParams` when the update is a plain text chunk of a
 * message or thought (which transports then encode without a generic JSON walk). The caller's
 * update object is not kept in that case, so changing it later cannot change what is sent.
 */
export function sessionUpdateParams<U extends object>(sessionId: string, update: U): { sessionId: string; update: U } {
  const text = plainTextChunk(update);
  if (text === undefined) return { sessionId, update };
  const { sessionUpdate, messageId } = update as unknown as { sessionUpdate: TextChunkTag; messageId?: string };
  return new TextChunkParams(sessionId, sessionUpdate, messageId, text) as unknown as { sessionId: string; update: U };
}

// The text of an update that is exactly { sessionUpdate: <chunk tag>, messageId?: string,
// content: { type: "text", text: string } }; anything more (annotations, _meta, a null id) keeps
// the generic path, so nothing the caller put in is ever dropped.
function plainTextChunk(update: object): string | undefined {
  const tag = (update as { sessionUpdate?: unknown }).sessionUpdate;
  if (tag !== "agent_message_chunk" && tag !== "agent_thought_chunk" && tag !== "user_message_chunk") return undefined;
  const { messageId, content } = update as { messageId?: unknown; content?: unknown };
  if (!isJsonObject(content) || (content as { type?: unknown }).type !== "text") return undefined;
  const text = (content as { text?: unknown }).text;
  if (typeof text !== "string" || Object.keys(content).length !== 2) return undefined;
  const keys = Object.keys(update).length;
  if (messageId === undefined ? keys !== 2 : typeof messageId !== "string" || keys !== 3) return undefined;
  return text;
}

// JSON.stringify escapes these in a string: '"', '\', control characters, and lone surrogates
// (ES2019). A text with none of them (almost every chunk) is its own JSON body; one with any
// surrogate at all, paired or not, is left to JSON.stringify.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what JSON must escape.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** The text chunk line up to the text's string literal, as `encodeTextChunkNotification` writes it. */
function linePrefix(sessionId: string, sessionUpdate: string, messageId: string | undefined): string {
  const id = messageId === undefined ? "" : `"messageId":${JSON.stringify(messageId)},`;
  return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sessionId)},"update":{"sessionUpdate":"${sessionUpdate}",${id}"content":{"type":"text","text":`;
}

/** What follows the text's string literal on such a line. */
const LINE_SUFFIX = "}}}}";

// The envelope and params up to the text, for the last (session, tag, message id) encoded: a
// stream repeats them for every chunk.
let lastSessionId: string | undefined;
let lastTag: string | undefined;
let lastMessageId: string | undefined;
let lastPrefix = "";

/**
 * The JSON text of `message` when it is `{ jsonrpc: "2.0", method: "session/update", params }`
 * with `TextChunkParams` (what `Connection.notify` builds for them), else `undefined`.
 */
export function encodeTextChunkNotification(message: object): string | undefined {
  const params = (message as { params?: unknown }).params;
  if (!(params instanceof TextChunkParams)) return undefined;
  const envelope = message as { jsonrpc?: unknown; method?: unknown };
  if (envelope.jsonrpc !== "2.0" || envelope.method !== "session/update" || Object.keys(message).length !== 3) return undefined;
  const { sessionId, update } = params;
  const { sessionUpdate, messageId } = update;
  if (sessionId !== lastSessionId || sessionUpdate !== lastTag || messageId !== lastMessageId) {
    lastSessionId = sessionId;
    lastTag = sessionUpdate;
    lastMessageId = messageId;
    lastPrefix = linePrefix(sessionId, sessionUpdate, messageId);
  }
  return `${lastPrefix}${jsonString(update.content.text)}${LINE_SUFFIX}`;
}

const QUOTE = 0x22;
const CLOSING_BRACE = 0x7d;

/**
 * JSON.parse for one connection's incoming lines, with a shortcut for the line a streaming peer
 * sends most. After it parses a plain text chunk notification written exactly as
 * `encodeTextChunkNotification` writes it, a later line that starts with the same prefix (same
 * session, tag and message id) and ends with the same suffix has only its text literal parsed:
 * the rest of such a line is fixed, so the result is the value JSON.parse would give, built
 * without reading the envelope again. Anything else, or a literal that is not exactly one JSON
 * string, goes to JSON.parse, which also throws the same errors for bad input.
 */
export class TextChunkDecoder {
  #prefix: string | undefined;
  #sessionId = "";
  #tag: TextChunkTag = "agent_message_chunk";
  #messageId: string | undefined;
  /** Set once a chunk line of this peer did not match the encoding: its lines are then only parsed. */
  #foreign = false;

  /** The parsed message of one line. Throws JSON.parse's SyntaxError for text that is not JSON. */
  decode(line: string): unknown {
    const prefix = this.#prefix;
    if (prefix !== undefined) {
      const start = prefix.length;
      const end = line.length - LINE_SUFFIX.length;
      // Cheapest checks first: the suffix's last brace and the literal's opening quote, then the
      // prefix itself (a slice compares in one native call; startsWith takes a slow path on a
      // sliced string).
      if (
        end > start &&
        line.charCodeAt(line.length - 1) === CLOSING_BRACE &&
        line.charCodeAt(start) === QUOTE &&
        line.slice(end) === LINE_SUFFIX &&
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
    if (typeof sessionId !== "string" || !isJsonObject(update) || plainTextChunk(update) === undefined) return;
    const { sessionUpdate, messageId } = update as { sessionUpdate: TextChunkTag; messageId?: string };
    const prefix = linePrefix(sessionId, sessionUpdate, messageId);
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
