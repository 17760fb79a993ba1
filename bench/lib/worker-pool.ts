// Runs measurements in fresh Node processes, so no implementation inherits another's JIT state,
// heap or open handles, and memory figures start from a clean process.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { WorkerTask, WorkerReply } from "../worker.js";
import { pinnedCommand } from "./cpu-pin.js";

const WORKER = fileURLToPath(new URL("../worker.ts", import.meta.url));

export interface FreshProcessOptions {
  /** Extra node flags, e.g. --cpu-prof for profiling. */
  nodeArgs?: string[];
  timeoutMs?: number;
  /** Run the worker (and the agent children it starts) on this CPU only (lib/cpu-pin.ts). */
  cpu?: number;
  /** Extra environment variables for the worker (and its agent children). */
  env?: Record<string, string>;
}

/** Extra node flags for every worker, from ACPKIT_BENCH_WORKER_NODE_ARGS (e.g. --trace-gc, which NODE_OPTIONS refuses). */
function workerNodeArgs(): string[] {
  return (process.env.ACPKIT_BENCH_WORKER_NODE_ARGS ?? "").split(" ").filter(Boolean);
}

function forkWorker(options: FreshProcessOptions): ChildProcess {
  const nodeArgs = ["--import", "tsx", "--expose-gc", ...workerNodeArgs(), ...(options.nodeArgs ?? [])];
  const { command, args } = pinnedCommand(options.cpu, process.execPath, [...nodeArgs, WORKER]);
  const env = options.env ? { ...process.env, ...options.env } : process.env;
  return spawn(command, args, { stdio: ["ignore", "inherit", "inherit", "ipc"], env });
}

/** Runs one task in a fresh worker process and resolves with its reply once the process has exited. */
export function runInFreshProcess<T>(task: WorkerTask, options: FreshProcessOptions = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = forkWorker(options);
    let settled = false;
    const timer = setTimeout(() => {
      finish(new Error(`worker timed out after ${options.timeoutMs ?? 120_000} ms on ${JSON.stringify(task)}`));
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 120_000);
    const finish = (error: Error | undefined, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(value as T);
    };
    // Settle on exit, not on the reply, so the process (and any profile it writes on exit) is gone
    // before the next measurement starts.
    let reply: WorkerReply | undefined;
    child.on("message", (message: WorkerReply) => {
      reply = message;
    });
    child.on("exit", (code, signal) => {
      if (reply?.ok) finish(undefined, reply.value as T);
      else if (reply) finish(new Error(reply.error));
      else finish(new Error(`worker exited (code ${code}, signal ${signal}) before replying to ${JSON.stringify(task)}`));
    });
    child.on("error", (error) => finish(error));
    child.send(task);
  });
}

/**
 * A worker process that stays up for several requests: the first message is `task`, every later
 * one a command the task understands (worker.ts). Each `request` resolves with the next reply.
 */
export class LongLivedWorker {
  private readonly child: ChildProcess;
  private waiting: { resolve(value: unknown): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout> } | undefined;
  private exitError: Error | undefined;
  private readonly exited: Promise<void>;

  constructor(
    private readonly task: WorkerTask,
    options: FreshProcessOptions = {},
  ) {
    this.child = forkWorker(options);
    this.child.on("message", (reply: WorkerReply) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (!waiting) return;
      clearTimeout(waiting.timer);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new Error(reply.error));
    });
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => {
        this.exitError = new Error(`worker exited (code ${code}, signal ${signal}) during ${JSON.stringify(task)}`);
        this.failWaiting(this.exitError);
        resolve();
      });
    });
    this.child.on("error", (error) => this.failWaiting(error));
  }

  /** Sends the task itself; resolves with the worker's first reply. */
  start<T>(timeoutMs = 120_000): Promise<T> {
    return this.request<T>(this.task, timeoutMs);
  }

  request<T>(message: unknown, timeoutMs = 120_000): Promise<T> {
    if (this.exitError) return Promise.reject(this.exitError);
    if (this.waiting) return Promise.reject(new Error("LongLivedWorker: one request at a time"));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.failWaiting(new Error(`worker timed out after ${timeoutMs} ms on ${JSON.stringify(message)}`));
        this.child.kill("SIGKILL");
      }, timeoutMs);
      this.waiting = { resolve: resolve as (value: unknown) => void, reject, timer };
      this.child.send(message as object);
    });
  }

  /** Asks the worker to finish (`message`), then waits for it to exit; kills it if it lingers. */
  async stop(message: unknown): Promise<void> {
    if (!this.exitError) {
      await this.request(message, 10_000).catch(() => this.child.kill("SIGKILL"));
    }
    await this.exited;
  }

  private failWaiting(error: Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    waiting.reject(error);
  }
}
