// connectRemote(): one call for either profile of an ACP endpoint, chosen by the URL's scheme
// (http/https: HTTP+SSE; ws/wss: WebSocket), as the RFD asks of clients (support both).
import { AcpError, type Transport } from "@acpkit/core";
import { connect as connectWebSocket } from "@acpkit/transport-websocket";
import type { HttpClientOptions } from "../common.js";
import { connectHttp } from "./node-connect.js";
import { ResumingWebSocket } from "../common.js";

/** Options of `connectRemote`: the HTTP client's; `token`, `headers` and `cookies` apply to both profiles. */
export type RemoteOptions = HttpClientOptions;

/**
 * A Transport to an ACP endpoint: `http(s)://…/acp` speaks HTTP+SSE, `ws(s)://…/acp` the WebSocket
 * profile. Rejects with AcpError "InvalidArgument" for another scheme, and (WebSocket) with
 * "ConnectionClosed" naming the HTTP status when the endpoint refuses the upgrade.
 *
 * ```ts
 * const agent = await connectAgent(await connectRemote("ws://127.0.0.1:8080/acp"), { client });
 * ```
 */
export async function connectRemote(url: string, options: RemoteOptions = {}): Promise<Transport> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "http" || scheme === "https") return connectHttp(url, options);
  if (scheme === "ws" || scheme === "wss") {
    const headers: Record<string, string> = { ...options.headers };
    const cookie = options.cookies?.header();
    if (cookie !== undefined) headers.Cookie = cookie;
    const open = (target: string) => connectWebSocket(target, { token: options.token, headers, maxMessageSize: options.maxMessageSize });
    // Resumes dropped sockets when the endpoint offers it (RT40); a pass-through otherwise.
    return new ResumingWebSocket(url, open, await open(url));
  }
  throw new AcpError("InvalidArgument", `an ACP endpoint URL starts with http://, https://, ws:// or wss://, not ${JSON.stringify(url)}`);
}
