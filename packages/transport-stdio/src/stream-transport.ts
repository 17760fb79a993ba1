// The ndjson Transport over any Readable/Writable pair. spawnAgent() and stdioServer() wrap it
// with what differs between a child process and the process's own stdio: how it ends.
import type { Readable, Writable } from "node:stream";
import { AcpError, type CloseInfo, type JsonRpcMessage, type Transport, type TransportReceiver, __transportKit } from "@acpkit/core";

import { NdjsonReader } from "./ndjson-reader.js";
import { NdjsonWriter } from "./ndjson-writer.js";

// The transport kit, from the copy core's main entry carries (one module of core to load).
const { deliverMessage, OUTPUT_HIGH_WATER } = __transportKit;

/** Default maximum size of one incoming line: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

/** Options shared by every ndjson transport. */
export interface NdjsonTransportOptions {
  /** Maximum size in bytes of one incoming line (without its newline). Default 64 MiB. */
  maxMessageSize?: number;
}

/**
 * A Transport that reads newline-delimited JSON from `input` and writes it to `output`.
 * It closes when `input` ends or either stream fails; `shutdown` decides what close() does to the
 * underlying streams and what CloseInfo results.
 */
export class NdjsonStreamTransport implements Transport {
  readonly closed: Promise<CloseInfo>;
  private resolveClosed!: (info: CloseInfo) => void;
  private readonly reader: NdjsonReader;
  private readonly writer: NdjsonWriter;
  private receiver: TransportReceiver | undefined;
  private isClosed = false;
  /** Input is held while either is true: pause() was called, or a backlog waits behind our full output. */
  private pausedByCaller = false;
  private outputBacklogged = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: NdjsonTransportOptions = {},
  ) {
    const maxMessageSize = validateMaxMessageSize(options.maxMessageSize);
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    // While our output is congested the Connection holds its further answers unencoded; once a
    // backlog waits behind a full stream, no more input is read until it drained. What we owe a
    // peer that does not read stays bounded either way (ndjson-writer.ts).
    this.writer = new NdjsonWriter(output, {
      highWater: OUTPUT_HIGH_WATER,
      onChange: (congested) => this.receiver?.onOutputCongestion?.(congested),
      onBacklog: (backlogged) => {
        this.outputBacklogged = backlogged;
        this.applyFlow();
      },
    });
    this.reader = new NdjsonReader(maxMessageSize, {
      onLine: (text) => deliverMessage(this.receiver!, text),
      onInvalidUtf8: (lineNumber) =>
        this.receiver!.onTransportError(
          new AcpError("InvalidMessage", `incoming line ${lineNumber} (or one right after it) is not valid UTF-8; the bad bytes were replaced with U+FFFD`, {
            data: { lineNumber },
          }),
        ),
      onOversizedRequest: (lineNumber, id) =>
        this.receiver!.onTransportError(
          new AcpError("MessageTooLarge", `incoming line ${lineNumber}, a request with id ${JSON.stringify(id)}, was over the size limit and was discarded`, {
            data: { lineNumber, requestId: id },
          }),
        ),
      onOversizedLine: (lineNumber, size, limit) =>
        this.receiver!.onTransportError(
          new AcpError("MessageTooLarge", `incoming line ${lineNumber} is larger than the ${limit}-byte limit (${size} bytes seen); it was discarded`, {
            data: { lineNumber, size, limit },
          }),
        ),
    });
    // Errors on either stream (EPIPE once the peer is gone, …) end the transport instead of
    // crashing the process as an unhandled 'error' event would.
    this.onStreamError = this.onStreamError.bind(this);
    output.on("error", this.onStreamError);
    input.on("error", this.onStreamError);
  }

  start(receiver: TransportReceiver): void {
    if (this.receiver !== undefined) throw new AcpError("ProtocolViolation", "transport.start() was called twice");
    this.receiver = receiver;
    if (this.isClosed) return;
    this.input.on("data", this.onData);
    this.input.once("end", this.onEnd);
  }

  /** Whether start() was called, i.e. someone reads what arrives. */
  protected get isStarted(): boolean {
    return this.receiver !== undefined;
  }

  /**
   * Tell the receiver that input ended while output stays open (a half-closed channel), if it can
   * finish on its own (`onInputEnd`): it then closes the transport once it has answered. Returns
   * false when the receiver cannot, or the transport is already closed.
   */
  protected notifyInputEnd(): boolean {
    if (this.isClosed || this.receiver?.onInputEnd === undefined) return false;
    this.stopReading();
    this.receiver.onInputEnd();
    return true;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    return this.writer.send(message);
  }

  close(reason = "closed locally"): Promise<void> {
    if (!this.isClosed) this.shutdown(reason);
    return this.closed.then(() => undefined);
  }

  /** Stop reading input until `resume()`: the peer's writes block once the pipe is full (flow control). */
  pause(): void {
    this.pausedByCaller = true;
    this.applyFlow();
  }

  /** Read input again after `pause()` (once our own output is not congested either). */
  resume(): void {
    this.pausedByCaller = false;
    this.applyFlow();
  }

  private applyFlow(): void {
    if (this.isClosed) return;
    if (this.pausedByCaller || this.outputBacklogged) this.input.pause();
    else if (this.receiver !== undefined) this.input.resume();
  }

  /**
   * Start closing: reject further sends, write out what is queued, end the output. Subclasses
   * extend this to stop the peer; they call finish() when the channel is really gone.
   */
  protected shutdown(reason: string): void {
    this.beginClose(reason);
    this.stopReading();
    this.finish({ reason });
  }

  /**
   * Refuse further sends, write out what is already queued (unless the stream is blocked: those
   * sends reject) and end the output, which tells the peer we are done.
   */
  protected beginClose(reason: string): void {
    this.isClosed = true;
    this.writer.flushNow();
    this.writer.fail(closedError(reason));
    this.output.end();
  }

  /** Input reached end of stream: the peer is done writing. */
  protected onInputEnded(): void {
    if (!this.isClosed) this.shutdown("peer closed the stream");
  }

  protected onStreamError(error: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.writer.fail(closedError(`stream error: ${error.message}`));
    this.stopReading();
    this.finish({ reason: `stream error: ${error.message}`, error });
  }

  protected stopReading(): void {
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.pause();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.reader.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  };

  private readonly onEnd = (): void => {
    this.reader.end();
    this.onInputEnded();
  };

  /** Settle `closed` (first call wins) and make later sends reject. */
  protected finish(info: CloseInfo): void {
    this.isClosed = true;
    this.writer.fail(closedError(info.reason));
    this.resolveClosed(info);
  }
}

function closedError(reason: string): AcpError {
  return new AcpError("ConnectionClosed", `the stdio transport is closed (${reason})`);
}

export function validateMaxMessageSize(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_MESSAGE_SIZE;
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`maxMessageSize must be a positive integer number of bytes, got ${String(value)}`);
  }
  return value;
}
