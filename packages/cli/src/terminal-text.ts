// Human output carries text that a peer chose: an agent's messages, tool titles and permission
// options, a transcript's lines, an error's snippet of a bad line. A terminal acts on control
// characters in it: escape sequences move the cursor, rewrite lines already printed, set the
// window title or the clipboard (OSC 52); a carriage return or a bidi override makes a line read
// differently from what it holds. So every command whose output is for people writes through
// `guardTerminalIO`: each control character except newline and tab is printed as a visible `\uXXXX`
// escape, and the only escape sequences let through are the SGR codes our own styling uses
// (style.ts). `\uXXXX` is also JSON's own escape, so a `--json` document stays the same document.
import type { Writable } from "node:stream";
import type { CommandIO } from "./io.js";
import { STYLE_SGR_CODES } from "./style.js";

// Our styling's escape sequences (kept), or one character a terminal would act on (escaped):
// U+0000-U+001F except tab and newline, DEL, U+0080-U+009F, and the bidi embeddings, overrides
// and isolates.
const TERMINAL_CONTROL = new RegExp(
  `\\u001b\\[(?:${STYLE_SGR_CODES.join("|")})m|[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]`,
  "g",
);

/** `text` with every control character a terminal would act on written as `\uXXXX` (styling's SGR codes kept). */
export function escapeTerminalControls(text: string): string {
  return text.replace(TERMINAL_CONTROL, (match) => (match.length > 1 ? match : `\\u${match.charCodeAt(0).toString(16).padStart(4, "0")}`));
}

/** `stream`, with what is written to it passed through `escapeTerminalControls` first. */
export function guardTerminalStream<S extends Writable>(stream: S): S {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : chunk;
    return (stream.write as (...args: unknown[]) => boolean)(typeof text === "string" ? escapeTerminalControls(text) : text, ...rest);
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === "write") return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** `io` with stdout and stderr guarded (see the top of this file); stdin and the rest unchanged. */
export function guardTerminalIO(io: CommandIO): CommandIO {
  return { ...io, stdout: guardTerminalStream(io.stdout), stderr: guardTerminalStream(io.stderr) };
}
