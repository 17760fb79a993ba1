// The official SDK's client and the raw ndjson client over a child agent's stdio, as the cold-start
// clients (coldstart/*-client.mjs) and the instruction counts (instructions/roundtrip.mjs) drive
// them: start the agent, send requests one at a time, then end its stdin and wait for its exit.
// Plain JS so those scripts run without a TypeScript loader (types: stdio-clients.d.mts).
import { spawn } from "node:child_process";

/** The raw client: hand-written ndjson, an id → resolver map, nothing validated. */
export function startRawClient(agentArgv) {
  const child = spawn(process.execPath, agentArgv, { stdio: ["pipe", "pipe", "ignore"] });
  let buffered = "";
  const waiting = new Map();
  child.stdout.setEncoding("utf8").on("data", (text) => {
    buffered += text;
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
  return {
    request: (method, params) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      }),
    close: () => endAndWait(child),
  };
}

/** The official SDK's client as its README writes one: ndJsonStream over the child's stdio. */
export async function startOfficialClient(agentArgv) {
  const { Readable, Writable } = await import("node:stream");
  const acp = await import("@agentclientprotocol/sdk");
  const child = spawn(process.execPath, agentArgv, { stdio: ["pipe", "pipe", "ignore"] });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const connection = acp
    .client({ name: "bench" })
    .onNotification("session/update", () => {})
    .connect(stream);
  return { request: (method, params) => connection.agent.request(method, params), close: () => endAndWait(child) };
}

/** End the agent's stdin and resolve once it has exited. */
function endAndWait(child) {
  child.stdin.end();
  return new Promise((resolve) => child.once("exit", resolve));
}

/**
 * The cold start's turn (coldstart/*-client.mjs): initialize, session/new, one prompt of 10
 * updates, then the client's own shutdown, timed and printed as `close-ms N` for the shutdown rows.
 */
export async function coldStartTurn(client) {
  await client.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await client.request("session/new", { cwd: "/", mcpServers: [] });
  await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "stream 10" }] });
  const closing = performance.now();
  await client.close();
  process.stdout.write(`close-ms ${performance.now() - closing}\n`);
}
