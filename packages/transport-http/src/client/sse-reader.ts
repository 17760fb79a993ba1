// Reads one SSE response body and hands each event's data to `onData`, in order. Parsing is
// eventsource-parser's (a maintained, spec-following parser; the platform's EventSource cannot
// send the headers the endpoint needs). Its buffer is bounded, so a stream that never ends a
// line cannot grow this process's memory.
import { createParser } from "eventsource-parser";

/** Read `body` to its end (or until `signal` aborts); rejects on a network error or an event over `maxEventChars`. */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  maxEventChars: number,
  onData: (data: string, id: string | undefined) => void,
  signal: AbortSignal,
  onComment?: (comment: string) => void,
): Promise<void> {
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent: (event) => {
      if (event.event === undefined || event.event === "message") onData(event.data, event.id);
    },
    onComment: (comment) => onComment?.(comment.trim()),
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
