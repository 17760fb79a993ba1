// Colors for human output: on when the stream is a TTY (or FORCE_COLOR is set), off with NO_COLOR
// or when output is piped, so logs and files stay plain.

/** ANSI styling functions; each returns its text unchanged when color is off. */
export interface Style {
  /** `text` in bold (unchanged when color is off). */
  bold(text: string): string;
  /** `text` in dim (unchanged when color is off). */
  dim(text: string): string;
  /** `text` in red (unchanged when color is off). */
  red(text: string): string;
  /** `text` in green (unchanged when color is off). */
  green(text: string): string;
  /** `text` in yellow (unchanged when color is off). */
  yellow(text: string): string;
  /** `text` in blue (unchanged when color is off). */
  blue(text: string): string;
  /** `text` in magenta (unchanged when color is off). */
  magenta(text: string): string;
  /** `text` in cyan (unchanged when color is off). */
  cyan(text: string): string;
}

// A record over every key of `Style`, so adding a function without listing it here does not compile.
const STYLE_NAME_RECORD: { readonly [K in keyof Style]: K } = {
  bold: "bold",
  dim: "dim",
  red: "red",
  green: "green",
  yellow: "yellow",
  blue: "blue",
  magenta: "magenta",
  cyan: "cyan",
};

/** Every function of a `Style`, for code that wraps one (terminal-text.ts). */
export const STYLE_NAMES: readonly (keyof Style)[] = Object.values(STYLE_NAME_RECORD);

function wrap(open: number, close: number, enabled: boolean): (text: string) => string {
  return enabled ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => text;
}

export function colorEnabled(stream: { isTTY?: boolean }): boolean {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

export function createStyle(enabled: boolean): Style {
  return {
    bold: wrap(1, 22, enabled),
    dim: wrap(2, 22, enabled),
    red: wrap(31, 39, enabled),
    green: wrap(32, 39, enabled),
    yellow: wrap(33, 39, enabled),
    blue: wrap(34, 39, enabled),
    magenta: wrap(35, 39, enabled),
    cyan: wrap(36, 39, enabled),
  };
}
