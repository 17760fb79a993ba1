// Process entry for the acpkit benchmark agent.
// Usage: node acpkit-agent.mjs stdio [v2-only|plain-v1]   — ACP over this process's stdio
//        node acpkit-agent.mjs ws                         — @acpkit/transport-websocket; prints `port <n>`
//        node acpkit-agent.mjs http                       — @acpkit/transport-http's endpoint (/acp); prints `port <n>`
//        node acpkit-agent.mjs fleet memory|REDIS_URL     — the same endpoint as a fleet node, its state in a
//                                                           MemoryFleetBackend or on Redis; prints `port <n>`
import { stdioServer } from "@acpkit/transport-stdio";
import { serveAcpkitAgent, servePlainV1Agent } from "./acpkit-app.mjs";

const [mode = "stdio", variant = "default"] = process.argv.slice(2);
if (mode === "stdio") {
  const transport = stdioServer();
  if (variant === "plain-v1") await servePlainV1Agent(transport);
  else serveAcpkitAgent(transport, variant === "v2-only" ? [2] : [1, 2]);
  // No process.exit: as the README's agent, the process ends by itself once its stdin has ended
  // and every answer was written (the shutdown scenario times exactly that).
} else if (mode === "http") {
  // The RFD's remote endpoint, both profiles on /acp (@acpkit/transport-http).
  const { serveEndpoint } = await import("@acpkit/transport-http");
  const server = await serveEndpoint({ port: 0, onConnection: (transport) => serveAcpkitAgent(transport) });
  process.stdout.write(`port ${server.port}\n`);
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else if (mode === "fleet") {
  const { serveEndpoint, MemoryFleetBackend } = await import("@acpkit/transport-http");
  let backend;
  if (variant === "memory") backend = new MemoryFleetBackend();
  else {
    const { RedisFleetBackend } = await import("@acpkit/fleet-redis");
    backend = new RedisFleetBackend({ url: variant, prefix: `bench-${process.pid}:` });
    await backend.ready();
  }
  const server = await serveEndpoint({ port: 0, fleet: { backend, nodeId: `bench-${process.pid}` }, onConnection: (transport) => serveAcpkitAgent(transport) });
  process.stdout.write(`port ${server.port}\n`);
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else if (mode === "ws") {
  const { listen } = await import("@acpkit/transport-websocket");
  const listener = await listen({ port: 0, onConnection: (transport) => serveAcpkitAgent(transport) });
  process.stdout.write(`port ${listener.port}\n`);
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else {
  process.stderr.write(`acpkit-agent: unknown mode ${mode}\n`);
  process.exit(2);
}
