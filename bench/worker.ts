// Entry point of the fresh process every stream / latency / memory / bridge measurement runs in.
// It receives one task over IPC, runs it, replies with the figures and exits. A "latency-slices"
// task stays up instead: it answers "ready" after its warm-up, then one reply per "slice" command,
// until "close".
import { loadImpl } from "./lib/impls.js";
import { measureLatency, measureStream, openLatencySlices, type LatencySlices } from "./lib/measure.js";
import type { Channel, ImplName } from "./lib/impl.js";

export type WorkerTask =
  | { kind: "stream"; impl: ImplName; channel: Channel; warmup: number; updates: number; sampleMemory?: boolean; profileFile?: string }
  | { kind: "latency"; impl: ImplName; channel: Channel; warmup: number; count: number; profileFile?: string; traceBlock?: number }
  | { kind: "latency-slices"; impl: ImplName; channel: Channel; warmup: number }
  | { kind: "validate"; impl: ImplName; count: number }
  | { kind: "reducer"; target: "message" | "toolcall"; size: number }
  | { kind: "bridge"; mode: "bridge" | "plain-v1" | "v2-native" | "v2-later" | "v1-via-proxy"; warmup: number; updates: number };

/** Commands a "latency-slices" worker takes after its task. */
export type SliceCommand = { kind: "slice"; settle: number; count: number } | { kind: "close" };

export type WorkerReply = { ok: true; value: unknown } | { ok: false; error: string };

async function run(task: WorkerTask): Promise<unknown> {
  switch (task.kind) {
    case "stream":
      return measureStream(await loadImpl(task.impl), task);
    case "latency":
      return measureLatency(await loadImpl(task.impl), task.channel, task.warmup, task.count, task);
    case "latency-slices":
      slices = await openLatencySlices(await loadImpl(task.impl), task.channel, task.warmup);
      return "ready";
    case "validate":
      return (await import("./lib/validate-measure.js")).measureValidate(task.impl, task.count);
    case "reducer":
      return (await import("./impls/acpkit.js")).measureReducer(task.target, task.size);
    case "bridge":
      return (await import("./impls/acpkit.js")).measureBridge(task.mode, task.warmup, task.updates);
  }
}

let slices: LatencySlices | undefined;

function reply(message: WorkerReply, exit: boolean): void {
  if (exit) process.send!(message, () => process.exit(0));
  else process.send!(message);
}

function failure(error: unknown): WorkerReply {
  return { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

async function runSlice(command: SliceCommand): Promise<unknown> {
  if (command.kind === "close") {
    await slices!.close();
    return "closed";
  }
  return Array.from(await slices!.run(command.settle, command.count));
}

process.once("message", (task: WorkerTask) => {
  run(task).then(
    (value) => {
      if (task.kind !== "latency-slices") return reply({ ok: true, value }, true);
      process.on("message", (command: SliceCommand) => {
        runSlice(command).then(
          (result) => reply({ ok: true, value: result }, command.kind === "close"),
          (error: unknown) => reply(failure(error), true),
        );
      });
      reply({ ok: true, value }, false);
    },
    (error: unknown) => reply(failure(error), true),
  );
});
