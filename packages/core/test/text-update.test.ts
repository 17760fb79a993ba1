import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { notificationMessage } from "../src/jsonrpc.js";
import { TextChunkDecoder, TextUpdateParams, sessionUpdateParams } from "../src/text-update.js";
import { encodeMessage } from "../src/transport-kit.js";

/** What JSON.stringify writes for the same notification built from plain objects. */
function plainText(sessionId: string, update: object): string {
  return JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update } });
}

function encoded(sessionId: string, update: object): string {
  return encodeMessage(notificationMessage("session/update", sessionUpdateParams(sessionId, update)));
}

/** A pinned-v2 whole message of one text block. */
const wholeMessage = (text: string, messageId: string, sessionUpdate = "agent_message") => ({ sessionUpdate, messageId, content: [{ type: "text", text }] });

const chunk = (text: string, messageId?: string, sessionUpdate = "agent_message_chunk") =>
  messageId === undefined ? { sessionUpdate, content: { type: "text", text } } : { sessionUpdate, messageId, content: { type: "text", text } };

describe("sessionUpdateParams", () => {
  it("marks a plain text chunk of each message kind, with and without a message id", () => {
    for (const tag of ["agent_message_chunk", "agent_thought_chunk", "user_message_chunk"]) {
      const withId = sessionUpdateParams("s-1", chunk("hello", "m-1", tag));
      expect(withId).toBeInstanceOf(TextUpdateParams);
      expect(withId).toEqual({ sessionId: "s-1", update: { sessionUpdate: tag, messageId: "m-1", content: { type: "text", text: "hello" } } });
      const withoutId = sessionUpdateParams("s-1", chunk("hello", undefined, tag));
      expect(withoutId).toBeInstanceOf(TextUpdateParams);
      expect(withoutId.update).toEqual({ sessionUpdate: tag, content: { type: "text", text: "hello" } });
      expect(Object.keys(withoutId.update)).toEqual(["sessionUpdate", "content"]);
    }
  });

  it("marks a whole message of one text block of each kind (its id is required)", () => {
    for (const tag of ["agent_message", "agent_thought", "user_message"]) {
      const params = sessionUpdateParams("s-1", wholeMessage("hello", "m-1", tag));
      expect(params).toBeInstanceOf(TextUpdateParams);
      expect(params).toEqual({ sessionId: "s-1", update: { sessionUpdate: tag, messageId: "m-1", content: [{ type: "text", text: "hello" }] } });
      expect(Object.keys(params)).toEqual(["sessionId", "update"]);
    }
  });

  it("leaves every other update as it is, so nothing the caller put in is dropped", () => {
    const others: object[] = [
      { ...chunk("hi", "m-1"), _meta: { trace: 1 } },
      { sessionUpdate: "agent_message_chunk", messageId: "m-1", content: { type: "text", text: "hi", annotations: { priority: 1 } } },
      { sessionUpdate: "agent_message_chunk", messageId: null, content: { type: "text", text: "hi" } },
      { sessionUpdate: "agent_message_chunk", messageId: "m-1", content: { type: "image", data: "AA==", mimeType: "image/png" } },
      { sessionUpdate: "agent_message_chunk", messageId: "m-1", content: { type: "text", text: 5 } },
      { sessionUpdate: "agent_message_chunk", messageId: "m-1", content: null },
      { sessionUpdate: "agent_message", content: [{ type: "text", text: "hi" }] },
      {
        sessionUpdate: "agent_message",
        messageId: "m-1",
        content: [
          { type: "text", text: "hi" },
          { type: "text", text: "there" },
        ],
      },
      { sessionUpdate: "agent_message", messageId: "m-1", content: [] },
      { sessionUpdate: "agent_message", messageId: "m-1", content: { type: "text", text: "hi" } },
      { sessionUpdate: "agent_message_chunk", messageId: "m-1", content: [{ type: "text", text: "hi" }] },
      { sessionUpdate: "agent_message", messageId: "m-1", content: [{ type: "text", text: "hi", _meta: {} }] },
      { sessionUpdate: "tool_call_update", toolCallId: "t-1", status: "completed" },
      { sessionUpdate: 7, content: { type: "text", text: "hi" } },
    ];
    for (const update of others) {
      const params = sessionUpdateParams("s-1", update);
      expect(params).not.toBeInstanceOf(TextUpdateParams);
      expect(params.update).toBe(update);
      expect(encoded("s-1", update)).toBe(plainText("s-1", update));
    }
  });

  it("keeps the caller's update as params.update and encodes the strings it held when the params were made", () => {
    const update = chunk("before", "m-1") as { content: { text: string } };
    const params = sessionUpdateParams("s-1", update);
    expect(params.update).toBe(update);
    update.content.text = "after";
    expect(JSON.parse(encodeMessage(notificationMessage("session/update", params))).params.update.content.text).toBe("before");
  });
});

