// createAcpEndpoint(): the remote endpoint of the transport RFD as one object with an adapter per
// kind of server: `node` for node:http and node:http2 request events, `upgrade` for their upgrade
// event (the WebSocket profile), `fetch` for runtimes that hand out fetch Requests.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { fromFetchRequest, toFetchResponse } from "./fetch-adapter.js";
import { EndpointCore } from "./handle.js";
import { refusal } from "./replies.js";
import { fromNodeRequest, type NodeRequest, type NodeResponse, writeNodeReply } from "./node-adapter.js";
import type { EndpointLimits, EndpointOptions } from "./types.js";
import { upgradeHandler } from "./websocket-upgrade.js";

/** How long close() lets open streams deliver what their connections still hold. */
const STREAM_FLUSH_MS = 5000;

/** The endpoint: hand it requests from whichever server you run. */
export interface AcpEndpoint {
  /** Handle a node:http or node:http2 (compatibility API) request: `http.createServer(endpoint.node)`. */
  readonly node: (request: NodeRequest, response: NodeResponse) => void;
  /** Take a WebSocket upgrade (the RFD's WebSocket profile): `server.on("upgrade", endpoint.upgrade)`. */
  readonly upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Handle a fetch Request (HTTP+SSE profile only; a WebSocket upgrade gets 426). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Open connections, both profiles. */
  readonly connectionCount: number;
  /** The limits in force (the defaults with the options' overrides). */
  readonly limits: Readonly<EndpointLimits>;
  /**
   * Refuse new connections (503) and close the open ones: their agents' transports close, and open
   * streams deliver what was queued, then end (a WebSocket gets 1001). Resolves once that is done.
   */
  close(reason?: string): Promise<void>;
}

/**
 * Create the ACP remote endpoint (HTTP+SSE and WebSocket profiles, docs/remote.md). Every new
 * connection is handed to `options.onConnection` as a Transport to serve an agent on.
 *
 * ```ts
 * import { createServer } from "node:http";
 * const endpoint = createAcpEndpoint({ onConnection: (transport) => serveAgent(transport, myAgent) });
 * const server = createServer(endpoint.node).on("upgrade", endpoint.upgrade).listen(8080, "127.0.0.1");
 * ```
 */
export function createAcpEndpoint(options: EndpointOptions): AcpEndpoint {
  const core = new EndpointCore(options);
  // Streams being written: close() lets them deliver what their connection still holds.
  const writing = new Set<Promise<void>>();
  const plainUpgrade = upgradeHandler(core, false);
  const secureUpgrade = upgradeHandler(core, true);
  return {
    node(request, response) {
      const secure = isEncrypted(request);
      core.handle(fromNodeRequest(request), secure).then(
        (reply) => {
          const written = writeNodeReply(reply, response).catch(() => {});
          if ("stream" in reply) {
            writing.add(written);
            void written.finally(() => writing.delete(written));
          }
        },
        (error: unknown) => writeNodeReply(refusal(500, `the endpoint failed: ${(error as Error).message}`, null, {}, -32603), response),
      );
    },
    upgrade(request, socket, head) {
      (isEncrypted(request) ? secureUpgrade : plainUpgrade)(request, socket, head);
    },
    async fetch(request) {
      try {
        return toFetchResponse(await core.handle(fromFetchRequest(request), new URL(request.url).protocol === "https:"));
      } catch (error) {
        return toFetchResponse(refusal(500, `the endpoint failed: ${(error as Error).message}`, null, {}, -32603));
      }
    },
    get connectionCount() {
      return core.connectionCount;
    },
    limits: core.limits,
    async close(reason) {
      await core.close(reason);
      // Each open stream ends once it delivered what its connection held (bounded: a client that
      // stopped reading must not hold the shutdown).
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(writing), new Promise((resolve) => (timer = setTimeout(resolve, STREAM_FLUSH_MS)))]);
      clearTimeout(timer);
    },
  };
}

function isEncrypted(request: NodeRequest | IncomingMessage): boolean {
  return (request.socket as { encrypted?: boolean } | null)?.encrypted === true;
}
