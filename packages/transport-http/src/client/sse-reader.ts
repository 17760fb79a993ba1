// Reads one SSE response body and hands each event's data to `onData`, in order. Parsing is
// eventsource-parser's (a maintained, spec-following parser; the platform's EventSource cannot
// send the headers the endpoint needs). Its buffer is bounded, so a stream that never ends a
// line cannot grow this process's memory.
import { createParser } from "eventsource-parser";

/** What a stream's reader hears, in order. */
export interface SseEvents {
  /** A message event's data and id. */
  onData(data: string, id: string | undefined): void;
  /** A comment line (without its leading colon), trimmed. */
  onComment?(comment: string): void;
  /** An event of another type (`event: <type>`), with its data. */
  onEvent?(type: string, data: string): void;
}

/** Read `body` to its end (or until `signal` aborts); rejects on a network error or an event over `maxEventChars`. */
export async function readSse(body: ReadableStream<Uint8Array>, maxEventChars: number, signal: AbortSignal, events: SseEvents): Promise<void> {
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent: (event) => {
      if (event.event === undefined || event.event === "message") events.onData(event.data, event.id);
      else events.onEvent?.(event.event, event.data);
    },
    onComment: (comment) => events.onComment?.(comment.trim()),
    onError: (error) => {
      failure = new Error(`the event stream broke the SSE format: ${error.message}`);
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) return;
      parser.feed(decoder.decode(value, { stream: true }));
      if (failure !== undefined) throw failure;
    }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}
