// Entry point of the fresh process every stream / latency / memory / bridge measurement runs in.
// It receives one task over IPC, runs it, replies with the figures and exits.
import { loadImpl } from "./lib/impls.js";
import { measureLatency, measureStream } from "./lib/measure.js";
import type { Channel, ImplName } from "./lib/impl.js";

export type WorkerTask =
  | { kind: "stream"; impl: ImplName; channel: Channel; warmup: number; updates: number; sampleMemory?: boolean; profileFile?: string }
  | { kind: "latency"; impl: ImplName; channel: Channel; warmup: number; count: number; profileFile?: string }
  | { kind: "validate"; impl: ImplName; count: number }
  | { kind: "reducer"; target: "message" | "toolcall"; size: number }
  | { kind: "bridge"; mode: "bridge" | "plain-v1" | "v2-native"; warmup: number; updates: number };

export type WorkerReply = { ok: true; value: unknown } | { ok: false; error: string };

async function run(task: WorkerTask): Promise<unknown> {
  switch (task.kind) {
    case "stream":
      return measureStream(await loadImpl(task.impl), task);
    case "latency":
      return measureLatency(await loadImpl(task.impl), task.channel, task.warmup, task.count, task.profileFile);
    case "validate":
      return (await import("./lib/validate-measure.js")).measureValidate(task.impl, task.count);
    case "reducer":
      return (await import("./impls/acpkit.js")).measureReducer(task.target, task.size);
    case "bridge":
      return (await import("./impls/acpkit.js")).measureBridge(task.mode, task.warmup, task.updates);
  }
}

process.once("message", (task: WorkerTask) => {
  run(task).then(
    (value) => process.send!({ ok: true, value } satisfies WorkerReply, () => process.exit(0)),
    (error: unknown) =>
      process.send!({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerReply, () =>
        process.exit(0),
      ),
  );
});
