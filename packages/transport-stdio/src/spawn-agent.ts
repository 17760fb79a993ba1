// spawnAgent(): the client side of stdio (docs/protocol.md §8.1 S1, S7). Starts the agent as a child
// process and talks ndjson over its stdin/stdout. Closing ends stdin, then sends SIGTERM, then
// SIGKILL, each after a grace period, and resolves only once the child has exited and was reaped
// (Node reaps on 'exit'), so no zombie is left behind.
//
// Launchers (an npm or npx wrapper, a shell script) start the real agent as *their* child, which
// inherits the pipes. When the launcher exits first, that grandchild would keep our pipes open and
// this process alive. So on POSIX the agent gets a process group of its own; the signals go to the
// whole group, anything left in it after the child exits is stopped too, and the pipes are destroyed
// once the transport is closed.
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import type { CloseInfo } from "@acpkit/core";
import { childProcess } from "./node-builtins.js";
import { trackChildProcess } from "./stop-on-signal.js";
import { NdjsonStreamTransport, validateMaxMessageSize, type NdjsonTransportOptions } from "./stream-transport.js";

/** Default wait between shutdown steps (stdin closed → SIGTERM → SIGKILL). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 2000;

/** Options of `spawnAgent`. */
export interface SpawnAgentOptions extends NdjsonTransportOptions {
  cwd?: string;
  /** Environment of the child. Default: this process's environment. */
  env?: NodeJS.ProcessEnv;
  /**
   * What to do with the child's stderr (its log, docs/protocol.md §8.1 S6). "inherit" (default) shares
   * ours; "pipe" exposes it as `transport.stderr`, which you must then read, or the child blocks
   * once the pipe is full; "ignore" discards it.
   */
  stderr?: "inherit" | "pipe" | "ignore";
  /** Wait this long after ending stdin before SIGTERM, and after SIGTERM before SIGKILL. Default 2000 ms. */
  shutdownGraceMs?: number;
  /**
   * Start the agent in a process group of its own and signal the whole group on close, so a
   * launcher's children go too (default true; POSIX only). With false only the child is signalled.
   */
  processGroup?: boolean;
}

/** A stdio transport to a child agent process. */
export class ChildProcessTransport extends NdjsonStreamTransport {
  /** The child's stderr when started with `stderr: "pipe"`, otherwise null. */
  readonly stderr: Readable | null;
  /** The child's process id (undefined if it could not be started). */
  readonly pid: number | undefined;
  private exitInfo: CloseInfo | undefined;
  private outputEnded = false;
  private readonly exited: Promise<CloseInfo>;
  private readonly graceMs: number;
  /** The child leads a process group of its own (see the top of this file). */
  private readonly ownGroup: boolean;

