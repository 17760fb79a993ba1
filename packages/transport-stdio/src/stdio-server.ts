// stdioServer(): the agent side of stdio (docs/protocol.md §8.1 S1, S5). The agent reads requests from
// its own stdin and writes only protocol lines to its stdout; anything else would corrupt the
// stream for the client, so console output is moved to stderr by default.
import { formatLikeConsole } from "./node-builtins.js";
import { NdjsonStreamTransport, type NdjsonTransportOptions } from "./stream-transport.js";

/** Default of `StdioServerOptions.inputEndGraceMs`: how long answers may take once stdin ended. */
export const DEFAULT_INPUT_END_GRACE_MS = 2000;

/** Options of `stdioServer`. */
export interface StdioServerOptions extends NdjsonTransportOptions {
  /**
   * Send console.log/info/debug (which write to stdout) to stderr instead, so a stray log line
   * cannot corrupt the protocol stream. Default true.
   */
  redirectConsoleToStderr?: boolean;
  /**
   * When stdin ends, the connection still answers what it received (running turns are cancelled)
   * and then closes; this bounds that wait, in milliseconds. Default 2000; 0 closes at once,
   * dropping unanswered requests.
   */
  inputEndGraceMs?: number;
}

/** The agent's transport over this process's stdin/stdout. */
export class ProcessStdioTransport extends NdjsonStreamTransport {
  private readonly inputEndGraceMs: number;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: StdioServerOptions = {}) {
    const grace = options.inputEndGraceMs ?? DEFAULT_INPUT_END_GRACE_MS;
    if (!Number.isFinite(grace) || grace < 0) throw new RangeError(`inputEndGraceMs must be a non-negative number of milliseconds, got ${String(grace)}`);
    super(process.stdin, process.stdout, options);
    this.inputEndGraceMs = grace;
  }

  // stdin ended, stdout is still open: the client may still read (`printf '…' | agent` too), so
  // the connection answers what it received before closing (docs/protocol.md S9). The timer is
  // what keeps ACPKIT-EXIT-001 (exit soon after stdin closes) true when a handler ignores its
  // signal; it holds the process open only until then.
  // The timer is armed before the receiver hears of the end: with nothing left to answer it closes
  // the transport synchronously inside notifyInputEnd(), and beginClose() must then find the timer
  // to clear. Armed afterwards, it outlived the close and held an idle agent open for the grace.
  protected override onInputEnded(): void {
    if (this.inputEndGraceMs === 0) {
      super.onInputEnded();
      return;
    }
    this.graceTimer = setTimeout(() => {
      void this.close(`peer closed the stream; requests still unanswered after ${this.inputEndGraceMs} ms were dropped`);
    }, this.inputEndGraceMs);
    if (!this.notifyInputEnd()) {
      clearTimeout(this.graceTimer);
      super.onInputEnded();
    }
  }

  protected override beginClose(reason: string): void {
    clearTimeout(this.graceTimer);
    super.beginClose(reason);
    // Let the process exit once nothing else keeps it alive: a paused stdin still holds it open.
    process.stdin.destroy();
  }
}

let consoleRedirected = false;

/**
 * Serve ACP on this process's stdin/stdout. Use it in an agent started by a client:
 *
 * ```ts
 * const transport = stdioServer();
 * serveAgent(transport, myAgent);
 * await transport.closed; // the client closed our stdin
 * ```
 *
 * When stdin ends, the connection answers what it had received (running handlers see their
 * signal abort, so a prompt turn ends "cancelled"; at most `inputEndGraceMs`), then the transport
 * closes and `closed` resolves. close() writes out queued messages and stops reading; the process
 * then exits on its own when nothing else keeps it alive.
 */
export function stdioServer(options: StdioServerOptions = {}): ProcessStdioTransport {
  if (options.redirectConsoleToStderr !== false) redirectConsoleToStderr();
  return new ProcessStdioTransport(options);
}

function redirectConsoleToStderr(): void {
  if (consoleRedirected) return;
  consoleRedirected = true;
  const toStderr = (...args: unknown[]): void => {
    process.stderr.write(formatLikeConsole(...args) + "\n");
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
