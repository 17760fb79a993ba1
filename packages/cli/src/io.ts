// The streams a command talks to. Commands take them as a parameter instead of reaching for
// `process` so tests can run a command in-process and read what it printed.
import type { Readable, Writable } from "node:stream";
import { colorEnabled, createStyle, type Style } from "./style.js";

/** The streams, styling and working directory a command uses. */
export interface CommandIO {
  stdin: Readable;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  /** Styling for human output on stdout. */
  out: Style;
  /** Styling for diagnostics on stderr. */
  err: Style;
  cwd: string;
}

/** This process's stdin/stdout/stderr and cwd, with color when a stream is a terminal. */
export function processIO(): CommandIO {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    out: createStyle(colorEnabled(process.stdout)),
    err: createStyle(colorEnabled(process.stderr)),
    cwd: process.cwd(),
  };
}

/** Exit codes shared by every command. */
export const Exit = {
  Ok: 0,
  /** The agent failed or broke the protocol; a transcript is invalid. */
  Failed: 1,
  /** Bad usage; unreadable input. */
  Usage: 2,
  /** The agent requires authentication and no (or no accepted) `--auth` method was given. */
  AuthRequired: 3,
} as const;
