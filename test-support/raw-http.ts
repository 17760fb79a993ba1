// One HTTP request written byte for byte on a TCP socket, for requests no HTTP client will send
// (a malformed request target, a hand-made upgrade): resolves with the status line of the answer,
// or "closed" when the server closed without one.
import { connect } from "node:net";

/** Upgrade headers of a valid WebSocket handshake, to put after a request line. */
export const WEBSOCKET_UPGRADE_HEADERS =
  "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";

/** Send `GET <target>` (with `headers`, each ending in CRLF) to 127.0.0.1:`port`; the answer's status line. */
export function rawHttpStatus(port: number, target: string, headers = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}\r\n`);
    });
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
      const end = received.indexOf("\r\n");
      if (end >= 0) {
        resolve(received.slice(0, end));
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve("closed"));
  });
}
