// The shapes the endpoint's parts share: a request as the endpoint reads it (from node:http, HTTP/2
// or a fetch Request), and its reply (a body, or an SSE stream fed from an outbox).
import type { Transport } from "@acpkit/core";
import type { FleetOptions } from "../fleet/backend.js";
import type { OutboxReader } from "./outbox.js";

/** A request, as the endpoint needs it: every adapter can give this. */
export interface EndpointRequest {
  readonly method: string;
  /** The request target (path and query). */
  readonly target: string;
  /** A header's value (names are case-insensitive), or undefined. */
  header(name: string): string | undefined;
  /** The body as text, or undefined once it passed `limit` bytes (reading stops there). */
  body(limit: number): Promise<string | undefined>;
}

/** What the endpoint answers: a finished body, or a stream of messages. */
export type EndpointReply =
  | { readonly status: number; readonly headers: Record<string, string>; readonly body?: string }
  | { readonly status: 200; readonly headers: Record<string, string>; readonly stream: OutboxReader };

/** Which of the RFD's two profiles a connection came in by. */
export type EndpointProfile = "http" | "websocket";

/** What `onConnection` learns about a new connection. */
export interface ConnectionInfo {
  /** The `Acp-Connection-Id` the client was given. */
  readonly connectionId: string;
  /** The profile the connection came in by: "http" (HTTP+SSE) or "websocket". */
  readonly profile: EndpointProfile;
  /** A header of the request that opened the connection (the initialize POST or the upgrade). */
  header(name: string): string | undefined;
}

/** Limits of the endpoint; every one a peer could otherwise push without bound. */
export interface EndpointLimits {
  /** Open connections, both profiles together; an initialize or upgrade past it gets 503. Default 1000. */
  maxConnections: number;
  /** Bytes of one POST body; more gets 413. Default 16 MiB. */
  maxBodyBytes: number;
  /** Characters of a connection id, session id or string request id; more gets 400. Default 1024. */
  maxIdLength: number;
  /**
   * Characters of agent output one connection holds for its client; past it the agent's sends wait
   * and new client requests wait. Default 16 Mi.
   */
  maxBufferedChars: number;
  /** How long output may wait on a client that reads nothing before the connection is closed. Default 60 000 ms. */
  maxOutputStallMs: number;
  /** Session streams of one connection that hold output with no reader; one more closes the connection. Default 1024. */
  maxSessionStreams: number;
  /** A connection with no request and no open stream for this long is closed. Default 300 000 ms. */
  idleTimeoutMs: number;
  /** How long the initialize POST waits for the agent's answer before 504. Default 60 000 ms. */
  initializeTimeoutMs: number;
  /** Requests of one connection the agent has not answered yet; one more gets 429. Default 4096. */
  maxPendingRequests: number;
}

/** The defaults of EndpointLimits. */
export const DEFAULT_ENDPOINT_LIMITS: Readonly<EndpointLimits> = Object.freeze({
  maxConnections: 1000,
  maxBodyBytes: 16 * 1024 * 1024,
  maxIdLength: 1024,
  maxBufferedChars: 16 * 1024 * 1024,
  maxOutputStallMs: 60_000,
  maxSessionStreams: 1024,
  idleTimeoutMs: 300_000,
  initializeTimeoutMs: 60_000,
  maxPendingRequests: 4096,
});

/** Options of `createAcpEndpoint`. */
export interface EndpointOptions {
  /**
   * Called once per new connection with the transport to serve it on (`serveAgent(transport, …)`, or
   * a relay to a child process). The transport closes when the client sends DELETE, goes idle, or
   * the endpoint closes.
   */
  onConnection(transport: Transport, info: ConnectionInfo): void;
  /** The path that serves ACP; others get 404. Default "/acp". */
  path?: string;
  /**
   * Require `Authorization: Bearer <token>` on every request (a browser's WebSocket, which cannot
   * set headers, may pass `access_token` in the query instead). Compared in constant time.
   */
  token?: string;
  /**
   * Host header values (host or host:port) served; others get 421, which defeats DNS rebinding.
   * Default: loopback names only when no `token` is set, any host with one.
   */
  allowedHosts?: readonly string[] | "any";
  /**
   * Browser origins allowed besides the page's own origin and loopback origins; others get 403.
   * Requests without Origin (non-browser clients) are not affected. "any" turns the check off.
   */
  allowedOrigins?: readonly string[] | "any";
  /** Override some limits; the rest keep DEFAULT_ENDPOINT_LIMITS. */
  limits?: Partial<EndpointLimits>;
  /**
   * Streams that resume (RT26–RT28; beyond the RFD, opt-in): every SSE event carries an id, the
   * last events handed out are kept (at most `maxEvents`, default 1000, and `maxChars`, default
   * 4 Mi characters, per stream), and a reader that comes back with `Last-Event-ID` gets what it
   * missed, in order, once; past the window, a gap notice. Advertised to clients in the
   * initialize result's `_meta` (`RESUME_META_KEY`). `true` takes the defaults.
   */
  resume?: boolean | { maxEvents?: number; maxChars?: number };
  /**
   * Serve as one node of a fleet (docs/remote.md §7): the HTTP+SSE profile's connections and streams
   * live in `fleet.backend`, shared with the other nodes, so any node takes any request for any
   * connection, streams resume across nodes, and a dead node's connections are adopted by a live
   * one. WebSocket connections stay with the node that accepted them.
   */
  fleet?: FleetOptions;
}
