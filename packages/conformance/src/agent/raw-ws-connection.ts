// The checker's raw connection to an agent served over WebSocket (a `{ url }` target). Its own
// module so that `ws` (slow to load through Node's CommonJS interop) is loaded only when a
// check targets a WebSocket; checking a command never pays for it.
import { withoutAccessToken } from "@acpkit/transport-websocket";
import { WebSocket } from "ws";
import { RawConnection } from "./raw-connection.js";

/** An agent served over WebSocket (`--ws URL`): one text frame per message, a fresh socket per group. */
export class RawWsConnection extends RawConnection {
  readonly kind = "websocket";
  readonly spawnError: Promise<Error | undefined>;
  private readonly socket: WebSocket;
  private readonly closedPromise: Promise<void>;

  constructor(url: string, token: string | undefined) {
    super();
    this.socket = new WebSocket(url, { perMessageDeflate: false, ...(token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } }) });
    this.spawnError = new Promise((resolve) => {
      this.socket.once("open", () => resolve(undefined));
      // The error may quote the URL; an access_token in it is shown as "…".
      this.socket.once("error", (error) => resolve(new Error(withoutAccessToken(error.message), { cause: error })));
    });
    this.closedPromise = new Promise((resolve) => {
      this.socket.once("close", (code) => {
        this.onGone({ code, signal: null });
        resolve();
      });
    });
    this.socket.on("message", (data, isBinary) => {
      const text = String(data);
      if (isBinary) this.onFrame(`(binary frame) ${text}`);
      else this.onFrame(text);
    });
  }

  protected writeRaw(text: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  async closeStdin(): Promise<undefined> {
    return undefined;
  }

  async kill(): Promise<void> {
    if (this.gone !== undefined) return;
    this.socket.terminate();
    await this.closedPromise;
  }
}
