// The measured procedures, identical for every implementation: a stream turn and a series of
// immediate prompts. Both run inside a fresh worker process (see lib/worker-pool.ts).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { GCProfiler, getHeapSpaceStatistics } from "node:v8";
import { streamPrompt } from "./fixtures.mjs";
import type { Channel, ClientImpl } from "./impl.js";

export interface StreamMeasurement {
  updatesPerSecond: number;
  seconds: number;
  /** Heap growth (bytes): highest used heap during the turn (seen before every GC) minus a collected baseline. */
  heapGrowthBytes: number;
  /**
   * The same peak without the young generation: what survived at least one scavenge (promoted or
   * retained data). The young generation's size is V8's choice (it grows with the allocation
   * rate, up to 16 MiB per semi-space), so this part shows what the client itself holds on to.
   */
  oldGrowthBytes: number;
  /** Heap still held after the turn and a full GC, minus the baseline (the client's state plus any leak). */
  retainedBytes: number;
  /** Peak resident set size of the client process (bytes). */
  peakRssBytes: number;
}

export interface StreamOptions {
  channel: Channel;
  warmup: number;
  updates: number;
  /** Sample the heap during the measured turn (the memory scenario). */
  sampleMemory?: boolean;
  /** Write a CPU profile of the measured turn only (bench/profile.ts) to this file. */
  profileFile?: string;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** One warm-up turn, then one measured turn of `updates` chunks, timed from prompt sent to result resolved. */
export async function measureStream(impl: ClientImpl, options: StreamOptions): Promise<StreamMeasurement> {
  const session = await impl.open(options.channel);
  try {
    if (options.warmup > 0) await session.prompt(streamPrompt(options.warmup));
    const before = session.applied();
    gc?.();
    const baseline = process.memoryUsage().heapUsed;
    const baselineOld = usedOutsideYoung(getHeapSpaceStatistics());
    // The GC profiler records the used heap right before every collection, which is exactly
    // where the peaks are; sampling on a timer would miss most of them.
    const gcProfiler = options.sampleMemory ? new GCProfiler() : undefined;
    gcProfiler?.start();
    const profiler = options.profileFile ? await startCpuProfile() : undefined;
    const start = process.hrtime.bigint();
    await session.prompt(streamPrompt(options.updates));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (profiler) await profiler.stopInto(options.profileFile!);
    let peakHeap = process.memoryUsage().heapUsed;
    let peakOld = usedOutsideYoung(getHeapSpaceStatistics());
    for (const event of gcProfiler?.stop()?.statistics ?? []) {
      peakHeap = Math.max(peakHeap, event.beforeGC.heapStatistics.usedHeapSize);
      peakOld = Math.max(peakOld, usedOutsideYoung(event.beforeGC.heapSpaceStatistics));
    }
    gc?.();
    const retainedBytes = process.memoryUsage().heapUsed - baseline;
    const applied = session.applied() - before;
    if (applied !== options.updates) {
      throw new Error(`${impl.name}/${options.channel}: the prompt resolved after ${applied} of ${options.updates} updates were applied`);
    }
    return {
      updatesPerSecond: options.updates / seconds,
      seconds,
      heapGrowthBytes: peakHeap - baseline,
      oldGrowthBytes: peakOld - baselineOld,
      retainedBytes,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    await session.close();
  }
}

export interface LatencyMeasurement {
  p50Micros: number;
  p99Micros: number;
}

/** `count` sequential prompts the agent answers at once with end_turn; per-prompt round trip in µs. */
export async function measureLatency(impl: ClientImpl, channel: Channel, warmup: number, count: number, profileFile?: string): Promise<LatencyMeasurement> {
  const session = await impl.open(channel);
  try {
    for (let i = 0; i < warmup; i++) await session.prompt("ping");
    const profiler = profileFile ? await startCpuProfile() : undefined;
    const micros = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const start = process.hrtime.bigint();
      await session.prompt("ping");
      micros[i] = Number(process.hrtime.bigint() - start) / 1e3;
    }
    if (profiler) await profiler.stopInto(profileFile!);
    micros.sort();
    const at = (p: number) => micros[Math.min(count - 1, Math.ceil((p / 100) * count) - 1)]!;
    return { p50Micros: at(50), p99Micros: at(99) };
  } finally {
    await session.close();
  }
}

/** The V8 CPU profiler over the inspector protocol, so a profile covers exactly the measured turn. */
async function startCpuProfile(): Promise<{ stopInto(file: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 100 });
  await post("Profiler.start");
  return {
    async stopInto(file) {
      const { profile } = await post("Profiler.stop");
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * Used bytes in every heap space except the young generation (new space). Accepts both spellings:
 * `v8.getHeapSpaceStatistics()` says `space_name`, the GC profiler says `spaceName`.
 */
function usedOutsideYoung(spaces: ReadonlyArray<object>): number {
  let used = 0;
  for (const space of spaces as ReadonlyArray<Record<string, unknown>>) {
    const name = (space.spaceName ?? space.space_name) as string;
    if (name === "new_space" || name === "new_large_object_space") continue;
    used += (space.spaceUsedSize ?? space.space_used_size) as number;
  }
  return used;
}
