// The measured procedures, identical for every implementation: a stream turn and a series of
// immediate prompts. Both run inside a fresh worker process (see lib/worker-pool.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { GCProfiler, getHeapSpaceStatistics } from "node:v8";
import { streamPrompt } from "./fixtures.mjs";
import type { BenchSession, Channel, ClientImpl } from "./impl.js";

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
  /**
   * With `traceBlock`: the p50 of every consecutive block of that many prompts, warm-up included
   * (bench/latency-curve.ts prints them to show where the per-prompt time levels off).
   */
  blockP50Micros?: number[];
  /**
   * With `traceBlock`, on Linux: on-CPU time of the client's and the agent child's main threads
   * per measured prompt (µs, from /proc/<pid>/schedstat), and their context switches per prompt.
   */
  cpuPerPrompt?: { clientMicros: number; agentMicros: number | null; clientSwitches: number; agentSwitches: number | null };
}

export interface LatencyOptions {
  /** Write a CPU profile of the measured prompts only (bench/profile.ts) to this file. */
  profileFile?: string;
  /** Also time the warm-up prompts and report the p50 of every block of this many prompts. */
  traceBlock?: number;
}

/**
 * `warmup` unmeasured prompts, then `count` measured ones; the agent answers each at once with
 * end_turn. Per-prompt round trip in µs, from prompt sent to result resolved.
 */
export async function measureLatency(
  impl: ClientImpl,
  channel: Channel,
  warmup: number,
  count: number,
  options: LatencyOptions = {},
): Promise<LatencyMeasurement> {
  const session = await impl.open(channel);
  try {
    // The warm-up runs the very loop that is measured, so the same code gets optimized; the
    // measured prompts then go to a session of their own (see warmUpLatency).
    const warmupMicros = new Float64Array(warmup);
    await warmUpLatency(session, warmupMicros);
    const profiler = options.profileFile ? await startCpuProfile() : undefined;
    const cpuBefore = options.traceBlock ? mainThreadCpu() : undefined;
    const micros = new Float64Array(count);
    await timePrompts(session, micros);
    const cpuAfter = options.traceBlock ? mainThreadCpu() : undefined;
    if (profiler) await profiler.stopInto(options.profileFile!);
    const blockP50Micros = options.traceBlock ? blockMedians([...warmupMicros, ...micros], options.traceBlock) : undefined;
    micros.sort();
    const at = (p: number) => micros[Math.min(count - 1, Math.ceil((p / 100) * count) - 1)]!;
    const cpuPerPrompt = cpuBefore && cpuAfter ? perPrompt(cpuBefore, cpuAfter, count) : undefined;
    return { p50Micros: at(50), p99Micros: at(99), ...(blockP50Micros ? { blockP50Micros } : {}), ...(cpuPerPrompt ? { cpuPerPrompt } : {}) };
  } finally {
    await session.close();
  }
}

/**
 * The interleaved form of the latency scenario (scenarios/latency.ts): one session that warms up
 * once, then measures in slices the scenario alternates with the other implementations' slices.
 */
export interface LatencySlices {
  /** `settle` unmeasured prompts (the process was idle while the others ran), then `count` timed ones. */
  run(settle: number, count: number): Promise<Float64Array>;
  close(): Promise<void>;
}

export async function openLatencySlices(impl: ClientImpl, channel: Channel, warmup: number): Promise<LatencySlices> {
  const session = await impl.open(channel);
  try {
    await warmUpLatency(session, new Float64Array(warmup));
  } catch (error) {
    await session.close();
    throw error;
  }
  return {
    async run(settle, count) {
      await timePrompts(session, new Float64Array(settle));
      const micros = new Float64Array(count);
      await timePrompts(session, micros);
      return micros;
    },
    close: () => session.close(),
  };
}

/**
 * The latency warm-up, the same for every implementation: half the prompts on the connection's
 * first session, half on a second one, then a third session for the measured prompts. So the
 * measured prompts are the scenario's prompts on a session of their own, whatever the warm-up's
 * length (a client that keeps a session's history, as acpkit's SessionState does, is not measured
 * against thousands of warm-up turns no real session has), and whatever switching sessions costs
 * the JIT (a variable that changes once can make V8 drop optimized code) happens during warm-up.
 */
async function warmUpLatency(session: BenchSession, micros: Float64Array): Promise<void> {
  if (micros.length === 0) return;
  const half = micros.length >> 1;
  await timePrompts(session, micros.subarray(0, half));
  await session.restart();
  await timePrompts(session, micros.subarray(half));
  await session.restart();
}

/** Sends one "ping" prompt per slot of `into`, one after the other, and stores each round trip in µs. */
async function timePrompts(session: BenchSession, into: Float64Array): Promise<void> {
  for (let i = 0; i < into.length; i++) {
    const start = process.hrtime.bigint();
    await session.prompt("ping");
    into[i] = Number(process.hrtime.bigint() - start) / 1e3;
  }
}

interface ThreadCpu {
  client: [number, number];
  agent: [number, number] | undefined;
}

/** [on-CPU ns, timeslices] of one process's main thread, or undefined off Linux. */
function schedstat(pid: number | "self"): [number, number] | undefined {
  try {
    const [runNs, , slices] = readFileSync(`/proc/${pid}/schedstat`, "utf8").trim().split(" ").map(Number) as [number, number, number];
    return [runNs, slices];
  } catch {
    return undefined;
  }
}

function mainThreadCpu(): ThreadCpu | undefined {
  const client = schedstat("self");
  if (!client) return undefined;
  let agent: [number, number] | undefined;
  try {
    // The agent child (stdio, WebSocket); none when the agent runs in-process.
    const children = readFileSync(`/proc/self/task/${process.pid}/children`, "utf8").trim().split(" ").filter(Boolean);
    if (children.length === 1) agent = schedstat(Number(children[0]));
  } catch {
    // no children list on this kernel
  }
  return { client, agent };
}

function perPrompt(before: ThreadCpu, after: ThreadCpu, count: number): LatencyMeasurement["cpuPerPrompt"] {
  const agent: [number, number] | undefined = before.agent && after.agent ? [after.agent[0] - before.agent[0], after.agent[1] - before.agent[1]] : undefined;
  return {
    clientMicros: (after.client[0] - before.client[0]) / 1e3 / count,
    clientSwitches: (after.client[1] - before.client[1]) / count,
    agentMicros: agent ? agent[0] / 1e3 / count : null,
    agentSwitches: agent ? agent[1] / count : null,
  };
}

function blockMedians(values: number[], block: number): number[] {
  const medians: number[] = [];
  for (let start = 0; start + block <= values.length; start += block) {
    const sorted = values.slice(start, start + block).sort((a, b) => a - b);
    medians.push(sorted[Math.ceil(block / 2) - 1]!);
  }
  return medians;
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
