// Measured under callgrind by bench/instructions.ts: acpkit's client and its benchmark agent in one
// process over the memory pair (messages cross as JSON text, as on a wire), one prompt of UPDATES
// streamed updates. One process and in-order microtask delivery make the count exact run after
// run; across two processes, how many lines one read returns depends on scheduling, and so does
// the count (it moved by 7% between an idle and a loaded machine). CI's gate uses this figure.
// Usage: node --single-threaded stream-in-process.mjs UPDATES
import { connectAgent } from "@acpkit/client";
import { createMemoryPair } from "@acpkit/transport-memory";
import { serveAcpkitAgent } from "../agents/acpkit-app.mjs";
import { streamPrompt } from "../lib/fixtures.mjs";

const updates = Number(process.argv[2] ?? "0");
const [clientSide, agentSide] = createMemoryPair();
serveAcpkitAgent(agentSide, [1, 2]);
const agent = await connectAgent(clientSide, { protocolVersion: 1 });
const session = await agent.newSession({ cwd: "/" });
await session.prompt(streamPrompt(updates));
await agent.close();
