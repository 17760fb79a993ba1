import { measureBridge } from "../impls/acpkit.ts";
const modes = (process.argv[2] ?? "bridge,plain-v1,v2-native").split(",") as any[];
for (let r = 0; r < 3; r++) for (const m of modes) {
  for (const fe of ["256", "1000000"]) {
    process.env.ACPKIT_BENCH_FLUSH_EVERY = fe;
    console.log(r, m, "flushEvery", fe, Math.round(await measureBridge(m, 5000, 50000)));
  }
}
process.exit(0);
