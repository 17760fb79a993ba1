// Pinning a latency measurement (the client process and, by inheritance, its agent child) to one
// CPU with `taskset`, identically for every implementation.
//
// Why: on the benchmark VM a round trip between two processes on different vCPUs costs ~55 µs
// more than on one vCPU (the idle vCPU has halted and the hypervisor must wake it), and where the
// scheduler puts the pair changes at random between process pairs. Unpinned, a latency round
// therefore lands in one of two modes regardless of the code under test. See docs/performance.md.
import { spawnSync } from "node:child_process";
import os from "node:os";

let tasksetWorks: boolean | undefined;

/** Whether pinning is possible here (Linux with `taskset`) and not switched off with ACPKIT_BENCH_PIN=0. */
export function canPinCpu(): boolean {
  if (process.env.ACPKIT_BENCH_PIN === "0") return false;
  if (tasksetWorks === undefined) {
    tasksetWorks = process.platform === "linux" && spawnSync("taskset", ["-c", "0", "true"], { stdio: "ignore" }).status === 0;
  }
  return tasksetWorks;
}

/** The CPU a latency round pins to: rotates over the machine's CPUs, the same for every implementation of the round. */
export function cpuForRound(round: number): number | undefined {
  return canPinCpu() ? round % Math.max(1, os.availableParallelism?.() ?? os.cpus().length) : undefined;
}

/** `command args…`, run on `cpu` only when given (the command's children inherit the affinity). */
export function pinnedCommand(cpu: number | undefined, command: string, args: readonly string[]): { command: string; args: string[] } {
  if (cpu === undefined) return { command, args: [...args] };
  return { command: "taskset", args: ["-c", String(cpu), command, ...args] };
}
