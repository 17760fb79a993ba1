// @acpkit/transport-http/browser: the client side only (a browser does not serve). connectHttp()
// on the platform's fetch; connectRemote() picks the WebSocket profile for ws(s):// URLs with the
// platform's WebSocket. Cookies are the browser's own (fetch with credentials "include").
import { AcpError, type Transport } from "@acpkit/core";
import { connect as connectWebSocket } from "@acpkit/transport-websocket/browser";
import { connectHttp, type HttpClientOptions, ResumingWebSocket } from "./common.js";

export { connectHttp, HttpClientTransport, type HttpClientOptions, RECONNECTED_DATA_KEY } from "./common.js";
export { MemoryCookieStore, type CookieStore } from "./common.js";
export { CONNECTION_HEADER, SESSION_HEADER, DEFAULT_ENDPOINT_PATH, RESUME_META_KEY, GAP_EVENT, GAP_METHOD, RESUMED_METHOD, RESUME_QUERY } from "./common.js";

/** Options of `connectRemote` in a browser. A browser WebSocket cannot send headers: `token` goes in the URL's `access_token`. */
export type RemoteOptions = HttpClientOptions;

/** A Transport to an ACP endpoint, by scheme: http(s) → HTTP+SSE, ws(s) → WebSocket. */
export async function connectRemote(url: string, options: RemoteOptions = {}): Promise<Transport> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "http" || scheme === "https") return connectHttp(url, options);
  if (scheme === "ws" || scheme === "wss") {
    const withToken = (address: string) => {
      const target = new URL(address);
      if (options.token !== undefined) target.searchParams.set("access_token", options.token);
      return target.toString();
    };
    const open = (address: string) => connectWebSocket(withToken(address), { maxMessageSize: options.maxMessageSize });
    // Resumes dropped sockets when the endpoint offers it (RT40); a pass-through otherwise.
    return new ResumingWebSocket(url, open, await open(url));
  }
  throw new AcpError("InvalidArgument", `an ACP endpoint URL starts with http://, https://, ws:// or wss://, not ${JSON.stringify(url)}`);
}
