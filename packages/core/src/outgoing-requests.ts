// Our requests to the peer: numbering, the pending table, per-request signal and timeout, and
// matching each response to its caller (validating results against the method's schema).
import type { DiagnosticEmitter } from "./diagnostics.js";
import { AcpError, RpcError, type RpcErrorObject } from "./errors.js";
import { isThenable, notificationMessage, requestMessage, type JsonRpcResponse } from "./jsonrpc.js";
import { CANCEL_REQUEST_METHOD, type MethodPolicy } from "./method-policy.js";
import { PendingRequest, PendingRequests } from "./pending-requests.js";
import { SEND_ACCEPTED, sendReturnedNoPromise } from "./transport-helpers.js";
import type { Transport } from "./transport.js";
import { describeValidation, errorMessageOf, firstError } from "./wire-errors.js";

/** Per-call options of `Connection.request`. */
export interface RequestOptions {
  /** Aborting rejects the request with AcpError "Cancelled" (and on v1 sends `$/cancel_request`). */
  signal?: AbortSignal;
  /**
   * Reject with AcpError "Timeout" (and on v1 send `$/cancel_request`) after this many
   * milliseconds; `null` waits forever. Default: the connection's `requestTimeoutMs` for methods
   * that answer promptly, none for open-ended ones (`UNTIMED_METHODS`).
   */
  timeoutMs?: number | null;
}

/**
 * Requests whose answer may take as long as a person or a task takes: a prompt turn, a permission
 * or elicitation question, a login, a history replay, a command to finish. They get no default
 * timeout; a peer that never answers them is still ended by close or an AbortSignal.
 */
export const UNTIMED_METHODS: ReadonlySet<string> = new Set([
  "session/prompt",
  "session/request_permission",
  "session/load",
  "session/resume",
  "authenticate",
  "elicitation/create",
  "terminal/wait_for_exit",
]);

