// Process entry for the raw-ceiling agent. Usage: node raw-agent.mjs stdio | stdio-naive | ws (ws prints `port <n>`).
// stdio: what a careful hand-written agent does — lines are gathered into one string and written
// once it reaches 64 KiB (and when a message has been handled), so a stream costs one write per
// ~64 KiB. stdio-naive: one write() per message, the first round's ceiling.
import { handleRawMessage } from "./raw-app.mjs";

const COALESCE_BYTES = 64 * 1024;
const mode = process.argv[2] ?? "stdio";
if (mode === "stdio" || mode === "stdio-naive") {
  const out = process.stdout;
  let gathered = "";
  const flush = () => {
    if (gathered === "") return true;
    const ok = out.write(gathered);
    gathered = "";
    return ok;
  };
  const send =
    mode === "stdio-naive"
      ? (message) => out.write(JSON.stringify(message) + "\n")
      : (message) => {
          gathered += JSON.stringify(message) + "\n";
          return gathered.length < COALESCE_BYTES || flush();
        };
  const drained = () => new Promise((resolve) => out.once("drain", resolve));
  let pending = "";
  let queue = Promise.resolve();
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop();
    for (const line of lines) {
      if (!line) continue;
      const message = JSON.parse(line);
      queue = queue.then(() => handleRawMessage(message, send, drained)).then(flush);
    }
  });
  process.stdin.on("end", () => queue.then(() => process.exit(0)));
} else if (mode === "ws") {
  const { WebSocketServer } = await import("ws");
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 }, () => process.stdout.write(`port ${wss.address().port}\n`));
  wss.on("connection", (socket) => {
    // ws has no write-returns-false signal; watch bufferedAmount like any ws user would.
    const send = (message) => {
      socket.send(JSON.stringify(message));
      return socket.bufferedAmount < 1 << 20;
    };
    const drained = () =>
      new Promise((resolve) => {
        const check = () => (socket.bufferedAmount < 1 << 18 ? resolve() : setTimeout(check, 1));
        check();
      });
    let queue = Promise.resolve();
    socket.on("message", (data) => {
      const message = JSON.parse(String(data));
      queue = queue.then(() => handleRawMessage(message, send, drained));
    });
  });
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else {
  process.stderr.write(`raw-agent: unknown mode ${mode}\n`);
  process.exit(2);
}
