// An agent served over WebSocket behind a bearer token: a connection without the token is refused
// with 401 before any ACP message, each accepted connection gets a session of its own, and the
// server stops cleanly on SIGINT/SIGTERM. The token comes from ACP_TOKEN (never a command-line
// argument, which other local users can read).
//
//   ACP_TOKEN=$(openssl rand -hex 16) npx tsx typed/token-server.ts 8765
//   acpkit run --ws ws://127.0.0.1:8765/acp --token "$ACP_TOKEN" --prompt "hello"
import { serveAgent } from "@acpkit/agent";
import { listen } from "@acpkit/transport-websocket";

const token = process.env.ACP_TOKEN;
if (!token || token.length < 16) {
  console.error("set ACP_TOKEN to a secret of at least 16 characters");
  process.exit(2);
}

const listener = await listen({
  host: "127.0.0.1",
  port: Number(process.argv[2] ?? 0), // 0: any free port
  token, // required on every connection: Authorization: Bearer <token> (browsers: ?access_token=)
  onConnection(transport, request) {
    const server = serveAgent(transport, {
      info: { name: "token-server", version: "1.0.0" },
      async prompt(turn) {
        const text = turn.prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
        turn.message(`You reached me over WebSocket and said: ${text}`);
        return "end_turn";
      },
    });
    console.error(`connection from ${request.socket.remoteAddress}`);
    server.closed.then((info) => console.error(`connection closed: ${info.reason ?? "done"}`));
  },
});
// The one line on stdout: where to connect.
console.log(listener.url);

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    void listener.close().then(() => process.exit(0));
  });
