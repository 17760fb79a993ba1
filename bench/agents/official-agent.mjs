// Process entry for the official-SDK benchmark agent.
// Usage: node official-agent.mjs stdio   — ACP over this process's stdio
//        node official-agent.mjs ws      — the SDK's own WebSocket server (AcpServer); prints `port <n>`
//        node official-agent.mjs http    — AcpServer behind its node adapter, both profiles on /acp; prints `port <n>`
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { buildOfficialAgent } from "./official-app.mjs";

const mode = process.argv[2] ?? "stdio";
if (mode === "stdio") {
  const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
  // As the SDK's README writes an agent: no process.exit, the process ends by itself when stdin ends.
  buildOfficialAgent().connect(stream);
} else if (mode === "http") {
  // The SDK's AcpServer behind its node adapter, both profiles on /acp.
  const { createServer } = await import("node:http");
  const { WebSocketServer } = await import("ws");
  const { AcpServer } = await import("@agentclientprotocol/sdk/experimental/server");
  const { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } = await import("@agentclientprotocol/sdk/experimental/node");
  const server = new AcpServer({ createAgent: buildOfficialAgent });
  const http = createServer(createNodeHttpHandler(server));
  http.on("upgrade", createNodeWebSocketUpgradeHandler(server, new WebSocketServer({ noServer: true })));
  http.listen(0, "127.0.0.1", () => process.stdout.write(`port ${http.address().port}\n`));
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else if (mode === "ws") {
  const { createServer } = await import("node:http");
  const { WebSocketServer } = await import("ws");
  const { AcpServer } = await import("@agentclientprotocol/sdk/experimental/server");
  const { createNodeWebSocketUpgradeHandler } = await import("@agentclientprotocol/sdk/experimental/node");
  const server = new AcpServer({ createAgent: buildOfficialAgent });
  const wss = new WebSocketServer({ noServer: true });
  const http = createServer((_req, res) => res.writeHead(404).end());
  http.on("upgrade", createNodeWebSocketUpgradeHandler(server, wss));
  http.listen(0, "127.0.0.1", () => process.stdout.write(`port ${http.address().port}\n`));
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else {
  process.stderr.write(`official-agent: unknown mode ${mode}\n`);
  process.exit(2);
}
