// A TerminalHost for Node: runs the agent's commands as real child processes, confined to the
// session's working directory, with bounded output, and stops them for good: each command gets
// its own process group, so kill reaches what it started too (SIGTERM, then SIGKILL).
import { type ChildProcess, spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { ErrorCode, RpcError, type TerminalExitStatus } from "@acpkit/core";
import type { CreateTerminalRequest, TerminalContext, TerminalHost, TerminalOutput } from "../types.js";
import { OutputBuffer } from "./output-buffer.js";

/** Options of `createNodeTerminalHost`. */
export interface NodeTerminalHostOptions {
  /** Output kept per terminal when the agent gives no `outputByteLimit` (default 1 MiB). */
  defaultOutputByteLimit?: number;
  /** Largest `outputByteLimit` honoured; larger requests are capped (default 16 MiB). A terminal holds up to twice its limit between reads. */
  maxOutputByteLimit?: number;
  /** How many unreleased terminals may exist at once; more are refused (default 32). */
  maxTerminals?: number;
  /** How long a killed command has between SIGTERM and SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** Environment the commands start from (default `process.env`); the agent's `env` is added on top. */
  baseEnv?: NodeJS.ProcessEnv;
}

interface RunningTerminal {
  child: ChildProcess;
  output: OutputBuffer;
  exitStatus: TerminalExitStatus | null;
  /** Resolves once the command exited and its output was read. */
  exited: Promise<TerminalExitStatus>;
}

let terminalCounter = 0;

/** Where `requested` (or the session's cwd) resolves, if it lies inside the session's working directory. */
function confinedCwd(requested: string | null, sessionCwd: string): string {
  let root: string;
  try {
    root = realpathSync(sessionCwd);
  } catch {
    throw new RpcError(ErrorCode.InvalidParams, `The session's working directory ${sessionCwd} does not exist`, { path: "/cwd" });
  }
  if (requested === null) return root;
  if (!isAbsolute(requested))
    throw new RpcError(ErrorCode.InvalidParams, `terminal/create: cwd must be an absolute path (got ${JSON.stringify(requested)})`, { path: "/cwd" });
  let target: string;
  try {
    target = realpathSync(resolve(requested));
  } catch {
    throw new RpcError(ErrorCode.InvalidParams, `terminal/create: cwd ${requested} does not exist`, { path: "/cwd" });
  }
  const inside = relative(root, target);
  if (inside.startsWith("..") || isAbsolute(inside)) {
    throw new RpcError(ErrorCode.InvalidParams, `terminal/create: cwd ${requested} is outside the session's working directory ${sessionCwd}`, { path: "/cwd" });
  }
  return target;
}

/** Signal the command's whole process group (it was started detached), or the child alone where groups do not exist. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === "win32") child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Spawn the command; resolves once it runs, with its output collected up to `limit` bytes. */
async function startTerminal(request: CreateTerminalRequest, cwd: string, env: NodeJS.ProcessEnv, limit: number): Promise<RunningTerminal> {
  const child = spawn(request.command, request.args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" });
  await new Promise<void>((resolveSpawn, rejectSpawn) => {
    child.once("spawn", resolveSpawn);
    child.once("error", (error) =>
      rejectSpawn(new RpcError(ErrorCode.InternalError, `terminal/create: cannot run ${JSON.stringify(request.command)}: ${error.message}`)),
    );
  });
  const output = new OutputBuffer(limit);
  for (const stream of [child.stdout!, child.stderr!]) {
    const decoder = new StringDecoder("utf8");
    stream.on("data", (chunk: Buffer) => output.append(decoder.write(chunk)));
    stream.on("end", () => output.append(decoder.end()));
  }
  const terminal: RunningTerminal = {
    child,
    output,
    exitStatus: null,
    exited: new Promise<TerminalExitStatus>((resolveExit) => {
      child.once("exit", (code, signal) => {
        const status = { exitCode: code, signal };
        // The exit status is known now; the pipes may still hold output, so wait for them to
        // close, but not for long: a grandchild that kept them open must not hold us.
        const settle = () => {
          terminal.exitStatus = status;
          resolveExit(status);
        };
        const late = setTimeout(settle, 200);
        child.once("close", () => {
          clearTimeout(late);
          settle();
        });
      });
    }),
  };
  return terminal;
}

/**
 * A `TerminalHost` that runs commands with `child_process.spawn` (no shell: `command` and `args`
 * as given). Pass it as `connectAgent(transport, { terminal: createNodeTerminalHost() })`.
 */
export function createNodeTerminalHost(options: NodeTerminalHostOptions = {}): TerminalHost & { readonly size: number; closeAll(): Promise<void> } {
  const defaultLimit = options.defaultOutputByteLimit ?? 1024 * 1024;
  const maxLimit = options.maxOutputByteLimit ?? 16 * 1024 * 1024;
  const maxTerminals = options.maxTerminals ?? 32;
  const graceMs = options.killGraceMs ?? 2000;
  const terminals = new Map<string, RunningTerminal>();
  /** Creates under way (spawning, or stopping a command closeAll() overtook); settle, never reject. */
  const startups = new Set<Promise<void>>();
  /** How many times closeAll() ran: a create that started before one stops its command on arrival. */
  let closes = 0;

  const find = (terminalId: string): RunningTerminal => {
    const terminal = terminals.get(terminalId);
    if (!terminal) throw new RpcError(ErrorCode.ResourceNotFound, `Unknown terminal "${terminalId}"`, { terminalId });
    return terminal;
  };

  const stop = async (terminal: RunningTerminal): Promise<void> => {
    if (terminal.exitStatus !== null) return;
    signalGroup(terminal.child, "SIGTERM");
    const timer = setTimeout(() => signalGroup(terminal.child, "SIGKILL"), graceMs);
    try {
      await terminal.exited;
    } finally {
      clearTimeout(timer);
    }
  };

  const host = {
    get size() {
      return terminals.size;
    },

    async create(request: CreateTerminalRequest, context: TerminalContext): Promise<{ terminalId: string }> {
      // Commands still starting count too: an agent sends its creates without waiting, and
      // they would all pass a check of the open terminals alone.
      if (terminals.size + startups.size >= maxTerminals) {
        throw new RpcError(ErrorCode.InternalError, `terminal/create: ${maxTerminals} terminals are already open; release one first`);
      }
      const cwd = confinedCwd(request.cwd, context.sessionCwd);
      const env: NodeJS.ProcessEnv = { ...(options.baseEnv ?? process.env) };
      for (const variable of request.env) env[variable.name] = variable.value;
      const limit = Math.min(request.outputByteLimit ?? defaultLimit, maxLimit);
      const closesAtStart = closes;
      const startup = startTerminal(request, cwd, env, limit).then(async (terminal) => {
        if (closes === closesAtStart) return terminal;
        // closeAll() ran while this command was starting: it is stopped like the others.
        await stop(terminal);
        throw new RpcError(
          ErrorCode.InternalError,
          `terminal/create: the terminals were closed while the command was starting; ${JSON.stringify(request.command)} was stopped`,
        );
      });
      const settled = startup.then(
        () => undefined,
        () => undefined,
      );
      startups.add(settled);
      let terminal: RunningTerminal;
      try {
        terminal = await startup;
      } finally {
        startups.delete(settled);
      }
      const terminalId = `term_${++terminalCounter}`;
      terminals.set(terminalId, terminal);
      return { terminalId };
    },

    output(terminalId: string): TerminalOutput {
      const terminal = find(terminalId);
      return { output: terminal.output.output, truncated: terminal.output.truncated, exitStatus: terminal.exitStatus };
    },

    waitForExit(terminalId: string): Promise<TerminalExitStatus> {
      return find(terminalId).exited;
    },

    async kill(terminalId: string): Promise<void> {
      await stop(find(terminalId));
    },

    async release(terminalId: string): Promise<void> {
      const terminal = terminals.get(terminalId);
      if (!terminal) return;
      terminals.delete(terminalId);
      await stop(terminal);
    },

    /** Stop every command this host started (for shutdown). */
    async closeAll(): Promise<void> {
      closes++;
      const all = [...terminals.values()];
      terminals.clear();
      // Commands still starting stop as soon as they have started; wait for them too.
      await Promise.all([...all.map(stop), ...startups]);
    },
  };
  return host;
}
