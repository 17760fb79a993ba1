// Command dispatch for the `acpkit` binary. Each command module exports `<name>Command(argv, io)`
// returning an exit code; usage errors become exit code 2 with the command's usage text.
import { readFileSync } from "node:fs";
import { UsageError } from "./args.js";
import { Exit, processIO, type CommandIO } from "./io.js";
import { guardTerminalIO } from "./terminal-text.js";

interface CommandEntry {
  summary: string;
  /**
   * The command's stdout is not (only) for people: the protocol itself (`agent`) or a relay that
   * must pass bytes exactly (`inspect --tap`). Its output is not guarded (terminal-text.ts).
   */
  rawOutput?: true;
  /** The command starts agents (or a client) as child processes, which must not outlive an interrupted run. */
  startsProcesses?: true;
  load(): Promise<{ run: (argv: readonly string[], io: CommandIO) => Promise<number>; usage: string }>;
}

const commands: Record<string, CommandEntry> = {
  demo: {
    summary: "run a full prompt turn against the built-in agent (v1, then v2)",
    startsProcesses: true,
    load: async () => {
      const m = await import("./commands/demo.js");
      return { run: m.demoCommand, usage: m.demoUsage };
    },
  },
  run: {
    summary: "drive any ACP agent over stdio, WebSocket or a remote endpoint",
    startsProcesses: true,
    load: async () => {
      const m = await import("./commands/run.js");
      return { run: m.runCommand, usage: m.runUsage };
    },
  },
  sessions: {
    summary: "list (or delete) an agent's stored sessions",
    startsProcesses: true,
    load: async () => {
      const m = await import("./commands/sessions.js");
      return { run: m.sessionsCommand, usage: m.sessionsUsage };
    },
  },
  check: {
    summary: "check an agent against the protocol's requirements",
    startsProcesses: true,
    load: async () => {
      const m = await import("./commands/check.js");
      return { run: m.checkCommand, usage: m.checkUsage };
    },
  },
  agent: {
    summary: "the built-in test agent on stdio",
    rawOutput: true,
    load: async () => {
      const m = await import("./commands/agent.js");
      return { run: m.agentCommand, usage: m.agentUsage };
    },
  },
  validate: {
    summary: "check a recorded ndjson transcript",
    load: async () => {
      const m = await import("./commands/validate.js");
      return { run: m.validateCommand, usage: m.validateUsage };
    },
  },
  inspect: {
    summary: "a web inspector for an agent (or, with --tap, for an editor's traffic)",
    startsProcesses: true,
    rawOutput: true,
    load: async () => {
      const m = await import("./commands/inspect.js");
      return { run: m.inspectCommand, usage: m.inspectUsage };
    },
  },
  serve: {
    // Not startsProcesses: serve handles SIGINT/SIGTERM itself, to end turns and connections
    // gracefully before it stops its agents (commands/serve.ts).
    summary: "host a stdio agent behind ACP's remote endpoint (HTTP+SSE and WebSocket)",
    load: async () => {
      const m = await import("./commands/serve.js");
      return { run: m.serveCommand, usage: m.serveUsage };
    },
  },
  proxy: {
    summary: "serve an agent to an editor that speaks another dialect (v1, pinned v2, later v2)",
    startsProcesses: true,
    rawOutput: true,
    load: async () => {
      const m = await import("./commands/proxy.js");
      return { run: m.proxyCommand, usage: m.proxyUsage };
    },
  },
  bridge: {
    summary: "serve a stdio agent over WebSocket",
    startsProcesses: true,
    load: async () => {
      const m = await import("./commands/bridge.js");
      return { run: m.bridgeCommand, usage: m.bridgeUsage };
    },
  },
};

/**
 * Whether the command `name` starts child processes (an agent, or the client `check client`
 * checks): the binary then makes SIGINT, SIGTERM and SIGHUP stop them before it exits (bin.ts).
 */
export function startsProcesses(name: string | undefined): boolean {
  return name !== undefined && commands[name]?.startsProcesses === true;
}

/** The hidden command that runs `acpkit check client`'s scripted agent. */
const CHECK_PEER_COMMAND = "__check-peer";

/** The top-level usage text of `acpkit` (the command list). */
export function mainUsage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`);
  return `usage: acpkit <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun "acpkit <command> --help" for a command's options.`;
}

/**
 * Run one `acpkit` command as the binary does (`argv` without node and the script) and resolve
 * with its exit code: 0 success, 1 failure, 2 bad usage. Output goes to `io` (default: this
 * process's stdio).
 */
export async function main(argv: readonly string[], io: CommandIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout).write(mainUsage() + "\n");
    return name === undefined ? Exit.Usage : Exit.Ok;
  }
  if (name === "--version" || name === "-v") {
    // dist/main.js and src/main.ts both sit one level below the package root.
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    io.stdout.write(`${version}\n`);
    return Exit.Ok;
  }
  if (name === CHECK_PEER_COMMAND) {
    // The scripted agent `acpkit check client` starts behind the client under test (not for people).
    const { runCheckPeer } = await import("./commands/check.js");
    return runCheckPeer(rest);
  }
  const entry = commands[name];
  if (!entry) {
    io.stderr.write(`acpkit: unknown command "${name}"\n\n${mainUsage()}\n`);
    return Exit.Usage;
  }
  const command = await entry.load();
  const dashDash = rest.indexOf("--");
  const own = dashDash === -1 ? rest : rest.slice(0, dashDash);
  if (own.includes("--help") || own.includes("-h")) {
    io.stdout.write(command.usage + "\n");
    return Exit.Ok;
  }
  try {
    // Text a peer chose reaches people through this output: no control character of it reaches the terminal.
    return await command.run(rest, entry.rawOutput ? io : guardTerminalIO(io));
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`acpkit ${name}: ${error.message}\n\n${command.usage}\n`);
      return Exit.Usage;
    }
    throw error;
  }
}
