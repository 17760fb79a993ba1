// The endpoint for fetch-style runtimes (Deno, Bun, Cloudflare-style workers, Node's own Request):
// a Request becomes an EndpointRequest and a reply a Response whose SSE body is pulled message by
// message, so a client that reads slowly is read for slowly.
import { sseClosing, sseEvents, sseOpening } from "./sse-format.js";
import type { EndpointReply, EndpointRequest } from "./types.js";

const encoder = new TextEncoder();

export function fromFetchRequest(request: Request): EndpointRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    target: url.pathname + url.search,
    header: (name) => request.headers.get(name) ?? undefined,
    async body(limit) {
      if (request.body === null) return "";
      const reader = request.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel();
          return undefined;
        }
        chunks.push(value);
      }
      const all = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        all.set(chunk, at);
        at += chunk.byteLength;
      }
      return new TextDecoder().decode(all);
    },
  };
}

export function toFetchResponse(reply: EndpointReply): Response {
  if (!("stream" in reply)) return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
  const reader = reply.stream;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const opening = sseOpening(reader);
      if (opening !== "") controller.enqueue(encoder.encode(opening));
    },
    async pull(controller) {
      const batch = await reader.nextBatch(256 * 1024);
      if (batch === undefined) {
        const closing = sseClosing(reader);
        if (closing !== undefined) controller.enqueue(encoder.encode(closing));
        controller.close();
      } else controller.enqueue(encoder.encode(sseEvents(batch, reader.resumable)));
    },
    cancel() {
      reader.release();
    },
  });
  return new Response(body, { status: 200, headers: reply.headers });
}
