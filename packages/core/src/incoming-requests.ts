// The peer's requests while their handlers run: the running table (so a v1 `$/cancel_request` or
// a close can abort a handler), and turning a handler's return value or throw into exactly one
// answer.
import type { DiagnosticEmitter } from "./diagnostics.js";
import { AcpError, ErrorCode, RpcError } from "./errors.js";
import { IncomingRequest } from "./incoming-request.js";
import { errorResponse, isThenable, successResponse, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from "./jsonrpc.js";
import type { MethodPolicy } from "./method-policy.js";
import { errorMessageOf, invalidParamsResponse } from "./wire-errors.js";

/** What a request handler learns besides the params. */
export interface RequestContext {
  /** The peer's id for this request (a peer may, against advice, use null). */
  id: RequestId | null;
  /** The method being handled. */
  method: string;
  /** Aborts when the peer sends `$/cancel_request` for this request (v1) or the connection closes. */
  signal: AbortSignal;
  /**
   * Call `listener` once when `signal` aborts (at once if it already has). Cheaper than a listener
   * on `signal`: the AbortController behind `signal` is only made when `signal` is read.
   */
  onCancel(listener: (reason: unknown) => void): void;
  /**
   * Call `listener` once the successful answer was handed to the transport (never when the request
   * fails): for messages that must follow the response, such as the first updates of a new session.
   */
  afterResponse(listener: () => void): void;
}

/** Answers one incoming request: return (or resolve) the result, or throw (an `RpcError` is sent as is). */
// biome-ignore lint/suspicious/noExplicitAny: params were validated against the method's schema before the call; typed wrappers narrow them per method.
export type RequestHandler = (params: any, ctx: RequestContext) => unknown;

/**
 * Where an answer goes: the connection passes it through the initialize gate and onto the wire (or
 * into a batch). A success answer comes with its request, whose `afterResponse` listeners the
 * connection runs once the answer was handed to the transport (it may hold it back first).
 */
export type Answer = (method: string, response: JsonRpcResponse, request?: IncomingRequest) => void;

export class IncomingRequests {
  /** The registered request handlers, by method. */
  readonly handlers = new Map<string, RequestHandler>();
  /** Called after each running request was answered (not when a close dropped it); set once the peer's input ended. */
  onSettled: (() => void) | undefined;
  // Incoming requests whose handlers are still running: id → the handler's context.
  private readonly running = new Map<RequestId | null, IncomingRequest>();
  private readonly onCancelListenerFailed = (error: unknown, method: string): void => {
    this.diagnostics.emit({
      code: "handler_error",
      message: `A cancel listener of the ${method} handler failed: ${errorMessageOf(error)}`,
      method,
      detail: error,
    });
  };

  constructor(
    private readonly policy: MethodPolicy,
    private readonly diagnostics: DiagnosticEmitter,
    private readonly validateOutgoing: boolean,
    private readonly isClosed: () => boolean,
    /** How many of the peer's requests may run at once (docs/protocol.md E8); Infinity for no limit. */
    private readonly maxRunning: number,
  ) {}

  /**
   * Answers an admitted request (the initialize gate let it through), exactly once: -32601 for a
   * method this side does not serve, -32602 for params that fail the schema, else its handler's
   * result or error.
   */
  handle(message: JsonRpcRequest, answer: Answer): void {
    const { id, method } = message;
    if (this.running.size >= this.maxRunning) {
      // Every running request holds its params and handler state until it is answered, so a peer
      // that keeps asking without waiting would grow memory without bound. Refusing (rather than
      // pausing input) keeps the answers to our own requests flowing: a handler may be waiting on one.
      this.refuseOverLimit(id, method, answer);
      return;
    }
    if (id !== null && this.running.has(id)) {
      // Two requests under one id could not be told apart in the answers: refuse the second.
      const why = `a request with id ${JSON.stringify(id)} is still in progress; ids must be unique among a peer's pending requests`;
      this.diagnostics.emit({ code: "invalid_message", message: `Invalid request: ${why}`, method });
      answer(method, errorResponse(id, ErrorCode.InvalidRequest, `Invalid request: ${why}`));
      return;
    }
    const info = this.policy.info(method);
    const refusal = this.policy.requestRefusal(method, info);
    if (refusal !== undefined) {
      const { why, legacy } = refusal;
      this.diagnostics.emit({ code: legacy === undefined ? "unknown_method" : "legacy_shape", message: `Method not found: ${why}`, method, detail: legacy });
      answer(method, errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${why}`, legacy));
      return;
    }
    const handler = this.handlers.get(method);
    if (handler === undefined) {
      this.diagnostics.emit({ code: "unknown_method", message: `Method not found: nothing handles ${method}`, method });
      answer(method, errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`));
      return;
    }
    const params = message.params;
    if (info !== undefined) {
      const validation = info.validateParams(params);
      if (!validation.valid) {
        answer(method, invalidParamsResponse(id, method, validation.errors));
        return;
      }
    }
    this.run(id, method, params, handler, answer);
  }

  private refuseOverLimit(id: RequestId | null, method: string, answer: Answer): void {
    const limit = this.maxRunning;
    const why = `${limit} requests from this peer are still running, the most this connection handles at once; send it again once some are answered`;
    this.diagnostics.emit({ code: "too_many_requests", message: `Refused ${method}: ${why}`, method });
    answer(method, errorResponse(id, ErrorCode.InternalError, `Too many requests: ${why}`, { reason: "too_many_requests", limit }));
  }

  // Runs `handler` for a valid request and answers through `answer`, exactly once.
  private run(id: RequestId | null, method: string, params: unknown, handler: RequestHandler, answer: Answer): void {
    const ctx = new IncomingRequest(id, method, this.onCancelListenerFailed);
    this.running.set(id, ctx);
    let output: unknown;
    try {
      output = handler(params, ctx);
    } catch (error) {
      this.answerFailure(ctx, error, answer);
      return;
    }
    if (isThenable(output)) {
      output.then(
        (result) => this.answerResult(ctx, result, answer),
        (error: unknown) => this.answerFailure(ctx, error, answer),
      );
    } else {
      this.answerResult(ctx, output, answer);
    }
  }

  private answerResult(ctx: IncomingRequest, result: unknown, answer: Answer): void {
    // A result is checked against the version's schema: while its validators load (setVersion
    // from inside this very handler, typically `initialize`), the answer waits for them.
    const loading = this.validateOutgoing ? this.policy.loading : undefined;
    if (loading !== undefined) {
      loading.then(
        () => this.answerResult(ctx, result, answer),
        (error: unknown) => this.answerFailure(ctx, error, answer),
      );
      return;
    }
    if (!this.finish(ctx)) return;
    const { id, method } = ctx;
    if (this.validateOutgoing) {
      const invalid = this.policy.checkOutgoing(method, "result", result === undefined ? null : result);
      if (invalid !== undefined) {
        // The bug is in our own handler: tell its author (diagnostic) and the peer (-32603),
        // rather than put an invalid result on the wire.
        const data = invalid.data as { path?: string } | undefined;
        this.diagnostics.emit({ code: "outgoing_invalid", message: invalid.message, method, path: data?.path, detail: invalid });
        answer(method, errorResponse(id, ErrorCode.InternalError, `Internal error: ${invalid.message}`));
        this.onSettled?.();
        return;
      }
    }
    answer(method, successResponse(id, result), ctx);
    this.onSettled?.();
  }

  private answerFailure(ctx: IncomingRequest, error: unknown, answer: Answer): void {
    if (!this.finish(ctx)) return;
    const { id, method } = ctx;
    let response: JsonRpcResponse;
    if (error instanceof RpcError) {
      response = { jsonrpc: "2.0", id, error: error.toJSON() };
    } else if (ctx.aborted || (error instanceof AcpError && error.code === "Cancelled")) {
      // The peer cancelled (v1 `$/cancel_request`) and the handler gave up: say so (docs/protocol.md §4.9).
      response = errorResponse(id, ErrorCode.RequestCancelled, "Request cancelled");
    } else {
      // Only the message crosses the wire; a stack trace is for our logs, not the peer.
      response = errorResponse(id, ErrorCode.InternalError, errorMessageOf(error));
    }
    answer(method, response);
    this.onSettled?.();
  }

  // The handler is done. False when the connection closed meanwhile (no one to answer).
  private finish(ctx: IncomingRequest): boolean {
    if (this.running.get(ctx.id) === ctx) this.running.delete(ctx.id);
    return !this.isClosed();
  }

  /**
   * v1 `$/cancel_request` from the peer: abort that handler's signal. It still answers (-32800 when
   * it gives up, or a result), as docs/protocol.md §4.9 requires.
   */
  cancel(requestId: RequestId): void {
    const ctx = this.running.get(requestId);
    if (ctx === undefined) return; // already answered: a normal race
    ctx.abort(new AcpError("Cancelled", `The peer cancelled request ${JSON.stringify(requestId)}`));
  }

  /** How many requests are running (handled, not yet answered). */
  get runningCount(): number {
    return this.running.size;
  }

  /**
   * Aborts every running handler's signal but keeps expecting its answer: the peer stopped sending
   * (its input ended) and still reads what we send. A cancelled handler answers -32800 when it gives up.
   */
  cancelAll(error: AcpError): void {
    for (const ctx of [...this.running.values()]) ctx.abort(error);
  }

  /** Aborts every running handler (the connection closed). */
  abortAll(error: AcpError): void {
    const running = [...this.running.values()];
    this.running.clear();
    for (const ctx of running) ctx.abort(error);
  }
}
