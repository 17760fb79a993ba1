#!/usr/bin/env node
// An ACP agent served over WebSocket on 127.0.0.1: one agent connection per socket, one JSON-RPC
// message per text frame. Prints `listening ws://127.0.0.1:PORT/acp`; browsers on a loopback origin
// (http://localhost:*, http://127.0.0.1:*) may connect, any other origin is refused.
//
//   node websocket/agent.mjs [port]
import { serveAgent } from "@acpkit/agent";
import { listen } from "@acpkit/transport-websocket";

const agent = {
  info: { name: "websocket-agent", version: "1.0.0" },
  async prompt(turn) {
    const text = turn.prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    const message = turn.message();
    for (const word of text.split(/\s+/).filter(Boolean)) message.append(`${word.toUpperCase()} `);
    return "end_turn";
  },
};

const listener = await listen({ port: Number(process.argv[2] ?? 0), onConnection: (transport) => serveAgent(transport, agent) });
console.log(`listening ${listener.url}`);
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => void listener.close().then(() => process.exit(0)));