  constructor(
    readonly child: ChildProcess,
    options: SpawnAgentOptions,
  ) {
    super(child.stdout!, child.stdin!, options);
    this.stderr = child.stderr;
    this.pid = child.pid;
    this.graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
    this.ownGroup = usesProcessGroup(options) && child.pid !== undefined;
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exitInfo = describeExit(code, signal);
        resolve(this.exitInfo);
        this.finishWhenDrained();
      });
      child.once("error", (error) => {
        // 'error' without 'exit' means the child never started (ENOENT, EACCES, …).
        if (child.pid !== undefined) return;
        const info: CloseInfo = { reason: `could not start the agent: ${error.message}`, error, exitCode: null, signal: null };
        this.exitInfo = info;
        resolve(info);
        this.finish(info);
      });
    });
  }

  /** Input ended: wait for the exit status, which is what the CloseInfo should report. */
  protected override onInputEnded(): void {
    this.outputEnded = true;
    this.finishWhenDrained();
  }

  protected override onStreamError(error: Error): void {
    // EPIPE on stdin means the child is going away; its exit tells why, so keep waiting for it.
    if ((error as NodeJS.ErrnoException).code === "EPIPE") return;
    super.onStreamError(error);
  }

  protected override shutdown(reason: string): void {
    void this.terminate(reason);
  }

  private async terminate(reason: string): Promise<void> {
    // Refuse sends and end stdin, but keep reading: the child may still print its last lines,
    // and `closed` waits for the exit status.
    this.beginClose(reason);
    if (this.exitInfo === undefined && !(await this.exitWithin(this.graceMs))) {
      this.signal("SIGTERM");
      if (!(await this.exitWithin(this.graceMs))) this.signal("SIGKILL");
    }
    await this.exited;
    await this.stopLeftovers();
  }

  /** Signal the agent: its whole process group when it has one, else the child. */
  private signal(signal: NodeJS.Signals): void {
    if (this.ownGroup) {
      try {
        process.kill(-this.pid!, signal);
        return;
      } catch {
        // The group is gone already; fall through to the child (a no-op if it exited too).
      }
    }
    this.child.kill(signal);
  }

  /** Whether any process of the agent's group is still alive (signal 0 only checks). */
  private groupAlive(): boolean {
    if (!this.ownGroup) return false;
    try {
      process.kill(-this.pid!, 0);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The child exited; what it started in its group (a launcher's real agent) is stopped too:
   * SIGTERM, then SIGKILL after the grace period. Then the pipes are destroyed, so a process that
   * escaped the group cannot keep this one alive by holding them.
   */
  private async stopLeftovers(): Promise<void> {
    if (this.groupAlive()) {
      this.signal("SIGTERM");
      const deadline = Date.now() + this.graceMs;
      while (this.groupAlive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      if (this.groupAlive()) this.signal("SIGKILL");
    }
    // Once closed (stdout drained, or a second after the exit), nothing more is read.
    await this.closed;
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.child.stdin?.destroy();
  }

  private exitWithin(ms: number): Promise<boolean> {
    if (this.exitInfo !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * Settle `closed` once the child exited and its stdout is drained, so every line it wrote is
   * delivered before close. If a grandchild keeps stdout open after the exit, do not wait for it.
   */
  private finishWhenDrained(): void {
    const info = this.exitInfo;
    if (info === undefined) return;
    // Never started: nobody reads stdout, so it never ends and no line waits to be delivered.
    if (this.outputEnded || !this.isStarted) {
      this.finish(info);
      return;
    }
    // stdout is still open after the exit: a process the agent started holds it. Give it a moment
    // to deliver the last lines, then end the connection and stop what is left of the group.
    setTimeout(() => {
      this.finish(info);
      void this.stopLeftovers();
    }, 1000).unref();
  }
}

/**
 * Start an agent as a child process and return a stdio transport to it.
 *
 * ```ts
 * const transport = spawnAgent("my-agent", ["--acp"], { stderr: "pipe" });
 * transport.stderr?.pipe(process.stderr);
 * const info = await transport.closed; // { reason, exitCode, signal }
 * ```
 */
export function spawnAgent(command: string, args: readonly string[] = [], options: SpawnAgentOptions = {}): ChildProcessTransport {
  // Check options before starting anything, so a bad option never leaves a child behind.
  validateMaxMessageSize(options.maxMessageSize);
  const grace = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  if (!Number.isFinite(grace) || grace < 0) throw new RangeError(`shutdownGraceMs must be a non-negative number, got ${String(grace)}`);
  const child = childProcess().spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
    windowsHide: true,
    // A process group of its own (POSIX): close can then stop a launcher's children too.
    detached: usesProcessGroup(options),
  });
  // Known to stopAgentsOnSignal(), which stops it (and its group) if this process is interrupted.
  trackChildProcess(child, { processGroup: usesProcessGroup(options) });
  return new ChildProcessTransport(child, options);
}

function usesProcessGroup(options: SpawnAgentOptions): boolean {
  return options.processGroup !== false && process.platform !== "win32";
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): CloseInfo {
  if (signal !== null) return { reason: `agent process was killed by ${signal}`, exitCode: null, signal };
  return { reason: `agent process exited with code ${code}`, exitCode: code, signal: null };
}
