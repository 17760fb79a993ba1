// The checker's raw connection to an agent in the same process, over a Transport the caller made
// (`{ transport: () => … }`, for example one end of createMemoryPair with serveAgent on the
// other). A transport moves whole messages, not text: what the checker writes is parsed and sent
// as an object, and what arrives is recorded as its JSON text. So the checks about lines and
// bytes (framing, UTF-8, a line that is not JSON, exit on end of input) cannot be shown here and
// are not_applicable; every other check runs as it does against a process.
import type { Transport } from "@acpkit/core";
import { RawConnection } from "./raw-connection.js";

export class RawTransportConnection extends RawConnection {
  readonly spawnError: Promise<Error | undefined>;
  private transport: Transport | undefined;

  /** `kind` says what the transport is: one the caller made ("in-process"), or the HTTP+SSE client to an endpoint ("http"). */
  constructor(
    factory: () => Transport | Promise<Transport>,
    readonly kind: "in-process" | "http" = "in-process",
  ) {
    super();
    this.spawnError = this.open(factory);
  }

  private async open(factory: () => Transport | Promise<Transport>): Promise<Error | undefined> {
    try {
      const transport = await factory();
      transport.start({
        onMessage: (message) => this.onFrame(typeof message === "string" ? message : JSON.stringify(message)),
        onTransportError: (error) => this.onFrame(`(transport error) ${error.message}`),
      });
      void transport.closed.then((info) => this.onGone({ code: info.exitCode ?? null, signal: info.signal ?? null }, info.reason));
      this.transport = transport;
      return undefined;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  protected writeRaw(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      // The checks that write text that is not JSON do not run in-process (see above).
      return;
    }
    this.transport?.send(message as never).catch(() => {
      // Closed under us: the check that waits for the answer reports it missing.
    });
  }

  async closeStdin(): Promise<undefined> {
    return undefined;
  }

  async kill(): Promise<void> {
    if (this.gone !== undefined || this.transport === undefined) return;
    this.killRequested = true;
    await this.transport.close("the conformance check is done with this connection");
  }
}
