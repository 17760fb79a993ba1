// What the page can offer an agent as a client, honestly. A browser tab has no file system and
// runs no commands, so: files live in the page's memory (what the agent writes can be read back
// and is listed in the Files panel), and the terminal is simulated — it runs nothing and reports
// exit code 127 with a line saying so, which lets an agent's terminal flow be seen end to end.
import type { FileSystemHandlers, TerminalHost, TerminalOutput } from "@acpkit/client";

/** How much the page keeps of what agents write: the agent chooses how much to write. */
export interface PageFileLimits {
  /** Files kept at most (default 1,000). */
  maxFiles?: number;
  /** Characters of file content kept in all (default 64 Mi). */
  maxChars?: number;
}

/** Unreleased simulated terminals at most: an agent that never releases them cannot grow the page without end. */
export const MAX_PAGE_TERMINALS = 1000;

/** The page's files, by absolute path. Bounded (PageFileLimits): a write past a bound is refused, and the agent told why. */
export class PageFiles {
  readonly files = new Map<string, string>();
  private chars = 0;
  private readonly maxFiles: number;
  private readonly maxChars: number;

  constructor(
    private readonly onChange: () => void,
    limits: PageFileLimits = {},
  ) {
    this.maxFiles = limits.maxFiles ?? 1000;
    this.maxChars = limits.maxChars ?? 64 * 1024 * 1024;
  }

  handlers(read: boolean, write: boolean): FileSystemHandlers {
    const handlers: FileSystemHandlers = {};
    if (read)
      handlers.readTextFile = ({ path, line, limit }) => {
        const text = this.files.get(path);
        if (text === undefined) throw new Error(`${path} is not among the inspector page's files (the page has no disk; files the agent writes appear here)`);
        if (line == null && limit == null) return text;
        const lines = text.split("\n");
        const start = Math.max(0, (line ?? 1) - 1);
        return lines.slice(start, limit == null ? undefined : start + limit).join("\n");
      };
    if (write)
      handlers.writeTextFile = ({ path, content }) => {
        const previous = this.files.get(path);
        if (previous === undefined && this.files.size >= this.maxFiles)
          throw new Error(`the inspector page keeps at most ${this.maxFiles} files; ${path} was not written`);
        const chars = this.chars - (previous?.length ?? 0) + content.length;
        if (chars > this.maxChars)
          throw new Error(`the inspector page keeps at most ${this.maxChars} characters of files; ${path} (${content.length}) was not written`);
        this.files.set(path, content);
        this.chars = chars;
        this.onChange();
      };
    return handlers;
  }
}

const SIMULATED = "acpkit inspect: the page runs no commands; this terminal is simulated (exit code 127)\n";

/** A terminal host that runs nothing (see the file comment). */
export function simulatedTerminals(): TerminalHost {
  let next = 0;
  const known = new Map<string, { command: string }>();
  const status = (terminalId: string): TerminalOutput => {
    if (!known.has(terminalId)) throw new Error(`unknown terminal ${terminalId}`);
    return { output: SIMULATED, truncated: false, exitStatus: { exitCode: 127, signal: null } };
  };
  return {
    create(request) {
      if (known.size >= MAX_PAGE_TERMINALS) throw new Error(`the inspector page keeps at most ${MAX_PAGE_TERMINALS} terminals; release one first`);
      const terminalId = `page-terminal-${++next}`;
      known.set(terminalId, { command: request.command });
      return { terminalId };
    },
    output: status,
    waitForExit: async (terminalId) => status(terminalId).exitStatus!,
    kill() {},
    release(terminalId) {
      known.delete(terminalId);
    },
  };
}
