// The Transport contract: transports move whole messages and own the framing (ndjson lines,
// WebSocket text frames, in-memory handoff). JSON-RPC meaning (ids, methods, errors) is core's.
import type { AcpError } from "./errors.js";
import { valueKind } from "./json.js";

/** Any JSON-RPC 2.0 message object; core builds and checks the concrete shapes. */
export type JsonRpcMessage = { jsonrpc: "2.0"; [key: string]: unknown };

/** Why and how a transport closed. */
export interface CloseInfo {
  /** One short human sentence: "peer closed stdin", "child exited with code 1", "close frame 1006". */
  reason: string;
  /** Child process exit code, when the transport wraps a child. */
  exitCode?: number | null;
  /** Signal that ended the child process, when it was one. */
  signal?: string | null;
  /** WebSocket close code, when the transport is a WebSocket. */
  closeCode?: number;
  /** The underlying error, when an error closed the transport. */
  error?: unknown;
}

/** Where a transport delivers what it receives. Connection implements it. */
export interface TransportReceiver {
  /**
   * One incoming message, in arrival order: the raw text of one frame/line (core parses it), or an
   * already-decoded value (the in-memory pair in object mode).
   */
  onMessage(message: string | object): void;
  /** A framing problem the transport recovered from (oversized line, binary frame, …). */
  onTransportError(error: AcpError): void;
  /**
   * Optional: the peer closed its sending side (the agent's stdin reached end of file) but still
   * reads what this side sends. A receiver that has this answers what it already received and
   * then calls the transport's `close()`; a transport whose receiver lacks it closes at once.
   * Only transports with a half-closed state (stdioServer) call it, and at most once.
   */
  onInputEnd?(): void;
  /**
   * Optional: called with true when this side's unsent output passed the transport's high-water
   * mark (`OUTPUT_HIGH_WATER`, the peer is not reading), and with false once it drained. A
   * Connection then holds the answers to the peer's requests as objects instead of handing them
   * over, so a burst of requests with large answers (all read before the channel filled) is
   * encoded one at a time as the peer reads, not all at once. Called synchronously inside
   * `send()` when that send passed the mark.
   */
  onOutputCongestion?(congested: boolean): void;
}

/** Moves whole JSON-RPC messages over one channel; implemented by the stdio, WebSocket and memory transports. */
export interface Transport {
  /** Begin delivering incoming messages to `receiver`. Called once, by the Connection. */
  start(receiver: TransportReceiver): void;
  /**
   * Serialize and send one message (or a batch array). Resolves once the channel accepted it;
   * when the channel is full it waits for it to drain (backpressure). Writes are serialized and a
   * message is never split. Rejects with AcpError "ConnectionClosed" once the transport is closed.
   */
  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void>;
  /** Close the channel (and, for a child process, end it). Idempotent. */
  close(reason?: string): Promise<void>;
  /**
   * Flow control, optional: stop delivering incoming messages until `resume()`, so that the peer's
   * writes block once the channel's buffers are full. A relay pauses the side it reads from while
   * the side it writes to is congested, which keeps its memory bounded; a Connection pauses while
   * messages back up behind a slow notification handler (docs/protocol.md E8). A message or two
   * may still arrive after `pause()`; that is fine. Transports that cannot stop their source (a
   * browser WebSocket) leave these out.
   */
  pause?(): void;
  /** Deliver incoming messages again after `pause()`. */
  resume?(): void;
  /** Resolves once, when the transport has closed for any reason. Never rejects. */
  readonly closed: Promise<CloseInfo>;
}

/**
 * What keeps `value` from being a Transport (start, send and close functions and a `closed`
 * promise), or `undefined` when it has all four. `Connection`, `connectAgent` and `serveAgent`
 * check their argument with it, so passing something else (a URL, `null`, a stream) fails at once
 * with this sentence instead of a TypeError from deep inside.
 */
export function describeTransportProblem(value: unknown): string | undefined {
  const shape = "an object with start(receiver), send(message), close() and a closed promise";
  if (typeof value !== "object" || value === null) return `the transport must be ${shape}, got ${valueKind(value)}`;
  const fields = value as Record<string, unknown>;
  const missing = ["start", "send", "close"].filter((name) => typeof fields[name] !== "function");
  if (typeof (fields.closed as { then?: unknown } | null | undefined)?.then !== "function") missing.push("closed");
  return missing.length === 0 ? undefined : `the transport must be ${shape}; this one has no ${missing.join(", ")}`;
}
