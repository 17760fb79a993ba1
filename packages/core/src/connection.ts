// Connection: one JSON-RPC 2.0 peer over a Transport, speaking one ACP protocol version.
//
// A facade over small modules, each with one job: `jsonrpc.ts` classifies what arrives,
// `incoming-queue.ts` hands it on in wire order, `initialize-gate.ts` holds everything back until
// `initialize`, `method-policy.ts` knows which methods exist, which way they flow and how to
// validate them, `incoming-requests.ts` runs the peer's requests and answers each exactly once,
// `outgoing-requests.ts` numbers ours and matches the answers, `batch.ts` answers v2 batches,
// `reply-outbox.ts` holds answers back while the peer does not read and `wire-errors.ts` words
// the errors. The Connection itself knows no method by name.
//
// Per incoming notification with a synchronous handler the work is: one JSON.parse (for a
// streamed text chunk, of its text alone: text-update.ts), a few property checks, two map
// lookups, one validator call, the handler. No promise, no closure.
import { type BatchReply, batchRefusal, runBatch } from "./batch.js";
import { DiagnosticEmitter, type Diagnostic, type DiagnosticCode } from "./diagnostics.js";
import { AcpError, ErrorCode } from "./errors.js";
import { IncomingNotifications, type NotificationHandler } from "./incoming-notifications.js";
import { IncomingQueue } from "./incoming-queue.js";
import type { IncomingRequest as RunningRequest } from "./incoming-request.js";
import { IncomingRequests, type RequestContext, type RequestHandler } from "./incoming-requests.js";
import { InitializeGate } from "./initialize-gate.js";
import {
  JsonRpcKind,
  classifyMessage,
  describeInvalidMessage,
  errorResponse,
  idOf,
  notificationMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "./jsonrpc.js";
import { type CANCEL_REQUEST_METHOD, MethodPolicy } from "./method-policy.js";
import type {
  AcpMethodTables,
  ExtensionMethod,
  IncomingNotification,
  IncomingRequest,
  MethodTables,
  OutgoingNotification,
  OutgoingRequest,
  ParamsOf,
  ResultOf,
  Side,
} from "./method-types.js";
import { OutgoingRequests, type RequestOptions } from "./outgoing-requests.js";
import { schemaRegistry, type ProtocolVersion } from "./registry.js";
import { ReplyOutbox } from "./reply-outbox.js";
import { TextChunkDecoder } from "./text-update.js";
import { describeTransportProblem, type CloseInfo, type Transport } from "./transport.js";
import { closedError, errorMessageOf, replyFailure } from "./wire-errors.js";
import { checkedLimits, type ConnectionOptions, defaultValidateOutgoing } from "./connection-options.js";
import { pauseInputWhileBacklogged } from "./flow-control.js";

/**
 * One JSON-RPC 2.0 peer over a `Transport`, speaking one protocol version: numbers its requests,
 * matches responses, dispatches incoming messages to handlers in wire order, validates them
 * against the version's schema and answers malformed input with the right JSON-RPC error.
 */
export class Connection<S extends Side = Side, V extends ProtocolVersion = ProtocolVersion, T extends MethodTables = AcpMethodTables> {
  readonly #transport: Transport;
  readonly #policy: MethodPolicy;
  readonly #gate: InitializeGate;
  readonly #validateOutgoing: boolean;
  readonly #diagnostics = new DiagnosticEmitter();
  readonly #outgoing: OutgoingRequests;
  readonly #incoming: IncomingRequests;
  readonly #notifications: IncomingNotifications;
  readonly #queue = new IncomingQueue<unknown>((message) => this.#process(message));
  /** JSON.parse with a shortcut for the text chunk lines a streaming agent sends most. */
  readonly #decoder = new TextChunkDecoder();
  #closeInfo: CloseInfo | undefined;
  /** Set once the peer's input ended (onInputEnd): why requests can no longer be answered by it. */
  #inputEnded: AcpError | undefined;

  // Bound once, so answering does not allocate a closure per message.
  readonly #answer = (method: string, response: JsonRpcResponse, request?: RunningRequest): void => {
    this.#gate.answered(method, response);
    this.#sendReply(response, request);
  };
  readonly #sendBatchReply = (responses: JsonRpcResponse[], answered: RunningRequest[] | undefined): void => this.#sendReply(responses, answered);
  readonly #outbox: ReplyOutbox;

  /** Resolves once the transport has closed and every pending request was rejected. */
  readonly closed: Promise<CloseInfo>;

  constructor(transport: Transport, options: ConnectionOptions<S>) {
    const transportProblem = describeTransportProblem(transport);
    if (transportProblem !== undefined) throw new TypeError(`Connection: ${transportProblem}`);
    if (options.side !== "agent" && options.side !== "client") {
      throw new TypeError(`Connection: options.side must be "agent" or "client", got ${JSON.stringify(options.side)}`);
    }
    this.#transport = transport;
    this.#outbox = new ReplyOutbox(transport, (error) => {
      // After the close a failed send is expected: the peer went away first.
      if (this.#closeInfo === undefined) this.#report(replyFailure(error));
    });
    this.#validateOutgoing = options.validateOutgoing ?? defaultValidateOutgoing();
    this.#policy = new MethodPolicy(options.side, options.registry ?? schemaRegistry, this.#validateOutgoing);
    this.#gate = new InitializeGate(options.requireInitialize ?? false);
    const isClosed = () => this.#closeInfo !== undefined;
    const { requestTimeoutMs, maxRunning } = checkedLimits(options);
    this.#outgoing = new OutgoingRequests(transport, this.#policy, this.#diagnostics, isClosed, requestTimeoutMs);
    this.#incoming = new IncomingRequests(this.#policy, this.#diagnostics, this.#validateOutgoing, isClosed, maxRunning);
    pauseInputWhileBacklogged(transport, this.#queue, this.#outbox);
    this.#notifications = new IncomingNotifications(this.#policy, this.#diagnostics, this.#incoming);
    if (options.version !== undefined) this.setVersion(options.version);
    this.closed = transport.closed.then((info) => {
      this.#handleClose(info);
      return info;
    });
    transport.start({
      onMessage: (message) => this.#receive(message),
      onTransportError: (error) => this.#transportError(error),
      onInputEnd: () => this.#inputEnd(),
      onOutputCongestion: (congested) => this.#outbox.setCongested(congested),
    });
  }

  /** The protocol version of this connection, once known. */
  get version(): ProtocolVersion | undefined {
    return this.#policy.version;
  }

  /**
   * Fix the connection's protocol version (one per connection, docs/protocol.md N5). The agent calls it
   * from its `initialize` handler after `negotiateVersion`; the client after reading the answer.
   * When the version's validators are not loaded yet, the connection loads them (see `ready`):
   * until then what arrives waits, in order, and `request` and `notify` wait to validate and send.
   */
  setVersion(version: ProtocolVersion): void {
    const loading = this.#policy.setVersion(version);
    if (loading === undefined) return;
    loading.catch((error: unknown) => {
      this.#report({ code: "internal_error", message: `Protocol v${version}'s validators could not be loaded: ${errorMessageOf(error)}`, detail: error });
      void this.close(`protocol v${version}'s validators could not be loaded`);
    });
    this.#queue.holdUntil(loading.catch(() => {}));
  }

  /**
   * Resolves once the connection can validate: at once, or when the validators its version needed
   * have loaded (`setVersion`). Rejects if they could not be loaded; the connection is then closed.
   * Awaiting it is never required: messages wait for it by themselves.
   */
  get ready(): Promise<void> {
    return this.#policy.loading ?? Promise.resolve();
  }

  /**
   * Send a request and wait for its result. Rejects with `RpcError` when the peer answers with an
   * error, and with `AcpError` for local failures: "Cancelled" (signal), "Timeout",
   * "ConnectionClosed", "OutgoingInvalid" (development-mode validation), "InvalidMessage" (the
   * peer's result failed validation).
   */
  request<M extends OutgoingRequest<T, S, V>>(method: M, params: ParamsOf<T, V, M>, options?: RequestOptions): Promise<ResultOf<T, V, M>>;
  /** Send an extension request (`_`-prefixed; untyped, never validated by the schema). */
  request<R = unknown>(method: ExtensionMethod, params: unknown, options?: RequestOptions): Promise<R>;
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    const loading = this.#policy.loading;
    if (loading !== undefined) return loading.then(() => this.request(method as never, params as never, options));
    if (this.#closeInfo !== undefined) return Promise.reject(closedError(this.#closeInfo));
    if (this.#inputEnded !== undefined) return Promise.reject(this.#inputEnded);
    if (this.#validateOutgoing) {
      const invalid = this.#policy.checkOutgoing(method, "params", params, "request");
      if (invalid !== undefined) return Promise.reject(invalid);
    } else {
      const refused = this.#policy.requestDirectionRefusal(method);
      if (refused !== undefined) return Promise.reject(refused);
    }
    return this.#outgoing.send(method, params, options);
  }

  /** Send a notification. Resolves once the transport took it (backpressure); nothing more. */
  notify<M extends OutgoingNotification<T, S, V>>(method: M, params: ParamsOf<T, V, M>): Promise<void>;
  /** Send an extension notification (`_`-prefixed; untyped). */
  notify(method: ExtensionMethod, params: unknown): Promise<void>;
  notify(method: string, params: unknown): Promise<void> {
    const loading = this.#policy.loading;
    if (loading !== undefined) return loading.then(() => this.notify(method as never, params));
    if (this.#closeInfo !== undefined) return Promise.reject(closedError(this.#closeInfo));
    if (this.#validateOutgoing) {
      const invalid = this.#policy.checkOutgoing(method, "params", params, "notification");
      if (invalid !== undefined) return Promise.reject(invalid);
    }
    return this.#transport.send(notificationMessage(method, params));
  }

  /**
   * Handle incoming requests for `method`. The handler's return value (or resolved promise) is the
   * result; throwing an `RpcError` answers with exactly that error, anything else with -32603 and
   * the error's message. Returns a function that unregisters the handler.
   */
  onRequest<M extends IncomingRequest<T, S, V>>(
    method: M,
    handler: (params: ParamsOf<T, V, M>, ctx: RequestContext) => ResultOf<T, V, M> | PromiseLike<ResultOf<T, V, M>>,
  ): () => void;
  /** Handle an extension request (`_`-prefixed; untyped). */
  onRequest(method: ExtensionMethod, handler: RequestHandler): () => void;
  onRequest(method: string, handler: RequestHandler): () => void {
    this.#policy.checkRegistration(method, "request");
    const handlers = this.#incoming.handlers;
    handlers.set(method, handler);
    return () => {
      if (handlers.get(method) === handler) handlers.delete(method);
    };
  }

  /**
   * Handle incoming notifications for `method`, one at a time in wire order: a returned promise is
   * awaited before the next incoming notification is handled. Returns an unregister function.
   */
  onNotification<M extends Exclude<IncomingNotification<T, S, V>, typeof CANCEL_REQUEST_METHOD>>(
    method: M,
    handler: (params: ParamsOf<T, V, M>) => void | PromiseLike<void>,
  ): () => void;
  /** Handle an extension notification (`_`-prefixed; untyped). */
  onNotification(method: ExtensionMethod, handler: NotificationHandler): () => void;
  onNotification(method: string, handler: NotificationHandler): () => void {
    this.#policy.checkRegistration(method, "notification");
    const handlers = this.#notifications.handlers;
    handlers.set(method, handler);
    return () => {
      if (handlers.get(method) === handler) handlers.delete(method);
    };
  }

  /**
   * Resolves at once while answers to the peer's requests go straight to the transport, and
   * otherwise once the answers held back for a congested channel (the peer is not reading) went
   * out. A handler about to build a large answer (a file's text) awaits it first, so a burst of
   * such requests produces one answer at a time as the peer reads instead of all at once.
   */
  outputReady(): Promise<void> {
    return this.#outbox.ready();
  }

  /** Subscribe to diagnostics (dropped or unknown messages, handler failures, …). Returns unsubscribe. */
  onDiagnostic(listener: (diagnostic: Diagnostic<DiagnosticCode>) => void): () => void {
    return this.#diagnostics.subscribe(listener);
  }

  /** Close the transport. Resolves once it is closed and every pending request was rejected. */
  async close(reason?: string): Promise<void> {
    await this.#transport.close(reason);
    await this.closed;
  }

  #transportError(error: AcpError): void {
    this.#report({ code: "transport_error", message: error.message, detail: error });
    // A request too large to read is still a request: answer it, so the peer does not wait forever.
    const requestId = (error.data as { requestId?: unknown } | undefined)?.requestId;
    if (error.code === "MessageTooLarge" && (typeof requestId === "string" || typeof requestId === "number")) {
      this.#sendReply(
        errorResponse(requestId, ErrorCode.InvalidRequest, "Invalid request: the message was larger than the receiver's size limit and was discarded"),
      );
    }
  }

  #report(diagnostic: Diagnostic<DiagnosticCode>): void {
    this.#diagnostics.emit(diagnostic);
  }

  #receive(message: string | object): void {
    let value: unknown = message;
    if (typeof message === "string") {
      try {
        value = this.#decoder.decode(message);
      } catch (error) {
        const reason = errorMessageOf(error);
        this.#report({ code: "parse_error", message: `Unparsable message: ${reason}`, detail: message.length > 200 ? `${message.slice(0, 200)}…` : message });
        this.#sendReply(errorResponse(null, ErrorCode.ParseError, `Parse error: ${reason}`));
        return;
      }
    }
    this.#queue.push(value);
  }

  // Called by the queue, in wire order. Nothing a peer sends may leave a message unanswered and
  // unreported, even a failure of our own: it is reported, and a request gets -32603.
  #process(value: unknown): void | PromiseLike<unknown> {
    try {
      if (Array.isArray(value)) return this.#processBatch(value);
      return this.#processOne(value, undefined);
    } catch (error) {
      this.#internalFailure(value, error, undefined);
    }
  }

  #processEntry(entry: unknown, batch: BatchReply): void | PromiseLike<unknown> {
    try {
      return this.#processOne(entry, batch);
    } catch (error) {
      this.#internalFailure(entry, error, batch);
    }
  }

  #internalFailure(value: unknown, error: unknown, batch: BatchReply | undefined): void {
    const kind = classifyMessage(value);
    this.#report({ code: "internal_error", message: `Handling an incoming message failed: ${errorMessageOf(error)}`, detail: error });
    // A request is answered -32603 under its id, an invalid message under null; nothing else is answered.
    const id = kind === JsonRpcKind.Request ? (value as JsonRpcRequest).id : kind === JsonRpcKind.Invalid ? null : undefined;
    if (id !== undefined) this.#reply(errorResponse(id, ErrorCode.InternalError, `Internal error: ${errorMessageOf(error)}`), batch);
  }

  #processOne(value: unknown, batch: BatchReply | undefined): void | PromiseLike<unknown> {
    switch (classifyMessage(value)) {
      case JsonRpcKind.Notification:
        return this.#notifications.handle(value as JsonRpcNotification, this.#gate.open);
      case JsonRpcKind.Request:
        this.#handleRequest(value as JsonRpcRequest, batch);
        return;
      case JsonRpcKind.Response:
        this.#outgoing.settle(value as JsonRpcResponse);
        return;
      default:
        this.#handleInvalid(value, batch);
        return;
    }
  }

  #handleInvalid(value: unknown, batch: BatchReply | undefined): void {
    const reason = describeInvalidMessage(value);
    const id = idOf(value);
    if (id !== undefined && (value as { method?: unknown }).method === undefined) this.#outgoing.failMalformed(id, reason, value);
    this.#report({ code: "invalid_message", message: `Invalid JSON-RPC message: ${reason}`, detail: value });
    this.#reply(errorResponse(null, ErrorCode.InvalidRequest, `Invalid request: ${reason}`), batch);
  }

  #processBatch(entries: unknown[]): void | PromiseLike<unknown> {
    const refusal = batchRefusal(this.#gate.open, this.#policy.version, entries.length);
    if (refusal !== undefined) {
      this.#report({ code: "invalid_message", message: `Batch refused: ${refusal}`, detail: entries });
      this.#sendReply(errorResponse(null, ErrorCode.InvalidRequest, `Invalid request: ${refusal}`));
      return;
    }
    return runBatch(entries, (entry, batch) => this.#processEntry(entry, batch), this.#sendBatchReply);
  }

  #handleRequest(message: JsonRpcRequest, batch: BatchReply | undefined): void {
    if (this.#closeInfo !== undefined) return; // nobody would read the answer
    const method = message.method;
    const notAdmitted = this.#gate.admitRequest(method);
    if (notAdmitted !== undefined) {
      if (method !== "initialize") this.#report({ code: "not_initialized", message: `Refused ${method} before initialize`, method });
      this.#reply(errorResponse(message.id, ErrorCode.InvalidRequest, `Invalid request: ${notAdmitted}`), batch);
      return;
    }
    const answer =
      batch === undefined
        ? this.#answer
        : (answeredMethod: string, response: JsonRpcResponse, request?: RunningRequest) => {
            this.#gate.answered(answeredMethod, response);
            batch.add(response, request);
          };
    this.#incoming.handle(message, answer);
  }

  #reply(response: JsonRpcResponse, batch: BatchReply | undefined): void {
    if (batch !== undefined) batch.add(response);
    else this.#sendReply(response);
  }

  #sendReply(message: JsonRpcResponse | JsonRpcResponse[], answered?: RunningRequest | RunningRequest[]): void {
    if (this.#closeInfo !== undefined) return;
    this.#outbox.send(message, answered);
  }

  // The peer stopped sending but still reads (stdin ended, docs/protocol.md S9): what it sent is
  // still answered. Its pending answers can never come, so our requests fail now; running handlers
  // see their signal abort (a prompt turn then ends "cancelled"), and once every message received
  // was handled and every request answered, the transport is closed.
  #inputEnd(): void {
    if (this.#closeInfo !== undefined || this.#inputEnded !== undefined) return;
    const error = new AcpError("ConnectionClosed", "the peer closed its side of the connection; it sends nothing more");
    this.#inputEnded = error;
    this.#outgoing.rejectAll(error);
    this.#incoming.onSettled = this.#closeIfAnswered;
    this.#queue.onIdle = this.#closeIfAnswered;
    this.#outbox.onIdle = this.#closeIfAnswered;
    this.#incoming.cancelAll(new AcpError("Cancelled", "The peer closed its side of the connection"));
    this.#closeIfAnswered();
  }

  // Answered means handed over and accepted: an answer still waiting behind a full channel would
  // be dropped by the close.
  readonly #closeIfAnswered = (): void => {
    if (this.#closeInfo !== undefined || !this.#queue.idle || this.#incoming.runningCount > 0 || !this.#outbox.idle) return;
    void this.#transport.close("peer closed the stream");
  };

  #handleClose(info: CloseInfo): void {
    if (this.#closeInfo !== undefined) return;
    this.#closeInfo = info;
    this.#outbox.drop();
    const error = closedError(info);
    this.#outgoing.rejectAll(error);
    this.#incoming.abortAll(error);
  }
}
