// Agents started by this process must not outlive it when it is interrupted. spawnAgent() puts an
// agent in a process group of its own (so a launcher's children can be stopped with it), which
// also means the terminal's Ctrl-C no longer reaches it: only this process's group gets SIGINT.
// Left alone, a launcher and its native child keep running with parent pid 1.
//
// Every child started through spawnAgent() (and any other child a tool registers with
// trackChildProcess) is kept in one registry while it or its group lives. stopAgentsOnSignal()
// installs, once, handlers that stop them all — SIGTERM, then SIGKILL after a grace for whatever is
// still alive — and then exit with the conventional 128 + signal number. Installing handlers is an
// opt-in: a library must not change how its user's process reacts to signals unasked.
import type { ChildProcess } from "node:child_process";

/** One child (and, when it leads a group of its own, its whole group) that must not outlive us. */
interface TrackedChild {
  readonly pid: number;
  /** Signal the group (-pid) rather than the child alone. */
  readonly group: boolean;
  /** The child itself exited (its group may still have members). */
  exited: boolean;
}

const tracked = new Set<TrackedChild>();

/** Whether the child or any process of its group is still alive (signal 0 only checks). */
function alive(entry: TrackedChild): boolean {
  if (!entry.group && entry.exited) return false;
  try {
    process.kill(entry.group ? -entry.pid : entry.pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalEntry(entry: TrackedChild, signal: NodeJS.Signals): void {
  try {
    process.kill(entry.group ? -entry.pid : entry.pid, signal);
  } catch {
    // Gone already: nothing to stop.
  }
}

/** Forget children whose processes are all gone, so the registry stays as small as what runs. */
function prune(): void {
  for (const entry of tracked) if (entry.exited && !alive(entry)) tracked.delete(entry);
}

/**
 * Register a child process that must be stopped when this process is interrupted (see
 * `stopAgentsOnSignal`). `spawnAgent` registers its children itself; call this for a child you
 * start another way. With `processGroup: true` the child leads a group of its own (spawned with
 * `detached: true`) and the whole group is stopped. Returns a function that unregisters it.
 */
export function trackChildProcess(child: ChildProcess, options: { processGroup: boolean }): () => void {
  if (child.pid === undefined) return () => {};
  prune();
  const entry: TrackedChild = { pid: child.pid, group: options.processGroup && process.platform !== "win32", exited: false };
  tracked.add(entry);
  child.once("exit", () => {
    entry.exited = true;
    // A lone child is gone with its exit; a group may still hold a launcher's children, which a
    // signal must still reach, so the entry stays until the group is empty.
    if (!alive(entry)) tracked.delete(entry);
  });
  return () => {
    tracked.delete(entry);
  };
}

/** How many registered children (or groups) still have a live process. */
export function liveChildProcessCount(): number {
  prune();
  let count = 0;
  for (const entry of tracked) if (alive(entry)) count++;
  return count;
}

/**
 * Stop every registered child: SIGTERM to each (its group when it has one), then SIGKILL to
 * whatever is still alive after `graceMs`. Resolves once nothing registered is alive.
 */
export async function stopTrackedChildren(graceMs: number = DEFAULT_SIGNAL_GRACE_MS): Promise<void> {
  const entries = [...tracked].filter(alive);
  for (const entry of entries) signalEntry(entry, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (entries.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const entry of entries) if (alive(entry)) signalEntry(entry, "SIGKILL");
  // SIGKILL cannot be ignored, but the kernel needs a moment to take the processes down. The wait
  // is bounded: signal 0 also succeeds on a zombie, which only its parent (or init) can reap.
  const killDeadline = Date.now() + Math.max(graceMs, 500);
  while (entries.some(alive) && Date.now() < killDeadline) await new Promise((resolve) => setTimeout(resolve, 10));
  for (const entry of entries) tracked.delete(entry);
}

/** Default grace between SIGTERM and SIGKILL when this process is interrupted. */
export const DEFAULT_SIGNAL_GRACE_MS = 1000;

/** Options of `stopAgentsOnSignal`. */
export interface StopOnSignalOptions {
  /** The signals to handle. Default SIGINT, SIGTERM and SIGHUP. */
  signals?: readonly NodeJS.Signals[];
  /** Wait this long after SIGTERM before SIGKILL. Default 1000 ms. */
  graceMs?: number;
  /** Called once when a signal arrives, before the children are stopped (e.g. to print a note). */
  onSignal?: (signal: NodeJS.Signals) => void;
}

let installed: (() => void) | undefined;

/**
 * Make this process stop every agent it started (through `spawnAgent`, or registered with
 * `trackChildProcess`) when it is interrupted or terminated, then exit with 128 + the signal's
 * number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP). A second signal while the agents are
 * being stopped skips the grace and kills them at once. If the process exits any other way with
 * agents still running (an uncaught error), they get SIGTERM on the way out.
 *
 * ```ts
 * import { spawnAgent, stopAgentsOnSignal } from "@acpkit/transport-stdio";
 * stopAgentsOnSignal();
 * const transport = spawnAgent("my-agent", ["--acp"]);
 * ```
 *
 * Call it once, early; later calls return the first call's uninstall function.
 */
export function stopAgentsOnSignal(options: StopOnSignalOptions = {}): () => void {
  if (installed !== undefined) return installed;
  const graceMs = options.graceMs ?? DEFAULT_SIGNAL_GRACE_MS;
  if (!Number.isFinite(graceMs) || graceMs < 0) throw new RangeError(`graceMs must be a non-negative number, got ${String(graceMs)}`);
  const signals = options.signals ?? ["SIGINT", "SIGTERM", "SIGHUP"];
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    // node:os is fetched here, not imported: every agent loads this package, few are interrupted.
    const code = 128 + (process.getBuiltinModule("node:os").constants.signals[signal] ?? 0);
    if (stopping) {
      // Asked twice: no more grace.
      for (const entry of tracked) signalEntry(entry, "SIGKILL");
      process.exit(code);
    }
    stopping = true;
    options.onSignal?.(signal);
    void stopTrackedChildren(graceMs).finally(() => process.exit(code));
  };
  const onExit = (): void => {
    for (const entry of tracked) if (alive(entry)) signalEntry(entry, "SIGTERM");
  };
  for (const signal of signals) process.on(signal, onSignal);
  process.on("exit", onExit);
  installed = () => {
    for (const signal of signals) process.off(signal, onSignal);
    process.off("exit", onExit);
    installed = undefined;
  };
  return installed;
}
