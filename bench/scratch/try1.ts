import { officialImpl } from "../impls/official.ts";
import { rawImpl } from "../impls/raw.ts";
import { measureStream, measureLatency } from "../lib/measure.ts";
for (const impl of [officialImpl, rawImpl]) for (const channel of ["memory", "stdio", "websocket"] as const) {
  try {
    const r = await measureStream(impl, { channel, warmup: 2000, updates: 20000, sampleMemory: true });
    const l = channel === "websocket" ? undefined : await measureLatency(impl, channel, 100, 500);
    console.log(impl.name, channel, Math.round(r.updatesPerSecond), (r.heapGrowthBytes/1e6).toFixed(1), l);
  } catch (e) { console.log(impl.name, channel, "ERR", e); }
}
