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
  /** `check agent`: no MUST failed, but one was never judged (the same number as AuthRequired: a login is the usual cause). */
  Inconclusive: 3,
} as const;

/** Pieces are gathered up to this many characters before each write. */
const BATCH_CHARS = 1024 * 1024;

/**
 * Gathers small pieces of output into writes of about 1 Mi characters, and waits for the stream
 * to drain when it asks to. A command that printed one line per finding wrote 3 million times for
 * a transcript with as many problems, and the queued writes made Node's writev fail with ENOBUFS,
 * which ended the process. `add` and `flush` return a promise only when the caller must wait.
 */
export class BatchedOutput {
  private pieces: string[] = [];
  private size = 0;

  constructor(private readonly stream: Writable) {}

  add(piece: string): Promise<void> | undefined {
    this.pieces.push(piece);
    this.size += piece.length;
    return this.size >= BATCH_CHARS ? this.flush() : undefined;
  }

  /** Write what was gathered; await it once at the end. */
  flush(): Promise<void> | undefined {
    if (this.pieces.length === 0) return undefined;
    // A piece as long as a batch (a whole JSON text) is written as it is, not copied by a join.
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("");
    this.pieces = [];
    this.size = 0;
    return this.stream.write(text) ? undefined : drained(this.stream);
  }
}

/** Resolves at the stream's next drain, or when it closes or fails (a reader that went away). */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
    stream.on("error", done);
  });
}
