// Measured under callgrind by bench/instructions.ts: a client process of IMPL (acpkit, official,
// raw) that starts IMPL's benchmark agent, initializes, opens a session, runs PROMPTS prompts of
// `stream UPDATES` one after another, then shuts down as its README says and waits for the agent
// to exit. The agent is started with this process's node flags (--single-threaded), so both
// processes count the same way. The runner takes differences between sizes, so start-up cancels.
// Usage: node --single-threaded roundtrip.mjs IMPL PROMPTS UPDATES
import { spawn } from "node:child_process";
import { streamPrompt } from "../lib/fixtures.mjs";

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
} else if (impl === "official") {
  const { Readable, Writable } = await import("node:stream");
  const acp = await import("@agentclientprotocol/sdk");
  const child = spawn(process.execPath, agentArgv, { stdio: ["pipe", "pipe", "ignore"] });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const connection = acp
    .client({ name: "instructions" })
    .onNotification("session/update", () => {})
    .connect(stream);
  await connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await connection.agent.request("session/new", { cwd: "/", mcpServers: [] });
  for (let i = 0; i < prompts; i++) await connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
} else if (impl === "raw") {
  const child = spawn(process.execPath, agentArgv, { stdio: ["pipe", "pipe", "ignore"] });
  let buffered = "";
  const waiting = new Map();
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const message = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (message.id !== undefined && !message.method) {
        waiting.get(message.id)?.(message.result);
        waiting.delete(message.id);
      }
      newline = buffered.indexOf("\n");
    }
  });
  let next = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await request("session/new", { cwd: "/", mcpServers: [] });
  for (let i = 0; i < prompts; i++) await request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
} else {
  process.stderr.write(`roundtrip.mjs: unknown implementation ${impl}\n`);
  process.exitCode = 2;
}
