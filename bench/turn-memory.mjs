// What a client holds while it reads a long turn: the acpkit client against the acpkit benchmark
// agent over stdio, one turn of N chunks, either iterated (`for await`, the README's pattern) or
// only awaited. Prints one JSON line: { mode, updates, iterated, ms, peakHeapMiB, maxRssMiB }.
// The difference between the two modes is what the Turn keeps for its iterator, which is capped at
// MAX_KEPT_TURN_UPDATES (docs/performance.md, "Memory").
// Usage: node bench/turn-memory.mjs [updates=2000000] [iterate|await]
import { connectAgent } from "@acpkit/client";
import { spawnAgent } from "@acpkit/transport-stdio";
import { streamPrompt } from "./lib/fixtures.mjs";

const updates = Number(process.argv[2] ?? 2_000_000);
const mode = process.argv[3] ?? "iterate";
if (!Number.isSafeInteger(updates) || updates < 1 || (mode !== "iterate" && mode !== "await")) {
  process.stderr.write("usage: node bench/turn-memory.mjs [updates ≥ 1] [iterate|await]\n");
  process.exit(2);
}
const agentScript = new URL("./agents/acpkit-agent.mjs", import.meta.url).pathname;
const agent = await connectAgent(spawnAgent(process.execPath, [agentScript, "stdio"], { stderr: "inherit" }), { validateOutgoing: false });
const session = await agent.newSession({ cwd: "/" });
// Sampled every 20 ms and once at the end: the peak a user's process would see, GC timing included.
let peakHeap = 0;
const sample = () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed));
const sampler = setInterval(sample, 20);
const started = performance.now();
const turn = session.prompt(streamPrompt(updates));
let iterated = 0;
if (mode === "iterate") for await (const _update of turn) iterated++;
const outcome = await turn;
sample();
clearInterval(sampler);
const ms = Math.round(performance.now() - started);
await agent.close();
if (outcome.stopReason !== "end_turn") throw new Error(`the turn ended with ${outcome.stopReason}`);
const record = {
  mode,
  updates,
  iterated,
  ms,
  peakHeapMiB: Math.round((peakHeap / 2 ** 20) * 10) / 10,
  maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
};
process.stdout.write(`${JSON.stringify(record)}\n`);
