// Where the fuzz talks to the receiver: raw lines in, raw lines out. "memory" hands text straight
// to an in-process runtime (as the memory transport does); "stdio" writes bytes to a real pipe, so
// framing, partial reads and invalid UTF-8 take the real path.
import { type ChildProcess, spawn } from "node:child_process";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { AcpError, type CloseInfo, type JsonRpcMessage, RpcError, type Transport, type TransportReceiver } from "@acpkit/core";
import { deliverMessage } from "@acpkit/core/transport-kit";
import { serveAgent } from "@acpkit/agent";
import { ChildProcessTransport } from "@acpkit/transport-stdio";
import { fuzzAgent } from "../fixtures/fuzz-agent.mjs";

/** One end of a raw channel: the fuzz writes bytes, reads the receiver's lines. */
export interface RawPeer {
  readonly kind: "memory" | "stdio";
  /** Whether invalid UTF-8 can be sent (stdio carries bytes; memory carries strings). */
  readonly bytes: boolean;
  write(bytes: Uint8Array, lines: readonly string[]): void;
  /** Lines the receiver wrote, oldest first; drained by the caller. */
  readonly received: string[];
  /** Diagnostics the receiver reported so far (dropped input and the like). */
  diagnostics(): number;
  close(): Promise<void>;
}

/** A Transport whose far end is the fuzz: incoming text is injected, outgoing messages are recorded as lines. */
export class InjectingTransport implements Transport {
  readonly closed: Promise<CloseInfo>;
  private resolveClosed!: (info: CloseInfo) => void;
  private receiver: TransportReceiver | undefined;
  private done = false;
  constructor(private readonly onLine: (line: string) => void) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }
  start(receiver: TransportReceiver): void {
    this.receiver = receiver;
  }
  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.done) return Promise.reject(new AcpError("ConnectionClosed", "closed"));
    this.onLine(JSON.stringify(message));
    return Promise.resolve();
  }
  close(reason = "closed"): Promise<void> {
    if (!this.done) {
      this.done = true;
      this.resolveClosed({ reason });
    }
    return Promise.resolve();
  }
  inject(text: string): void {
    if (!this.done && this.receiver) deliverMessage(this.receiver, text);
  }
}

const fixtures = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** The fuzz agent in this process behind an injecting transport. */
export function memoryAgent(): RawPeer {
  const received: string[] = [];
  const transport = new InjectingTransport((line) => received.push(line));
  let diagnostics = 0;
  const server = serveAgent(transport, fuzzAgent({ RpcError }), { validateOutgoing: true });
  server.onDiagnostic(() => diagnostics++);
  return {
    kind: "memory",
    bytes: false,
    received,
    write: (_bytes, lines) => {
      for (const line of lines) transport.inject(line);
    },
    diagnostics: () => diagnostics,
    close: () => server.close(),
  };
}

function lineSplitter(onLine: (line: string) => void): (chunk: Buffer) => void {
  let buffered = "";
  return (chunk) => {
    buffered += chunk.toString("utf8");
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== "") onLine(line);
    }
  };
}

/** The fuzz agent as a child process (built packages) over real pipes. */
export function stdioAgent(): RawPeer {
  const child: ChildProcess = spawn(process.execPath, [fixtures("serve-fuzz-agent.mjs")], { stdio: ["pipe", "pipe", "pipe"] });
  const received: string[] = [];
  let diagnostics = 0;
  child.stdout!.on(
    "data",
    lineSplitter((line) => received.push(line)),
  );
  child.stderr!.on(
    "data",
    lineSplitter(() => diagnostics++),
  );
  child.stdin!.on("error", () => {});
  return {
    kind: "stdio",
    bytes: true,
    received,
    write: (bytes) => void child.stdin!.write(bytes),
    diagnostics: () => diagnostics,
    async close() {
      child.stdin!.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** The other way round: a channel into a client. `transport` is what connectAgent gets. */
export interface ClientChannel extends Omit<RawPeer, "diagnostics"> {
  readonly transport: Transport;
}

/** The client in this process behind an injecting transport. */
export function memoryClientChannel(): ClientChannel {
  const received: string[] = [];
  const transport = new InjectingTransport((line) => received.push(line));
  return {
    kind: "memory",
    bytes: false,
    transport,
    received,
    write: (_bytes, lines) => {
      for (const line of lines) transport.inject(line);
    },
    close: () => transport.close(),
  };
}

/**
 * The client in this process talking stdio to a relay child: bytes the fuzz writes to the child's
 * fd 3 come out of its stdout unchanged into the client's real stdio reader.
 */
export function stdioClientChannel(): ClientChannel {
  const child = spawn(process.execPath, [fixtures("relay-peer.mjs")], { stdio: ["pipe", "pipe", "inherit", "pipe"] });
  const control = child.stdio[3] as Duplex;
  const received: string[] = [];
  control.on(
    "data",
    lineSplitter((line) => received.push(line)),
  );
  control.on("error", () => {});
  const transport = new ChildProcessTransport(child, { shutdownGraceMs: 500 });
  return {
    kind: "stdio",
    bytes: true,
    transport,
    received,
    write: (bytes) => void control.write(bytes),
    close: () => transport.close(),
  };
}
