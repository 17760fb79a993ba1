// Cold start, the official SDK: the same steps with its client and its agent.
import { startOfficialClient } from "../lib/stdio-clients.mjs";

const client = await startOfficialClient([new URL("../agents/official-agent.mjs", import.meta.url).pathname, "stdio"]);
await client.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
const { sessionId } = await client.request("session/new", { cwd: "/", mcpServers: [] });
await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "stream 10" }] });
// How long the client's shutdown takes after the turn: end the agent's stdin, wait for its exit.
const closing = performance.now();
await client.close();
process.stdout.write(`close-ms ${performance.now() - closing}\n`);
