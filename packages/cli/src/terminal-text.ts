// Human output carries text that a peer chose: an agent's messages, tool titles and permission
// options, a transcript's lines, an error's snippet of a bad line. A terminal acts on control
// characters in it: escape sequences move the cursor, rewrite lines already printed, set the
// window title or the clipboard (OSC 52), recolor or hide text; a carriage return or a bidi
// override makes a line read differently from what it holds. So every command whose output is for
// people writes through `guardTerminalIO`: each control character except newline and tab is
// printed as a visible `\uXXXX` escape. `\uXXXX` is also JSON's own escape, so a `--json`
// document stays the same document.
//
// Our own styling still needs its escape sequences, and at the stream they look exactly like a
// peer's. So the guarded IO's styles write a per-process random token where their sequences have
// ESC, and the guarded streams turn only that token back into ESC: a peer cannot spell the token,
// so not even an SGR code of ours gets through inside its text.
import { randomBytes } from "node:crypto";
import type { Writable } from "node:stream";
import type { CommandIO } from "./io.js";
import { STYLE_NAMES, type Style } from "./style.js";

const ESC = "\u001b";

// One character a terminal would act on: U+0000-U+001F except tab and newline, DEL,
// U+0080-U+009F, and the bidi embeddings, overrides and isolates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this escapes
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Stands for ESC in trusted styling on its way to a guarded stream; random, so no peer text holds it. */
const STYLE_ESC = `\u{f8ff}${randomBytes(12).toString("base64url")}\u{f8ff}`;

/** `text` with every control character a terminal would act on written as `\uXXXX`. */
export function escapeTerminalControls(text: string): string {
  return text.replace(TERMINAL_CONTROL, (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** What a guarded stream writes for `text`: controls escaped, trusted styling's token turned back into ESC. */
function guardText(text: string): string {
  return text.includes(STYLE_ESC) ? text.split(STYLE_ESC).map(escapeTerminalControls).join(ESC) : escapeTerminalControls(text);
}

/** `stream`, with what is written to it passed through `escapeTerminalControls` first (trusted styling kept). */
export function guardTerminalStream<S extends Writable>(stream: S): S {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : chunk;
    return (stream.write as (...args: unknown[]) => boolean)(typeof text === "string" ? guardText(text) : text, ...rest);
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === "write") return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * `style` for a guarded stream: each function wraps its text in the same opening and closing
 * sequences as before, with ESC spelled as the token. A function whose output does not hold its
 * text verbatim is used as it is, so its escape sequences are escaped like any other.
 */
function styleForGuardedStream(style: Style): Style {
  const trusted = {} as Style;
  for (const name of STYLE_NAMES) {
    const probe = style[name](STYLE_ESC);
    const at = probe.indexOf(STYLE_ESC);
    if (at === -1 || probe.indexOf(STYLE_ESC, at + 1) !== -1) {
      trusted[name] = (text) => style[name](text);
      continue;
    }
    const open = probe.slice(0, at).replaceAll(ESC, STYLE_ESC);
    const close = probe.slice(at + STYLE_ESC.length).replaceAll(ESC, STYLE_ESC);
    trusted[name] = (text) => open + text + close;
  }
  return trusted;
}

/** `io` with stdout and stderr guarded and its styles made for them (see the top of this file); stdin and cwd unchanged. */
export function guardTerminalIO(io: CommandIO): CommandIO {
  return {
    ...io,
    stdout: guardTerminalStream(io.stdout),
    stderr: guardTerminalStream(io.stderr),
    out: styleForGuardedStream(io.out),
    err: styleForGuardedStream(io.err),
  };
}
