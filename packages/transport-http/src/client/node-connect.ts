// The Node entry's connectHttp: the common client with node:http(s) as its default fetch.
import { type HttpClientOptions, HttpClientTransport } from "../common.js";
import { nodeFetch } from "./node-fetch.js";

export { HttpClientTransport, type HttpClientOptions } from "../common.js";

/**
 * A Transport to an ACP endpoint over HTTP+SSE. Nothing is sent until the first message, which
 * must be initialize (connectAgent sends it). In Node its requests go through node:http(s) on a
 * keep-alive agent unless `options.fetch` says otherwise.
 *
 * ```ts
 * const agent = await connectAgent(connectHttp("https://agents.example/acp", { token }), { client });
 * ```
 */
export function connectHttp(url: string, options: HttpClientOptions = {}): HttpClientTransport {
  return new HttpClientTransport(url, { fetch: nodeFetch, ...options });
}
