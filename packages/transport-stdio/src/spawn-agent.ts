// spawnAgent(): the client side of stdio (docs/protocol.md §8.1 S1, S7). Starts the agent as a child
// process and talks ndjson over its stdin/stdout. Closing ends stdin, then sends SIGTERM, then
// SIGKILL, each after a grace period, and resolves only once the child has exited and was reaped
// (Node reaps on 'exit'), so no zombie is left behind.
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import type { CloseInfo } from "@acpkit/core";
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

  constructor(
    readonly child: ChildProcess,
    options: SpawnAgentOptions,
  ) {
    super(child.stdout!, child.stdin!, options);
    this.stderr = child.stderr;
    this.pid = child.pid;
    this.graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
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
    if (this.exitInfo !== undefined) return;
    if (!(await this.exitWithin(this.graceMs))) {
      this.child.kill("SIGTERM");
      if (!(await this.exitWithin(this.graceMs))) this.child.kill("SIGKILL");
    }
    await this.exited;
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
    if (this.outputEnded) {
      this.finish(info);
      return;
    }
    setTimeout(() => this.finish(info), 1000).unref();
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
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
    windowsHide: true,
  });
  return new ChildProcessTransport(child, options);
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): CloseInfo {
  if (signal !== null) return { reason: `agent process was killed by ${signal}`, exitCode: null, signal };
  return { reason: `agent process exited with code ${code}`, exitCode: code, signal: null };
}
