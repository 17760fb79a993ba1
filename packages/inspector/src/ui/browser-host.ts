// What the page can offer an agent as a client, honestly. A browser tab has no file system and
// runs no commands, so: files live in the page's memory (what the agent writes can be read back
// and is listed in the Files panel), and the terminal is simulated — it runs nothing and reports
// exit code 127 with a line saying so, which lets an agent's terminal flow be seen end to end.
import type { FileSystemHandlers, TerminalHost, TerminalOutput } from "@acpkit/client";

/** The page's files, by absolute path. */
export class PageFiles {
  readonly files = new Map<string, string>();

  constructor(private readonly onChange: () => void) {}

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
        this.files.set(path, content);
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
