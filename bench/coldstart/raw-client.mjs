// Cold start, the raw floor: the same steps with hand-written ndjson and no library.
import { spawn } from "node:child_process";

const agentScript = new URL("../agents/raw-agent.mjs", import.meta.url).pathname;
const child = spawn(process.execPath, [agentScript, "stdio"], { stdio: ["pipe", "pipe", "ignore"] });
let buffered = "";
const waiting = new Map();
child.stdout.setEncoding("utf8").on("data", (text) => {
  buffered += text;
  let newline;
  while ((newline = buffered.indexOf("\n")) >= 0) {
    const message = JSON.parse(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    if (message.id !== undefined && !message.method) waiting.get(message.id)?.(message.result);
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
await request("session/prompt", { sessionId, prompt: [{ type: "text", text: "stream 10" }] });
// How long the client's shutdown takes after the turn: end the agent's stdin, wait for its exit.
const closing = performance.now();
child.stdin.end();
await new Promise((resolve) => child.once("exit", resolve));
process.stdout.write(`close-ms ${performance.now() - closing}\n`);
