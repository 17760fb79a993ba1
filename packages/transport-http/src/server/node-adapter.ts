// The endpoint on node:http and node:http2 (its compatibility API, which HTTP/2 over TLS with an
// HTTP/1.1 fallback uses): an IncomingMessage becomes an EndpointRequest, a reply is written back,
// and an SSE stream is written one event per message with the response's backpressure.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import type { Duplex } from "node:stream";
import { sseClosing, sseEvents, sseOpening } from "./sse-format.js";
import type { EndpointReply, EndpointRequest } from "./types.js";

/** A request of node:http or of node:http2's compatibility API. */
export type NodeRequest = IncomingMessage | Http2ServerRequest;
/** A response of node:http or of node:http2's compatibility API. */
export type NodeResponse = ServerResponse | Http2ServerResponse;

/** At most this many characters of queued messages go out in one write. */
const SSE_BATCH_CHARS = 256 * 1024;

/** SSE comment lines keep idle streams open through proxies that close silent connections. */
export const SSE_KEEPALIVE_MS = 15_000;

export function fromNodeRequest(request: NodeRequest): EndpointRequest {
  return {
    method: request.method ?? "GET",
    target: request.url ?? "/",
    header(name) {
      const key = name.toLowerCase();
      const value = request.headers[key] ?? (key === "host" ? request.headers[":authority"] : undefined);
      return Array.isArray(value) ? value.join(", ") : value;
    },
    body(limit) {
      return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const onData = (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) {
            request.off("data", onData);
            // Stop reading: the rest is not wanted, and the answer says so (413).
            request.pause();
            resolve(undefined);
            return;
          }
          chunks.push(chunk);
        };
        request.on("data", onData);
        request.once("end", () => resolve(Buffer.concat(chunks, size).toString("utf8")));
        request.once("error", reject);
      });
    },
  };
}

/** Write a reply; resolves once it was written (for a stream: once it ended or the client went away). */
export async function writeNodeReply(reply: EndpointReply, given: NodeResponse): Promise<void> {
  // The two response types share the calls used here; typed as one so their overloads do not clash.
  const response = given as ServerResponse;
  if (!("stream" in reply)) {
    const headers = { ...reply.headers, "Content-Length": reply.body === undefined ? "0" : String(Buffer.byteLength(reply.body)) };
    response.writeHead(reply.status, headers);
    response.end(reply.body ?? "");
    return;
  }
  const reader = reply.stream;
  let gone = false;
  let wake: (() => void) | undefined;
  const onGone = () => {
    gone = true;
    reader.release();
    wake?.();
  };
  response.once("close", onGone);
  response.writeHead(200, reply.headers);
  const opening = sseOpening(reader);
  if (opening !== "") response.write(opening);
  response.flushHeaders?.();
  const keepalive = setInterval(() => {
    if (!gone) response.write(": keepalive\n\n");
  }, SSE_KEEPALIVE_MS);
  keepalive.unref?.();
  try {
    for (;;) {
      const batch = await reader.nextBatch(SSE_BATCH_CHARS);
      if (batch === undefined || gone) break;
      if (!response.write(sseEvents(batch, reader.resumable))) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          response.once("drain", resolve);
        });
        wake = undefined;
      }
    }
  } finally {
    clearInterval(keepalive);
    // A stream that ends because its connection closed says why, in a comment line every SSE
    // parser skips (acpkit's client reports it: RT20).
    const closing = sseClosing(reader);
    reader.release();
    if (!gone) response.end(closing);
  }
}

/**
 * Answer on a bare socket, for what never becomes a request/response pair: a refused WebSocket
 * upgrade, or a request Node's HTTP parser could not read. The connection is closed after it.
 */
export function writeRawReply(socket: Duplex, reply: EndpointReply): void {
  const body = "body" in reply && reply.body !== undefined ? reply.body : "";
  const statusText = process.getBuiltinModule("node:http").STATUS_CODES[reply.status] ?? "Error";
  const lines = [`HTTP/1.1 ${reply.status} ${statusText}`, "Connection: close", `Content-Length: ${Buffer.byteLength(body)}`];
  for (const [name, value] of Object.entries(reply.headers)) lines.push(`${name}: ${value}`);
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}
