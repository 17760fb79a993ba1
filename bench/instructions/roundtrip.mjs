// Measured under callgrind by bench/instructions.ts: a client process of IMPL (acpkit, official,
// raw) that starts IMPL's benchmark agent, initializes, opens a session, runs PROMPTS prompts of
// `stream UPDATES` one after another, then shuts down as its README says and waits for the agent
// to exit. The agent is started with this process's node flags (--single-threaded), so both
// processes count the same way. The runner takes differences between sizes, so start-up cancels.
// Usage: node --single-threaded roundtrip.mjs IMPL PROMPTS UPDATES
import { streamPrompt } from "../lib/fixtures.mjs";
import { startOfficialClient, startRawClient } from "../lib/stdio-clients.mjs";

const [impl, promptsText = "0", updatesText = "0"] = process.argv.slice(2);
const prompts = Number(promptsText);
const text = streamPrompt(Number(updatesText));
const agentScript = new URL(`../agents/${impl}-agent.mjs`, import.meta.url).pathname;
const agentArgv = [...process.execArgv, agentScript, "stdio"];

if (impl === "acpkit") {
  const { connectAgent } = await import("@acpkit/client");
  const { spawnAgent } = await import("@acpkit/transport-stdio");
  const agent = await connectAgent(spawnAgent(process.execPath, agentArgv, { stderr: "ignore" }));
  const session = await agent.newSession({ cwd: "/" });
  for (let i = 0; i < prompts; i++) await session.prompt(text);
  await agent.close();
} else if (impl === "official" || impl === "raw") {
  const client = impl === "raw" ? startRawClient(agentArgv) : await startOfficialClient(agentArgv);
  await client.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await client.request("session/new", { cwd: "/", mcpServers: [] });
  for (let i = 0; i < prompts; i++) await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  await client.close();
} else {
  process.stderr.write(`roundtrip.mjs: unknown implementation ${impl}\n`);
  process.exitCode = 2;
}
