import { acpkitImpl } from "../impls/acpkit.ts";
import { measureStream, measureLatency } from "../lib/measure.ts";
for (const channel of (process.argv[2] ?? "memory,stdio,websocket").split(",") as any[]) {
  try {
    const r = await measureStream(acpkitImpl, { channel, warmup: 2000, updates: 20000, sampleMemory: true });
    const l = channel === "websocket" ? undefined : await measureLatency(acpkitImpl, channel, 100, 500);
    console.log("acpkit", channel, Math.round(r.updatesPerSecond), (r.heapGrowthBytes/1e6).toFixed(1), l);
  } catch (e) { console.log("acpkit", channel, "ERR", e); }
}
process.exit(0);
