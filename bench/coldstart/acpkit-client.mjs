// Cold start, acpkit: spawn the acpkit benchmark agent, initialize, session/new, one turn of 10
// updates, exit, with the warm-up a command-line client turns on (acpkit run does). Run as a fresh process per measurement.
import { connectAgent } from "@acpkit/client";
import { spawnAgent } from "@acpkit/transport-stdio";

const agentScript = new URL("../agents/acpkit-agent.mjs", import.meta.url).pathname;
const agent = await connectAgent(spawnAgent(process.execPath, [agentScript, "stdio"], { stderr: "ignore" }), { validateOutgoing: false, warmUp: true });
const session = await agent.newSession({ cwd: "/" });
await session.prompt("stream 10");
// How long the client's shutdown takes after the turn (the shutdown rows of the cold-start scenario).
const closing = performance.now();
await agent.close();
process.stdout.write(`close-ms ${performance.now() - closing}\n`);
