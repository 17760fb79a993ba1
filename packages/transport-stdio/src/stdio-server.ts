// stdioServer(): the agent side of stdio (docs/protocol.md §8.1 S1, S5). The agent reads requests from
// its own stdin and writes only protocol lines to its stdout; anything else would corrupt the
// stream for the client, so console output is moved to stderr by default.
import { formatLikeConsole } from "./node-builtins.js";
import { NdjsonStreamTransport, type NdjsonTransportOptions } from "./stream-transport.js";

/** Options of `stdioServer`. */
export interface StdioServerOptions extends NdjsonTransportOptions {
  /**
   * Send console.log/info/debug (which write to stdout) to stderr instead, so a stray log line
   * cannot corrupt the protocol stream. Default true.
   */
  redirectConsoleToStderr?: boolean;
}

/** The agent's transport over this process's stdin/stdout. */
export class ProcessStdioTransport extends NdjsonStreamTransport {
  constructor(options: StdioServerOptions = {}) {
    super(process.stdin, process.stdout, options);
  }

  protected override beginClose(reason: string): void {
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
 * `closed` resolves when stdin ends. close() writes out queued messages and stops reading; the
 * process then exits on its own when nothing else keeps it alive.
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
