// @acpkit/transport-http (Node entry): the ACP remote endpoint of the "Streamable HTTP & WebSocket"
// transport RFD (docs/remote.md). Server: createAcpEndpoint() for node:http, node:http2 and fetch
// runtimes, serveEndpoint() for a server of its own. Client: connectHttp() (HTTP+SSE) and
// connectRemote() (either profile, by URL scheme). Browsers get ./browser.js (client only).
export { createAcpEndpoint, type AcpEndpoint } from "./server/endpoint.js";
export { serveEndpoint, type EndpointServer, type ServeEndpointOptions } from "./server/serve.js";
export {
  DEFAULT_ENDPOINT_LIMITS,
  type ConnectionInfo,
  type EndpointLimits,
  type EndpointOptions,
  type EndpointProfile,
} from "./server/types.js";
export type { NodeRequest, NodeResponse } from "./server/node-adapter.js";
export { connectHttp, HttpClientTransport, type HttpClientOptions } from "./client/node-connect.js";
export { connectRemote, type RemoteOptions } from "./client/remote.js";
export { MemoryCookieStore, type CookieStore, RECONNECTED_DATA_KEY } from "./common.js";
export { CONNECTION_HEADER, SESSION_HEADER, DEFAULT_ENDPOINT_PATH, RESUME_META_KEY, GAP_EVENT, GAP_METHOD, RESUMED_METHOD, RESUME_QUERY } from "./common.js";
export type {
  Adoption,
  AppendResult,
  ConnectionRecord,
  FleetBackend,
  FleetOptions,
  InboxSubscription,
  PendingRequest,
  ReaderStart,
  SessionRecord,
  StreamEvent,
  StreamRead,
  StreamRef,
  StreamRetention,
} from "./fleet/backend.js";
export { MemoryFleetBackend } from "./fleet/memory-backend.js";
export { DEFAULT_HEARTBEAT_MS, DEFAULT_NODE_TIMEOUT_MS } from "./fleet/fleet-node.js";
export { NODE_LOST_CODE, NODE_LOST_DATA_KEY } from "./fleet/reattach.js";
