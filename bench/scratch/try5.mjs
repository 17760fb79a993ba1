import { chunkText } from "../lib/fixtures.mjs";
const which = process.argv[2];
const mod = await import(which === "patched" ? "./client-dist/index.js" : "@acpkit/client");
const size = Number(process.argv[3] ?? 100000);
const ups = [];
for (let i = 0; i < size; i++) ups.push({ sessionUpdate: "agent_message_chunk", messageId: "m-1", content: { type: "text", text: chunkText(i) } });
function run() { let s = mod.createSessionState("x", 2); const t = process.hrtime.bigint(); for (const u of ups) s = mod.applyUpdate(s, u); return Number(process.hrtime.bigint() - t) / size; }
run(); console.log(which, size, Math.min(run(), run(), run()).toFixed(0), "ns/update");
