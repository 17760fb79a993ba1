// What `checkClient` checks: a client command, started once per scenario with the checking
// agent's command line in place of its `{agent}` argument, or a client in the same process,
// handed one end of an in-process channel per scenario.
import type { Transport } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";

/** A client command line; the element `{agent}` stands for the checking agent's command line. */
export interface ClientCommandTarget {
  argv: readonly string[];
  /** The client's working directory (default: the check's cwd). */
  cwd?: string;
  /** Added to the checker's environment. */
  env?: Readonly<Record<string, string>>;
}

/**
 * A client in the same process: `run(transport)` is called once per scenario with the client's
 * end of a fresh channel to the checking agent, and drives the client over it (initialize, a
 * session, a prompt, a cancel if it cancels). The run is over when its promise settles; the
 * checker then closes the channel. A client that cannot finish on its own is stopped waiting for
 * at the scenario's time limit.
 */
export interface InProcessClientTarget {
  /** Drives the client over `transport` for one scenario; the run is over when it settles. */
  run: (transport: Transport) => Promise<void> | void;
}

/** What `checkClient` checks. */
export type ClientTarget = ClientCommandTarget | InProcessClientTarget;

/** How `checkClient` runs the client. Every field has a default. */
export interface ClientCheckOptions {
  /** The client command's working directory (default: process.cwd()). */
  cwd?: string;
  /** How long the slow scenario's prompt takes, in ms (default 12000). */
  slowMs?: number;
  /** How long one client run may take beyond its scenario's own waits, in ms (default 20000). */
  timeoutMs?: number;
  /** The highest version the checking agent speaks; it answers lower offers with the offer (default 2). */
  maxProtocol?: ProtocolVersion;
}

/** The options with their defaults, and the target. */
export interface ClientCheckContext {
  target: ClientTarget;
  cwd: string;
  slowMs: number;
  timeoutMs: number;
  maxProtocol: ProtocolVersion;
}

export function clientContextOf(target: ClientTarget, options: ClientCheckOptions): ClientCheckContext {
  const fields = (typeof target === "object" && target !== null ? target : {}) as Record<string, unknown>;
  if (Array.isArray(fields.argv)) {
    if (fields.argv.length === 0 || !fields.argv.every((part) => typeof part === "string"))
      throw new TypeError("checkClient: target.argv must be a non-empty list of strings");
    if (!fields.argv.includes("{agent}"))
      throw new TypeError("checkClient: target.argv must contain the element {agent}, which is replaced by the checking agent's command line");
  } else if (typeof fields.run !== "function")
    throw new TypeError("checkClient: the target must be { argv: [...with {agent}], cwd?, env? } or { run: (transport) => Promise<void> }");
  for (const name of ["slowMs", "timeoutMs"] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value > 0))
      throw new TypeError(`checkClient: options.${name} must be a positive integer of milliseconds (got ${JSON.stringify(value)})`);
  }
  if (options.maxProtocol !== undefined && options.maxProtocol !== 1 && options.maxProtocol !== 2)
    throw new TypeError(`checkClient: options.maxProtocol must be 1 or 2 (got ${JSON.stringify(options.maxProtocol)})`);
  return {
    target,
    cwd: options.cwd ?? process.cwd(),
    slowMs: options.slowMs ?? 12_000,
    timeoutMs: options.timeoutMs ?? 20_000,
    maxProtocol: options.maxProtocol ?? 2,
  };
}
