// Cold start, the official SDK: the same steps with its client and its agent.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const agentScript = new URL("../agents/official-agent.mjs", import.meta.url).pathname;
const child = spawn(process.execPath, [agentScript, "stdio"], { stdio: ["pipe", "pipe", "ignore"] });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const connection = acp
  .client({ name: "coldstart" })
  .onNotification("session/update", () => {})
  .connect(stream);
await connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
const { sessionId } = await connection.agent.request("session/new", { cwd: "/", mcpServers: [] });
await connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "stream 10" }] });
// How long the client's shutdown takes after the turn: end the agent's stdin, wait for its exit.
const closing = performance.now();
child.stdin.end();
await new Promise((resolve) => child.once("exit", resolve));
process.stdout.write(`close-ms ${performance.now() - closing}\n`);
