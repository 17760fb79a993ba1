// The modules both entries use (the Node one and the browser one), in one bundle file of their own
// so neither entry carries a second copy (scripts/bundle-package.mjs): the wire constants and the
// HTTP+SSE client.
export {
  CONNECTION_HEADER,
  SESSION_HEADER,
  DEFAULT_ENDPOINT_PATH,
  EVENT_STREAM,
  answersOnConnectionStream,
  GAP_EVENT,
  GAP_METHOD,
  RESUMED_METHOD,
  RESUME_QUERY,
  RESUME_META_KEY,
  frameObject,
  idKey,
  isSessionScoped,
  sessionIdOfParams,
  sessionIdOfResult,
} from "./protocol.js";
export { SessionLedger, type LedgerSession } from "./session-ledger.js";
export { ResumingWebSocket } from "./client/resuming-websocket.js";
export { connectHttp, HttpClientTransport, type HttpClientOptions, RECONNECTED_DATA_KEY } from "./client/http-client.js";
export { MemoryCookieStore, type CookieStore } from "./client/cookie-jar.js";
