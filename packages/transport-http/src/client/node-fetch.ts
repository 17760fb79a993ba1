// The fetch the Node entry's HTTP client uses by default: node:http(s) requests on a keep-alive
// agent, answered as standard Responses. The HTTP+SSE profile makes one POST per message; Node's
// built-in fetch (undici) costs several times more per request than node:http, which showed as
// the client's own share of every round trip (docs/performance.md, "The remote endpoint"). Only
// what the client uses is supported: a method, string headers, a string body, an AbortSignal.
import type { IncomingMessage } from "node:http";

type Init = { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal | null };

let agents: { http: import("node:http").Agent; https: import("node:https").Agent } | undefined;

/** One keep-alive agent per scheme for the process: connections are reused across transports, as fetch's pool does. */
function agentsOnce() {
  agents ??= {
    http: new (process.getBuiltinModule("node:http").Agent)({ keepAlive: true }),
    https: new (process.getBuiltinModule("node:https").Agent)({ keepAlive: true }),
  };
  return agents;
}

/** A fetch over node:http(s) for the HTTP client's own requests (see the file comment). */
export const nodeFetch = ((input: string | URL, init: Init = {}): Promise<Response> => {
  const url = new URL(String(input));
  const secure = url.protocol === "https:";
  const { request } = process.getBuiltinModule(secure ? "node:https" : "node:http");
  return new Promise<Response>((resolve, reject) => {
    if (init.signal?.aborted) return reject(init.signal.reason ?? new DOMException("The operation was aborted", "AbortError"));
    const outgoing = request(
      url,
      { method: init.method ?? "GET", headers: init.headers, agent: secure ? agentsOnce().https : agentsOnce().http },
      (incoming) => {
        resolve(toResponse(incoming));
      },
    );
    const abort = () => outgoing.destroy(init.signal?.reason ?? new DOMException("The operation was aborted", "AbortError"));
    init.signal?.addEventListener("abort", abort, { once: true });
    outgoing.once("close", () => init.signal?.removeEventListener("abort", abort));
    outgoing.once("error", (error) => reject(new TypeError(`fetch failed: ${error.message}`, { cause: error })));
    outgoing.end(init.body);
  });
}) as typeof globalThis.fetch;

function toResponse(incoming: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  const status = incoming.statusCode ?? 502;
  // No body: nothing to stream (and cancelling a stream that never started would cost the socket).
  const empty = status === 204 || status === 205 || status === 304 || incoming.headers["content-length"] === "0";
  if (empty) incoming.resume();
  const body = empty ? null : (process.getBuiltinModule("node:stream").Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: incoming.statusMessage, headers });
}
