// What every transport needs, kept in one place so stdio, WebSocket and the in-memory pair behave
// the same way. Public through `@acpkit/core/transport-kit`; the code itself is carried by the main
// entry's bundle (transport-kit-code.ts, its `__transportKit` export), which every process that
// speaks ACP loads anyway: acpkit's own transports take it from there, and the kit's entry hands
// out the same copy.
import { AcpError } from "./errors.js";
import { valueKind } from "./json.js";
import { encodeTextUpdateNotification } from "./text-update.js";
import type { TransportReceiver } from "./transport.js";

/**
 * How much unread output (in characters of queued JSON text) a transport lets pile up behind a
 * full channel before it stops reading its input: answers to the peer's requests are sent
 * without anyone awaiting them, so a peer that writes requests and never reads would otherwise
 * grow them without bound. Input is read again once the channel drained. 4 Mi characters.
 */
export const OUTPUT_HIGH_WATER = 4 * 1024 * 1024;

/**
 * The promise a transport's `send()` returns when it took the message at once (nothing to wait
 * for: the message is queued for writing and no earlier write is blocked). A transport may return
 * any promise; returning this one lets the Connection see, without waiting a microtask, that the
 * send cannot fail, so a request or an answer on that path allocates no failure handler. Every
 * acpkit transport returns it; a transport that returns something else works the same, a little
 * slower.
 */
export const SEND_ACCEPTED: Promise<void> = Promise.resolve();

/**
 * The error for a transport whose `send()` returned something other than a promise (a broken
 * transport): the Connection fails that one request with it, or reports it for an answer, which
 * was handed over and is not answered a second time.
 */
export function sendReturnedNoPromise(value: unknown): TypeError {
  return new TypeError(`transport.send() returned ${valueKind(value)} instead of a promise`);
}

/**
 * `JSON.stringify(message)`, or an `AcpError("InvalidMessage")` saying why the message cannot be
 * sent (a cycle, a BigInt, `undefined` at the top). Transports call it inside `send()` and reject
 * with the error it throws, so a bad value fails at the caller with nothing half-written.
 */
export function encodeMessage(message: unknown): string {
  // The streaming case: a plain text update notification is written from its strings (text-update.ts).
  if (typeof message === "object" && message !== null) {
    const chunk = encodeTextUpdateNotification(message);
    if (chunk !== undefined) return chunk;
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    throw new AcpError("InvalidMessage", `message cannot be serialized as JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof text !== "string") {
    throw new AcpError("InvalidMessage", `message cannot be serialized as JSON: got ${typeof message}`);
  }
  return text;
}

/**
 * When `text` takes more than `limit` bytes as UTF-8, its size in bytes; otherwise `undefined`.
 * Counts only when the UTF-16 length cannot decide (each unit is one to three bytes); when the
 * length alone is over the limit, the length is returned as the (lower-bound) size.
 */
export function utf8SizeOver(text: string, limit: number): number | undefined {
  const length = text.length;
  if (length > limit) return length;
  if (length * 3 <= limit) return undefined;
  let bytes = 0;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4; // a surrogate pair: four bytes for both units
      i++;
    } else bytes += 3;
  }
  return bytes > limit ? bytes : undefined;
}

/**
 * The URL of an HTTP request's target (`request.url`: path and query) resolved against `base`, or
 * `undefined` when it does not parse. Node's http server passes any request line's target on as it
 * came, and `new URL("//", base)` throws: thrown in a request or upgrade listener, that would end
 * the whole process for one malformed request, before any token was checked. A server answers
 * `undefined` with 400 instead.
 */
export function parseRequestTarget(target: string | undefined, base = "http://localhost"): URL | undefined {
  try {
    return new URL(target ?? "/", base);
  } catch {
    return undefined;
  }
}

/** A promise with its settle functions, for a writer that waits for `drain`. */
export interface Deferred {
  promise: Promise<void>;
  /** Settle the promise successfully. */
  resolve(): void;
  /** Settle the promise with `error`. */
  reject(error: unknown): void;
}

/**
 * A `Deferred` whose rejection is never reported as unhandled: a writer rejects it on close even
 * when no sender is waiting on it any more.
 */
export function createDeferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * Hands `message` to the receiver. A receiver that throws must not break the transport's read loop
 * (later messages would be lost), so the throw is caught and reported through
 * `onTransportError` as AcpError "ReceiverFailed"; if that throws too, there is no one left to tell.
 */
export function deliverMessage(receiver: TransportReceiver, message: string | object): void {
  try {
    receiver.onMessage(message);
  } catch (error) {
    try {
      receiver.onTransportError(
        new AcpError("ReceiverFailed", `the receiver failed to take a message: ${error instanceof Error ? error.message : String(error)}`, { cause: error }),
      );
    } catch {
      // Both callbacks threw: nothing else can be told; the transport keeps reading.
    }
  }
}
