// temporary (not committed): profile the plain v1 agent's process on a long stream
import { connectAgent } from "@acpkit/client";
import { spawnAgent } from "@acpkit/transport-stdio";
const agent = new URL("./agents/acpkit-agent.mjs", import.meta.url).pathname;
const variant = process.argv[3] ?? "plain-v1";
const t = spawnAgent(process.execPath, ["--cpu-prof", "--cpu-prof-dir=/tmp/pa", agent, "stdio", variant], { shutdownGraceMs: 5000 });
const a = await connectAgent(t, { protocolVersion: 1, validateOutgoing: false });
const s = await a.newSession({ cwd: "/" });
await s.prompt("stream 1000");
const n = Number(process.argv[2] ?? 200000);
const start = process.hrtime.bigint();
await s.prompt(`stream ${n}`);
console.log(`${Math.round(n / (Number(process.hrtime.bigint() - start) / 1e9))} updates/s`);
await a.close();
