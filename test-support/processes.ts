// Whether a process is still running, for tests that must show nothing was left behind.
import { existsSync, readFileSync } from "node:fs";

/**
 * True while `pid` runs. Signal 0 alone is not enough: it also succeeds on a zombie, which only
 * its parent (or init, which in a container may never reap) can remove, so on Linux /proc's state
 * letter tells a zombie ("Z") from a live process.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!existsSync(`/proc/${pid}/stat`)) return process.platform !== "linux";
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state !== "Z";
}
