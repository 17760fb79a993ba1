// The context a request handler receives (`RequestContext`), made cheap for the common case.
//
// Most handlers never look at `ctx.signal`, and an AbortController (an EventTarget) is among the
// costliest things on the per-request path. So the controller is made only when `signal` is first
// read; a cancel that came earlier makes it start out aborted. `onCancel` lets the runtime react to
// a cancel without making one at all.
import type { RequestId } from "./jsonrpc.js";

export class IncomingRequest {
  private controller: AbortController | undefined;
  // The first listener in a field, any further ones in an array: the runtime registers exactly
  // one per request, so the common case allocates no array.
  private cancelListener: ((reason: unknown) => void) | undefined;
  private moreCancelListeners: Array<(reason: unknown) => void> | undefined;
  private cancelled = false;
  private reason: unknown = undefined;
  private answeredListeners: Array<() => void> | undefined;

  constructor(
    /** The peer's id for this request (a peer may, against advice, use null). */
    readonly id: RequestId | null,
    readonly method: string,
    /** Where a throwing onCancel listener is reported (it must not break the caller of abort). */
    private readonly onListenerError: (error: unknown, method: string) => void,
  ) {}

  /** Aborts when the peer cancels the request (v1 `$/cancel_request`) or the connection closes. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Whether the request was cancelled (the same moment `signal` aborts). */
  get aborted(): boolean {
    return this.cancelled;
  }

  /** Call `listener` once when the request is cancelled (at once if it already was). */
  onCancel(listener: (reason: unknown) => void): void {
    if (this.cancelled) listener(this.reason);
    else if (this.cancelListener === undefined) this.cancelListener = listener;
    else (this.moreCancelListeners ??= []).push(listener);
  }

  /**
   * Call `listener` once a successful answer to this request was handed to the transport: the
   * place for messages that must follow the response (an agent's first updates for a session it
   * just created). Not called when the request fails or the connection closed first.
   */
  afterResponse(listener: () => void): void {
    (this.answeredListeners ??= []).push(listener);
  }

  /** @internal IncomingRequests: the success response was handed on. */
  responded(): void {
    const listeners = this.answeredListeners;
    if (listeners === undefined) return;
    this.answeredListeners = undefined;
    for (const listener of listeners) this.callListener(() => listener(), undefined);
  }

  /** @internal Connection: the peer cancelled, or the connection closed. */
  abort(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const first = this.cancelListener;
    const more = this.moreCancelListeners;
    this.cancelListener = undefined;
    this.moreCancelListeners = undefined;
    if (first !== undefined) this.callListener(first, reason);
    if (more !== undefined) for (const listener of more) this.callListener(listener, reason);
  }

  private callListener(listener: (reason: unknown) => void, reason: unknown): void {
    try {
      listener(reason);
    } catch (error) {
      this.onListenerError(error, this.method);
    }
  }
}
