import { mixedSessionUpdates } from "../lib/mixed-updates.ts";
import { createRequire } from "node:module";
const m = mixedSessionUpdates(10000);
const counts: Record<string, number> = {};
for (const p of m) counts[p.update.sessionUpdate] = (counts[p.update.sessionUpdate] ?? 0) + 1;
console.log(counts);
const z = await import("/work/main/node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js");
for (const p of m) z.zSessionNotification.parse(p);
let t = performance.now(); for (let r = 0; r < 3; r++) for (const p of m) z.zSessionNotification.parse(p); console.log((30000 / ((performance.now() - t) / 1000)).toFixed(0), "/s");