/** The default timeout of every other request: a peer that never answers does not hold it forever. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

const ignoreCancelSendFailure = (): void => {
  // Best effort: the request is already rejected locally.
};

export class OutgoingRequests {
  private readonly pending = new PendingRequests();

  constructor(
    private readonly transport: Transport,
    private readonly policy: MethodPolicy,
    private readonly diagnostics: DiagnosticEmitter,
    /** True once the connection closed (nothing more is sent). */
    private readonly isClosed: () => boolean,
    /** Default timeout for requests not in UNTIMED_METHODS; `null` disables it. */
    private readonly defaultTimeoutMs: number | null = DEFAULT_REQUEST_TIMEOUT_MS,
  ) {}

  /** Sends `method` and resolves with the peer's (validated) result. Params were checked by the caller. */
  send<R>(method: string, params: unknown, options: RequestOptions | undefined): Promise<R> {
    // Every closure a request may need is made in a helper below, never here: a closure in this
    // function would make V8 allocate a context for each call, also for the common request that
    // has no signal, no timeout and a send the transport took at once.
    const signal = options?.signal;
    if (signal?.aborted) {
      return Promise.reject(new AcpError("Cancelled", `Request ${method} was cancelled before it was sent`, { cause: signal.reason }));
    }
    const timeoutMs = options?.timeoutMs !== undefined ? options.timeoutMs : UNTIMED_METHODS.has(method) ? null : this.defaultTimeoutMs;
    const entry = new PendingRequest(this.pending.allocateId(), method);
    const result = entry.promise as Promise<R>;
    if (signal !== undefined) this.watchSignal(entry, signal);
    if (timeoutMs !== null) this.startTimer(entry, timeoutMs);
    this.pending.add(entry);
    try {
      const sent = this.transport.send(requestMessage(entry.id, method, params));
      if (sent !== SEND_ACCEPTED) this.watchSend(sent, entry.id);
    } catch (error) {
      // A transport that throws instead of rejecting still fails only this request.
      this.sendFailed(entry.id, error);
    }
    return result;
  }

  private watchSignal(entry: PendingRequest, signal: AbortSignal): void {
    entry.signal = signal;
    entry.onAbort = () => this.abandon(entry.id, new AcpError("Cancelled", `Request ${entry.method} (id ${entry.id}) was cancelled`, { cause: signal.reason }));
    signal.addEventListener("abort", entry.onAbort, { once: true });
  }

  private startTimer(entry: PendingRequest, timeoutMs: number): void {
    entry.timer = setTimeout(
      () => this.abandon(entry.id, new AcpError("Timeout", `Request ${entry.method} (id ${entry.id}) got no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    // A pending answer must not be what keeps a Node process alive (the transport does that).
    (entry.timer as { unref?: () => void }).unref?.();
  }

  /** A send that may still fail (queued behind a full channel, or a transport of its own kind): fail the request if it does. */
  private watchSend(sent: Promise<void>, id: number): void {
    if (!isThenable(sent)) return this.sendFailed(id, sendReturnedNoPromise(sent));
    sent.then(undefined, (error: unknown) => this.sendFailed(id, error));
  }

  private sendFailed(id: number, error: unknown): void {
    this.pending.abandon(id)?.reject(error instanceof Error ? error : new AcpError("ConnectionClosed", errorMessageOf(error)));
  }

  // Give up on one of our requests locally; on v1 also ask the peer to stop (docs/protocol.md C9).
  // On v2 `$/cancel_request` does not exist, so nothing is sent.
  private abandon(id: number, error: AcpError): void {
    const entry = this.pending.abandon(id);
    if (entry === undefined) return;
    if (this.policy.version === 1 && !this.isClosed()) this.askPeerToCancel(id);
    entry.reject(error);
  }

  // Best effort, and called from a timer or an abort listener, where a throw would end the
  // process: a transport that throws, rejects or returns no promise is ignored here.
  private askPeerToCancel(id: number): void {
    try {
      const sent = this.transport.send(notificationMessage(CANCEL_REQUEST_METHOD, { requestId: id }));
      if (sent !== SEND_ACCEPTED && isThenable(sent)) sent.then(undefined, ignoreCancelSendFailure);
    } catch {
      // The request is already rejected locally.
    }
  }

  /** Settles the request a response answers (a response with id null reports what the peer could not read). */
  settle(message: JsonRpcResponse): void {
    const id = message.id;
    if (id === null) {
      // The peer could not read something we sent (it answers -32700/-32600 with id null).
      const error = "error" in message ? message.error : undefined;
      this.diagnostics.emit({
        code: error === undefined ? "unexpected_response" : "peer_error",
        message: error === undefined ? "Ignored a response with id null" : `The peer reported error ${error.code}: ${error.message}`,
        detail: message,
      });
      return;
    }
    const entry = this.pending.take(id);
    if (entry === undefined) {
      // A late answer to a request we gave up on is normal; an id we never sent, or a second
      // answer to one already answered, is the peer breaking the protocol (E9).
      const unmatched = this.pending.unmatched(id);
      if (unmatched !== "late") {
        const text =
          unmatched === "unknown"
            ? `Ignored a response to unknown request id ${JSON.stringify(id)}`
            : `Ignored a second response to request id ${JSON.stringify(id)}, which was already answered`;
        this.diagnostics.emit({ code: "unexpected_response", message: text, detail: message });
      }
      return;
    }
    if ("error" in message) {
      entry.reject(RpcError.fromObject(message.error as RpcErrorObject));
      return;
    }
    const validation = this.policy.info(entry.method)?.validateResult?.(message.result);
    if (validation !== undefined && !validation.valid) {
      const first = firstError(validation.errors);
      const text = `Invalid result for ${entry.method} from the peer at ${describeValidation(first)}`;
      this.diagnostics.emit({ code: "invalid_result", message: text, method: entry.method, path: first.path, detail: validation.errors });
      entry.reject(new AcpError("InvalidMessage", text, { data: { method: entry.method, path: first.path, errors: validation.errors } }));
      return;
    }
    entry.resolve(message.result);
  }

  /** A malformed answer to request `id`: fail that request instead of leaving it hanging. */
  failMalformed(id: number | string, reason: string, value: unknown): void {
    this.pending.take(id)?.reject(new AcpError("ProtocolViolation", `The peer answered request ${id} with an invalid response: ${reason}`, { data: value }));
  }

  /** Rejects every pending request (the connection closed). */
  rejectAll(error: AcpError): void {
    this.pending.rejectAll(error);
  }
}
