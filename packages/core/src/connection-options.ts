// The options of a Connection, their defaults, and the development-mode default for checking what
// is sent. Apart from connection.ts so the peer itself reads as one job.
import type { Side } from "./method-types.js";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "./outgoing-requests.js";
import type { MethodRegistry, ProtocolVersion } from "./registry.js";

/** How a `Connection` behaves: which side it is, its version, and what it checks. */
export interface ConnectionOptions<S extends Side = Side> {
  /** Which end we are; incoming methods are accepted, and outgoing ones sent, only in their registry direction. */
  side: S;
  /** The protocol version, when known up front; otherwise set it later with `setVersion`. */
  version?: ProtocolVersion;
  /**
   * Agent side: docs/protocol.md N8. Before a successful `initialize` every other request gets -32600
   * "connection not initialized", notifications are dropped, a batch gets one -32600; a second
   * `initialize` gets -32600.
   */
  requireInitialize?: boolean;
  /**
   * Validate what we send (params, and handler results) against the version's schema and
   * conformance rules, so a bug surfaces at the call site. Default: on, unless
   * `process.env.NODE_ENV === "production"`.
   */
  validateOutgoing?: boolean;
  /** The method registry to dispatch and validate against. Default: the one in `@acpkit/schema`. */
  registry?: MethodRegistry;
  /**
   * How long a request waits for its answer unless `RequestOptions.timeoutMs` says otherwise:
   * `DEFAULT_REQUEST_TIMEOUT_MS` (60 s) by default, `null` for no limit. Open-ended methods
   * (`UNTIMED_METHODS`: session/prompt, permission and elicitation questions, …) never get it.
   */
  requestTimeoutMs?: number | null;
  /**
   * How many of the peer's requests may run at once (docs/protocol.md E8): one more is answered at
   * once with -32603 and `data: {"reason": "too_many_requests", "limit": n}`, so a peer that keeps
   * asking without waiting cannot grow our memory without bound. `DEFAULT_MAX_RUNNING_REQUESTS`
   * (1024) by default; `null` for no limit.
   */
  maxRunningRequests?: number | null;
}

/** How many of the peer's requests a Connection runs at once unless `maxRunningRequests` says otherwise. */
export const DEFAULT_MAX_RUNNING_REQUESTS = 1024;

/**
 * Whether a Connection validates what it sends when `validateOutgoing` is not given: yes, unless
 * `process.env.NODE_ENV === "production"`. The runtimes use it to decide which validators to load
 * (outgoing checks need all of a version's, incoming ones only their side's part).
 */
export function defaultValidateOutgoing(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.NODE_ENV !== "production";
}

/** The two limits of `options`, with their defaults, checked: a TypeError names the one that is wrong. */
export function checkedLimits(options: Pick<ConnectionOptions, "requestTimeoutMs" | "maxRunningRequests">): {
  requestTimeoutMs: number | null;
  maxRunning: number;
} {
  const requestTimeoutMs = options.requestTimeoutMs === undefined ? DEFAULT_REQUEST_TIMEOUT_MS : options.requestTimeoutMs;
  if (requestTimeoutMs !== null && !(Number.isFinite(requestTimeoutMs) && requestTimeoutMs > 0)) {
    throw new TypeError(`Connection: options.requestTimeoutMs must be a positive number of milliseconds or null, got ${String(requestTimeoutMs)}`);
  }
  const maxRunning = options.maxRunningRequests === undefined ? DEFAULT_MAX_RUNNING_REQUESTS : options.maxRunningRequests;
  if (maxRunning !== null && !(Number.isInteger(maxRunning) && maxRunning > 0)) {
    throw new TypeError(`Connection: options.maxRunningRequests must be a positive integer or null, got ${String(maxRunning)}`);
  }
  return { requestTimeoutMs, maxRunning: maxRunning ?? Number.POSITIVE_INFINITY };
}