describe("encodeMessage of a text chunk notification", () => {
  it("writes what JSON.stringify writes for the same plain objects", () => {
    expect(encoded("s-1", chunk("hello", "m-1"))).toBe(plainText("s-1", chunk("hello", "m-1")));
    expect(encoded("s-1", chunk("hello"))).toBe(plainText("s-1", chunk("hello")));
  });

  it("escapes what JSON must escape: quotes, backslashes, control characters and lone surrogates", () => {
    const texts = [
      'say "hi"',
      "back\\slash",
      "line\nbreak\ttab\r",
      "\u0000\u001f",
      "lone \ud800 high",
      "lone \udc00 low",
      "pair \ud83d\ude00",
      "\u2028\u2029",
      "é ü ß ✓",
    ];
    for (const text of texts) {
      const line = encoded("s-1", chunk(text, "m-1"));
      expect(line).toBe(plainText("s-1", chunk(text, "m-1")));
      expect(JSON.parse(line).params.update.content.text).toBe(text);
    }
  });

  it("follows changes of session, kind and message id between chunks (the prefix it keeps is per the last one)", () => {
    const sequence: [string, object][] = [
      ["s-1", chunk("a", "m-1")],
      ["s-1", chunk("b", "m-2")],
      ["s-2", chunk("c", "m-2")],
      ["s-2", chunk("d", "m-2", "agent_thought_chunk")],
      ["s-2", chunk("e")],
      ["s-1", chunk("f", "m-1")],
      ['s"quoted', chunk("g", "id with \\ and \n")],
    ];
    for (const [sessionId, update] of sequence) expect(encoded(sessionId, update)).toBe(plainText(sessionId, update));
  });

  it("takes the generic path for an envelope that is not exactly a session/update notification", () => {
    const params = sessionUpdateParams("s-1", chunk("hi", "m-1"));
    const odd = [
      { jsonrpc: "2.0", method: "session/update", params, extra: true },
      { jsonrpc: "2.0", id: 7, method: "session/update", params },
      { jsonrpc: "2.0", method: "_custom/update", params },
      { jsonrpc: "1.0", method: "session/update", params },
    ];
    for (const message of odd) expect(encodeMessage(message)).toBe(JSON.stringify(message));
  });

  it("agrees with JSON.stringify on arbitrary strings of UTF-16 units, lone surrogates included (property)", () => {
    // Any single UTF-16 unit, often one JSON treats specially (quote, backslash, control, surrogate).
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom('"', "\\", "\n", "\u0000", "\u001f", "\ud800", "\udbff", "\udc00", "\udfff", "\u2028", "a"),
    );
    const anyString = fc.string({ unit });
    fc.assert(
      fc.property(
        anyString,
        anyString,
        fc.option(anyString, { nil: undefined }),
        fc.constantFrom("agent_message_chunk", "agent_thought_chunk", "user_message_chunk"),
        (sessionId, text, messageId, tag) => {
          const update = chunk(text, messageId, tag);
          expect(encoded(sessionId, update)).toBe(plainText(sessionId, update));
          const whole = wholeMessage(text, messageId ?? sessionId, tag.replace("_chunk", ""));
          expect(encoded(sessionId, whole)).toBe(plainText(sessionId, whole));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("TextChunkDecoder", () => {
  const line = (sessionId: string, update: object) => encoded(sessionId, update);

  it("gives what JSON.parse gives, and after one canonical chunk line parses only the text of the next", () => {
    const decoder = new TextChunkDecoder();
    const first = line("s-1", chunk("first", "m-1"));
    expect(decoder.decode(first)).toEqual(JSON.parse(first));
    const second = line("s-1", chunk('second "quoted" \\ \n', "m-1"));
    const parse = vi.spyOn(JSON, "parse");
    let decoded: unknown;
    let parsed: unknown[];
    try {
      decoded = decoder.decode(second);
      parsed = parse.mock.calls.map(([text]) => text);
    } finally {
      parse.mockRestore();
    }
    expect(parsed).toEqual([JSON.stringify('second "quoted" \\ \n')]);
    expect(decoded).toEqual(JSON.parse(second));
    expect(Object.keys((decoded as { params: { update: object } }).params.update)).toEqual(["sessionUpdate", "messageId", "content"]);
  });

  it("follows a change of session, kind or message id (parsing that line in full) and keeps matching", () => {
    const decoder = new TextChunkDecoder();
    const sequence: [string, object][] = [
      ["s-1", chunk("a", "m-1")],
      ["s-1", chunk("b", "m-1")],
      ["s-1", chunk("c", "m-2")],
      ["s-1", chunk("d", "m-2", "agent_thought_chunk")],
      ["s-2", chunk("e")],
      ["s-2", chunk("f")],
      ["s-1", chunk("g", "m-1")],
    ];
    for (const [sessionId, update] of sequence) {
      const text = line(sessionId, update);
      expect(decoder.decode(text)).toEqual(JSON.parse(text));
    }
  });

  it("answers hostile lines that share the prefix exactly as JSON.parse does (value or SyntaxError)", () => {
    const decoder = new TextChunkDecoder();
    const canonical = line("s-1", chunk("x", "m-1"));
    decoder.decode(canonical);
    const prefix = canonical.slice(0, canonical.length - '"x"}}}}'.length);
    const tails = [
      '"a"}}}}',
      '"a" }}}}',
      '"a"},"extra":1}}}',
      '"a"}},"more":{"b":"c"}}}',
      '"a","b":"c"}}}}',
      '"a"}}}}}',
      '"a"}}}',
      '"a"xyz}',
      '"a"}}x}',
      '"a"   }',
      '"unterminated}}}}',
      '"\\u00zz"}}}}',
      '"tab\tinside"}}}}',
      "5}}}}",
      '"a" "b"}}}}',
      '"}}}}',
      "}}}}",
    ];
    for (const tail of tails) {
      const text = prefix + tail;
      let expected: unknown;
      try {
        expected = JSON.parse(text);
      } catch {
        expect(() => decoder.decode(text), tail).toThrow(SyntaxError);
        continue;
      }
      expect(decoder.decode(text), tail).toEqual(expected);
    }
  });

  it("agrees with JSON.parse on arbitrary text after a learned prefix (property)", () => {
    const decoder = new TextChunkDecoder();
    const canonical = line("s-1", chunk("x", "m-1"));
    decoder.decode(canonical);
    const prefix = canonical.slice(0, canonical.length - '"x"}}}}'.length);
    const piece = fc.constantFrom('"', "\\", "}", "{", ",", ":", " ", "\n", "\t", "a", "1", '"k"', "\ud800", "\\u0041", "\\n", "null");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        // Half of the cases end the way a chunk line ends, so the literal check is reached often.
        const text = prefix + pieces.join("") + (pieces.length % 2 === 0 ? "}}}}" : "");
        let expected: unknown;
        let threw = false;
        try {
          expected = JSON.parse(text);
        } catch {
          threw = true;
        }
        if (threw) expect(() => decoder.decode(text)).toThrow(SyntaxError);
        else expect(decoder.decode(text)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it("stops looking for the shortcut with a peer that writes another key order, and still parses everything", () => {
    const decoder = new TextChunkDecoder();
    const foreign = (text: string) =>
      JSON.stringify({
        method: "session/update",
        jsonrpc: "2.0",
        params: { update: { content: { text, type: "text" }, sessionUpdate: "agent_message_chunk" }, sessionId: "s-1" },
      });
    for (const text of ["a", "b", "c"]) expect(decoder.decode(foreign(text))).toEqual(JSON.parse(foreign(text)));
    // Even a canonical line later is simply parsed in full (and parsed right).
    const canonical = line("s-1", chunk("d"));
    expect(decoder.decode(canonical)).toEqual(JSON.parse(canonical));
  });

  it("throws JSON.parse's SyntaxError for a line that is not JSON", () => {
    expect(() => new TextChunkDecoder().decode("{not json")).toThrow(SyntaxError);
  });
});
