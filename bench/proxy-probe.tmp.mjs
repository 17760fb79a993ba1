import { connectAgent } from "@acpkit/client";
import { spawnAgent } from "@acpkit/transport-stdio";
const bin = new URL("../packages/cli/dist/bin.js", import.meta.url).pathname;
const agent = new URL("./agents/acpkit-agent.mjs", import.meta.url).pathname;
const profArgs = (process.env.PROF ?? "").split(" ").filter(Boolean);
for (let r = 0; r < 3; r++) {
const t = spawnAgent(process.execPath, [...profArgs, bin, "proxy", "--dialect", "later", "--", process.execPath, agent, "stdio", "default"], { shutdownGraceMs: 5000, stderr: "ignore" });
const a = await connectAgent(t, { protocolVersion: 1, validateOutgoing: false });
const s = await a.newSession({ cwd: "/" });
await s.prompt("stream 1000");
const n = Number(process.argv[2] ?? 200000);
const start = process.hrtime.bigint();
await s.prompt(`stream ${n}`);
console.log(`${Math.round(n / (Number(process.hrtime.bigint() - start) / 1e9))} updates/s`);
await a.close();
}
