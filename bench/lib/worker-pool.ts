// Runs one measurement in a fresh Node process, so no implementation inherits another's JIT
// state, heap or open handles, and memory figures start from a clean process.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { WorkerTask, WorkerReply } from "../worker.js";

const WORKER = fileURLToPath(new URL("../worker.ts", import.meta.url));

export interface FreshProcessOptions {
  /** Extra node flags, e.g. --cpu-prof for profiling. */
  nodeArgs?: string[];
  timeoutMs?: number;
}

export function runInFreshProcess<T>(task: WorkerTask, options: FreshProcessOptions = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], {
      execArgv: ["--import", "tsx", "--expose-gc", ...(options.nodeArgs ?? [])],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
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
