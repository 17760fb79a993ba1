// Connection: one JSON-RPC 2.0 peer over a Transport, speaking one ACP protocol version.
//
// It ties together the small pieces: `jsonrpc.ts` classifies what arrives, `incoming-queue.ts`
// hands it to handlers in wire order, `pending-requests.ts` matches responses to our requests,
// `batch.ts` answers v2 batches, and the method registry (from @acpkit/schema) says which methods
// exist in the version, in which direction, and how to validate them.
//
// Per incoming notification with a synchronous handler the work is: one JSON.parse, a few
// property checks, two map lookups, one validator call, the handler. No promise, no closure.
import { BatchReply } from "./batch.js";
import { DiagnosticEmitter, sessionIdOf, type Diagnostic } from "./diagnostics.js";
import { AcpError, ErrorCode, RpcError, type RpcErrorObject } from "./errors.js";
import { IncomingQueue } from "./incoming-queue.js";
import { IncomingRequest } from "./incoming-request.js";
import {
  MessageKind,
  classifyMessage,
  describeInvalidMessage,
  errorResponse,
  idOf,
  isThenable,
  notificationMessage,
  requestMessage,
  successResponse,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from "./jsonrpc.js";
import { PendingRequest, PendingRequests } from "./pending-requests.js";
import { KNOWN_VERSIONS, schemaRegistry, type MethodInfo, type MethodRegistry, type ProtocolVersion, type ValidationError } from "./registry.js";
import type { CloseInfo, Transport, TransportReceiver } from "./transport.js";

/** The v1 notification that asks the peer to stop working on one of our requests (docs/protocol.md §4.9). */
export const CANCEL_REQUEST_METHOD = "$/cancel_request";

/** How a `Connection` behaves: which side it is, its version, and what it checks. */
export interface ConnectionOptions {
  /** Which end we are; incoming methods are accepted, and outgoing ones sent, only in their registry direction. */
  side: "agent" | "client";
  /** The protocol version, when known up front; otherwise set it later with `setVersion`. */
  version?: ProtocolVersion;
  /**
   * Agent side: docs/protocol.md N8. Before a successful `initialize` every other request gets -32600
   * "connection not initialized", notifications are dropped, a batch gets one -32600; a second
   * `initialize` gets -32600.
   */
  requireInitialize?: boolean;
  /**
   * Validate what we send (params, and handler results) against the version's schema and
   * conformance rules, so a bug surfaces at the call site. Default: on, unless
   * `process.env.NODE_ENV === "production"`.
   */
  validateOutgoing?: boolean;
  /** The method registry to dispatch and validate against. Default: the one in `@acpkit/schema`. */
  registry?: MethodRegistry;
}

/** Per-call options of `Connection.request`. */
export interface RequestOptions {
  /** Aborting rejects the request with AcpError "Cancelled" (and on v1 sends `$/cancel_request`). */
  signal?: AbortSignal;
  /** Reject with AcpError "Timeout" (and on v1 send `$/cancel_request`) after this many milliseconds. */
  timeoutMs?: number;
}

/** What a request handler learns besides the params. */
export interface RequestContext {
  /** The peer's id for this request (a peer may, against advice, use null). */
  id: RequestId | null;
  method: string;
  /** Aborts when the peer sends `$/cancel_request` for this request (v1) or the connection closes. */
  signal: AbortSignal;
  /**
   * Call `listener` once when `signal` aborts (at once if it already has). Cheaper than a listener
   * on `signal`: the AbortController behind `signal` is only made when `signal` is read.
   */
  onCancel(listener: (reason: unknown) => void): void;
}

/** Answers one incoming request: return (or resolve) the result, or throw (an `RpcError` is sent as is). */
// biome-ignore lint/suspicious/noExplicitAny: params were validated against the method's schema before the call; the agent and client type them per method.
export type RequestHandler = (params: any, ctx: RequestContext) => unknown;
/** Handles one incoming notification; a returned promise holds back the next incoming message until it settles. */
// biome-ignore lint/suspicious/noExplicitAny: as for RequestHandler, params were validated before the call.
export type NotificationHandler = (params: any) => void | PromiseLike<void>;

// Where the N8 gate stands (requireInitialize).
const InitState = { None: 0, InProgress: 1, Done: 2 } as const;
type InitState = (typeof InitState)[keyof typeof InitState];

function defaultValidateOutgoing(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.NODE_ENV !== "production";
}

// `_`-prefixed methods are extensions: allowed without a registry entry, never validated by it.
function isExtensionMethod(method: string): boolean {
  return method.charCodeAt(0) === 95; /* "_" */
}

function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function firstError(errors: readonly ValidationError[]): ValidationError {
  return errors[0] ?? { path: "", message: "is invalid" };
}

function describeValidation(error: ValidationError): string {
  return `${error.path === "" ? "(root)" : error.path} ${error.message}`;
}

/** The `AcpError("ConnectionClosed")` every pending request rejects with; `data` is the transport's `CloseInfo`. */
export function closedError(info: CloseInfo): AcpError {
  return new AcpError("ConnectionClosed", `Connection closed: ${info.reason}`, { data: info });
}

/**
 * One JSON-RPC 2.0 peer over a `Transport`, speaking one protocol version: numbers its requests,
 * matches responses, dispatches incoming messages to handlers in wire order, validates them
 * against the version's schema and answers malformed input with the right JSON-RPC error.
 */
export class Connection {
  private readonly transport: Transport;
  private readonly side: "agent" | "client";
  private readonly registry: MethodRegistry;
  private readonly validateOutgoing: boolean;
  private readonly requireInitialize: boolean;
  private currentVersion: ProtocolVersion | undefined;
  private initState: InitState = InitState.None;
  private closeInfo: CloseInfo | undefined;

  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly pending = new PendingRequests();
  // Registry entries of this connection's version by method name, for the per-message path (the
  // version never changes once set). Only methods the registry knows are kept, so a peer sending
  // made-up names cannot grow it.
  private readonly knownMethods = new Map<string, MethodInfo>();
  // Incoming requests whose handlers are still running: id → the handler's context.
  private readonly running = new Map<RequestId | null, IncomingRequest>();
  private readonly diagnostics = new DiagnosticEmitter();
  private readonly queue = new IncomingQueue<unknown>((message) => this.process(message));

  // Bound once, so sending a reply does not allocate a closure per message.
  private readonly onReplyFailed = (error: unknown): void => {
    if (this.closeInfo !== undefined) return; // expected: the peer went away first
    this.report({ code: "transport_error", message: `Could not send a reply: ${errorMessageOf(error)}`, detail: error });
  };
  private readonly onCancelListenerFailed = (error: unknown, method: string): void => {
    this.report({ code: "handler_error", message: `A cancel listener of the ${method} handler failed: ${errorMessageOf(error)}`, method, detail: error });
  };
  private readonly onCancelSendFailed = (): void => {
    // Best effort: the request is already rejected locally.
  };

  /** Resolves once the transport has closed and every pending request was rejected. */
  readonly closed: Promise<CloseInfo>;

  constructor(transport: Transport, options: ConnectionOptions) {
    if (options.side !== "agent" && options.side !== "client") {
      throw new TypeError(`Connection: options.side must be "agent" or "client", got ${JSON.stringify(options.side)}`);
    }
    this.transport = transport;
    this.side = options.side;
    this.registry = options.registry ?? schemaRegistry;
    this.validateOutgoing = options.validateOutgoing ?? defaultValidateOutgoing();
    this.requireInitialize = options.requireInitialize ?? false;
    if (options.version !== undefined) this.setVersion(options.version);
    this.closed = transport.closed.then((info) => {
      this.handleClose(info);
      return info;
    });
    const receiver: TransportReceiver = {
      onMessage: (message) => this.receive(message),
      onTransportError: (error) => this.report({ code: "transport_error", message: error.message, detail: error }),
    };
    transport.start(receiver);
  }

  /** The protocol version of this connection, once known. */
  get version(): ProtocolVersion | undefined {
    return this.currentVersion;
  }

  /**
   * Fix the connection's protocol version (one per connection, docs/protocol.md N5). The agent calls it
   * from its `initialize` handler after `negotiateVersion`; the client after reading the answer.
   */
  setVersion(version: ProtocolVersion): void {
    if (!KNOWN_VERSIONS.includes(version)) {
      throw new AcpError("VersionUnsupported", `Protocol version ${JSON.stringify(version)} is not supported (known: ${KNOWN_VERSIONS.join(", ")})`);
    }
    if (this.currentVersion === version) return;
    if (this.currentVersion !== undefined) {
      throw new AcpError("ProtocolViolation", `The connection already speaks protocol v${this.currentVersion}; it cannot switch to v${version}`);
    }
    this.currentVersion = version;
  }

  // ---------------------------------------------------------------------------------------------
  // Outgoing

  /**
   * Send a request and wait for its result. Rejects with `RpcError` when the peer answers with an
   * error, and with `AcpError` for local failures: "Cancelled" (signal), "Timeout",
   * "ConnectionClosed", "OutgoingInvalid" (development-mode validation), "InvalidMessage" (the
   * peer's result failed validation).
   */
  request<R = unknown>(method: string, params: unknown, options?: RequestOptions): Promise<R> {
    if (this.closeInfo !== undefined) return Promise.reject(closedError(this.closeInfo));
    if (this.validateOutgoing) {
      const invalid = this.checkOutgoing(method, "params", params, "request");
      if (invalid !== undefined) return Promise.reject(invalid);
    }
    const signal = options?.signal;
    if (signal?.aborted) {
      return Promise.reject(new AcpError("Cancelled", `Request ${method} was cancelled before it was sent`, { cause: signal.reason }));
    }
    const timeoutMs = options?.timeoutMs;
    const id = this.pending.allocateId();
    const entry = new PendingRequest(id, method);
    const result = new Promise<R>((resolve, reject) => {
      entry.resolve = resolve as (result: unknown) => void;
      entry.reject = reject;
    });
    if (signal !== undefined) {
      entry.signal = signal;
      entry.onAbort = () => this.abandon(id, new AcpError("Cancelled", `Request ${method} (id ${id}) was cancelled`, { cause: signal.reason }));
      signal.addEventListener("abort", entry.onAbort, { once: true });
    }
    if (timeoutMs !== undefined) {
      entry.timer = setTimeout(() => this.abandon(id, new AcpError("Timeout", `Request ${method} (id ${id}) got no answer within ${timeoutMs} ms`)), timeoutMs);
    }
    this.pending.add(entry);
    const sendFailed = (error: unknown): void => {
      this.pending.take(id)?.reject(error instanceof Error ? error : new AcpError("ConnectionClosed", errorMessageOf(error)));
    };
    try {
      this.transport.send(requestMessage(id, method, params)).then(undefined, sendFailed);
    } catch (error) {
      // A transport that throws instead of rejecting still fails only this request.
      sendFailed(error);
    }
    return result;
  }

  /** Send a notification. Resolves once the transport took it (backpressure); nothing more. */
  notify(method: string, params: unknown): Promise<void> {
    if (this.closeInfo !== undefined) return Promise.reject(closedError(this.closeInfo));
    if (this.validateOutgoing) {
      const invalid = this.checkOutgoing(method, "params", params, "notification");
      if (invalid !== undefined) return Promise.reject(invalid);
    }
    return this.transport.send(notificationMessage(method, params));
  }

  // Give up on one of our requests locally; on v1 also ask the peer to stop (docs/protocol.md C9). On v2
  // `$/cancel_request` does not exist, so nothing is sent.
  private abandon(id: number, error: AcpError): void {
    const entry = this.pending.take(id);
    if (entry === undefined) return;
    if (this.currentVersion === 1 && this.closeInfo === undefined) {
      this.transport.send(notificationMessage(CANCEL_REQUEST_METHOD, { requestId: id })).then(undefined, this.onCancelSendFailed);
    }
    entry.reject(error);
  }

  // Development-mode check of an outgoing params/result value. Returns the error to throw, if any.
  private checkOutgoing(method: string, part: "params" | "result", value: unknown, kind?: "request" | "notification"): AcpError | undefined {
    const version = this.currentVersion;
    if (version === undefined) return undefined; // before negotiation there is no schema to check against
    const info = this.registry.getMethod(version, method);
    if (info === undefined) {
      if (isExtensionMethod(method)) return undefined;
      return new AcpError("OutgoingInvalid", `Cannot send ${method}: no such method in protocol v${version}`, { data: { method, version, part } });
    }
    if (kind !== undefined) {
      if (info.kind !== kind) {
        const use = info.kind === "request" ? "request()" : "notify()";
        return new AcpError("OutgoingInvalid", `Cannot send ${method} as a ${kind}: it is a ${info.kind} (use ${use})`, { data: { method, version, part } });
      }
      if (!this.sendsDirection(info.direction)) {
        return new AcpError("OutgoingInvalid", `Cannot send ${method} from the ${this.side}: it goes ${info.direction.replaceAll("_", " ")}`, {
          data: { method, version, part },
        });
      }
    }
    const result = this.registry.checkOutgoing(version, method, part, value);
    if (result.valid) return undefined;
    const first = firstError(result.errors);
    return new AcpError("OutgoingInvalid", `Invalid ${part} for ${method} (protocol v${version}) at ${describeValidation(first)}`, {
      data: { method, version, part, path: first.path, errors: result.errors },
    });
  }

  private methodInfo(version: ProtocolVersion, method: string): MethodInfo | undefined {
    let info = this.knownMethods.get(method);
    if (info === undefined) {
      info = this.registry.getMethod(version, method);
      if (info !== undefined) this.knownMethods.set(method, info);
    }
    return info;
  }

  private handlesDirection(direction: MethodInfo["direction"]): boolean {
    return direction === "both" || direction === (this.side === "agent" ? "client_to_agent" : "agent_to_client");
  }

  private sendsDirection(direction: MethodInfo["direction"]): boolean {
    return direction === "both" || direction === (this.side === "agent" ? "agent_to_client" : "client_to_agent");
  }

  // ---------------------------------------------------------------------------------------------
  // Handler registration

  /**
   * Handle incoming requests for `method`. The handler's return value (or resolved promise) is the
   * result; throwing an `RpcError` answers with exactly that error, anything else with -32603 and
   * the error's message. Returns a function that unregisters the handler.
   */
  onRequest(method: string, handler: RequestHandler): () => void {
    this.checkRegistration(method, "request");
    this.requestHandlers.set(method, handler);
    return () => {
      if (this.requestHandlers.get(method) === handler) this.requestHandlers.delete(method);
    };
  }

  /**
   * Handle incoming notifications for `method`, one at a time in wire order: a returned promise is
   * awaited before the next incoming notification is handled. Returns an unregister function.
   */
  onNotification(method: string, handler: NotificationHandler): () => void {
    this.checkRegistration(method, "notification");
    this.notificationHandlers.set(method, handler);
    return () => {
      if (this.notificationHandlers.get(method) === handler) this.notificationHandlers.delete(method);
    };
  }

  /** Subscribe to diagnostics (dropped or unknown messages, handler failures, …). Returns unsubscribe. */
  onDiagnostic(listener: (diagnostic: Diagnostic) => void): () => void {
    return this.diagnostics.subscribe(listener);
  }

  // A handler may only be registered for a method that exists (in this connection's version, or —
  // before it is known — in some version), with the right kind, flowing towards this side.
  private checkRegistration(method: string, kind: "request" | "notification"): void {
    if (method === CANCEL_REQUEST_METHOD) {
      throw new AcpError("Unsupported", `${CANCEL_REQUEST_METHOD} is handled by the Connection itself: it aborts the request handler's ctx.signal`);
    }
    if (isExtensionMethod(method)) return;
    const versions = this.currentVersion === undefined ? KNOWN_VERSIONS : [this.currentVersion];
    let found: MethodInfo | undefined;
    for (const version of versions) {
      const info = this.registry.getMethod(version, method);
      if (info !== undefined && info.kind === kind && this.handlesDirection(info.direction)) return;
      found ??= info;
    }
    const where = versions.map((v) => `v${v}`).join(" or ");
    if (found === undefined) throw new AcpError("Unsupported", `Cannot handle ${method}: no such method in protocol ${where}`);
    if (found.kind !== kind) {
      const use = found.kind === "request" ? "onRequest" : "onNotification";
      throw new AcpError("Unsupported", `Cannot handle ${method} as a ${kind}: it is a ${found.kind} (use ${use})`);
    }
    throw new AcpError("Unsupported", `Cannot handle ${method} on the ${this.side} side: it goes ${found.direction.replaceAll("_", " ")}`);
  }

  // ---------------------------------------------------------------------------------------------
  // Incoming

  private receive(message: string | object): void {
    let value: unknown;
    if (typeof message === "string") {
      try {
        value = JSON.parse(message);
      } catch (error) {
        const reason = errorMessageOf(error);
        this.report({ code: "parse_error", message: `Unparsable message: ${reason}`, detail: message.length > 200 ? `${message.slice(0, 200)}…` : message });
        this.reply(errorResponse(null, ErrorCode.ParseError, `Parse error: ${reason}`), undefined);
        return;
      }
    } else {
      value = message;
    }
    this.queue.push(value);
  }

  // Called by the queue, in wire order.
  private process(value: unknown): void | PromiseLike<unknown> {
    if (Array.isArray(value)) return this.processBatch(value);
    return this.processOne(value, undefined);
  }

  private processOne(value: unknown, batch: BatchReply | undefined): void | PromiseLike<unknown> {
    switch (classifyMessage(value)) {
      case MessageKind.Notification:
        return this.handleNotification(value as JsonRpcNotification);
      case MessageKind.Request:
        this.handleRequest(value as JsonRpcRequest, batch);
        return;
      case MessageKind.Response:
        this.handleResponse(value as JsonRpcResponse);
        return;
      default:
        this.handleInvalid(value, batch);
        return;
    }
  }

  private handleInvalid(value: unknown, batch: BatchReply | undefined): void {
    const reason = describeInvalidMessage(value);
    // A malformed answer to one of our requests: fail that request instead of leaving it hanging.
    const id = idOf(value);
    if (id !== undefined && (value as { method?: unknown }).method === undefined) {
      this.pending.take(id)?.reject(new AcpError("ProtocolViolation", `The peer answered request ${id} with an invalid response: ${reason}`, { data: value }));
    }
    this.report({ code: "invalid_message", message: `Invalid JSON-RPC message: ${reason}`, detail: value });
    this.reply(errorResponse(null, ErrorCode.InvalidRequest, `Invalid request: ${reason}`), batch);
  }

  private processBatch(entries: unknown[]): void | PromiseLike<unknown> {
    // docs/protocol.md §8.2 and N8: batches exist only on v2 connections, and only after initialize.
    let refusal: string | undefined;
    if (this.requireInitialize && this.initState !== InitState.Done) refusal = "connection not initialized";
    else if (this.currentVersion !== 2)
      refusal = `batches are only accepted on protocol v2 connections${this.currentVersion === undefined ? "" : ` (this one is v${this.currentVersion})`}`;
    else if (entries.length === 0) refusal = "empty batch";
    if (refusal !== undefined) {
      this.report({ code: "invalid_message", message: `Batch refused: ${refusal}`, detail: entries });
      this.reply(errorResponse(null, ErrorCode.InvalidRequest, `Invalid request: ${refusal}`), undefined);
      return;
    }
    let expected = 0;
    for (const entry of entries) {
      const kind = classifyMessage(entry);
      if (kind === MessageKind.Request || kind === MessageKind.Invalid) expected++;
    }
    const batch = new BatchReply(expected, (responses) => this.sendReply(responses));
    return this.runBatch(entries, 0, batch);
  }

  // Entries run in order like single messages; an async notification handler holds the rest.
  private runBatch(entries: unknown[], start: number, batch: BatchReply): void | PromiseLike<unknown> {
    for (let i = start; i < entries.length; i++) {
      const pending = this.processOne(entries[i], batch);
      if (isThenable(pending)) return pending.then(() => this.runBatch(entries, i + 1, batch));
    }
  }

  private handleRequest(message: JsonRpcRequest, batch: BatchReply | undefined): void {
    if (this.closeInfo !== undefined) return; // nobody would read the answer
    const { id, method } = message;
    if (this.requireInitialize) {
      if (method === "initialize") {
        if (this.initState !== InitState.None) {
          const why = this.initState === InitState.Done ? "connection already initialized" : "initialize is already in progress";
          this.reply(errorResponse(id, ErrorCode.InvalidRequest, `Invalid request: ${why}`), batch);
          return;
        }
        this.initState = InitState.InProgress;
      } else if (this.initState !== InitState.Done) {
        this.report({ code: "not_initialized", message: `Refused ${method} before initialize`, method });
        this.reply(errorResponse(id, ErrorCode.InvalidRequest, "Invalid request: connection not initialized"), batch);
        return;
      }
    }

    const version = this.currentVersion;
    const info = version === undefined ? undefined : this.methodInfo(version, method);
    if (version !== undefined) {
      let missing: string | undefined;
      if (info === undefined) {
        if (!isExtensionMethod(method)) missing = `${method} does not exist in protocol v${version}`;
      } else if (info.kind !== "request") {
        missing = `${method} is a notification, not a request`;
      } else if (!this.handlesDirection(info.direction)) {
        missing = `${method} is not handled by the ${this.side}`;
      }
      if (missing !== undefined) {
        const legacy = info === undefined ? this.registry.legacyMethod?.(version, method) : undefined;
        if (legacy !== undefined) missing = `${method} is a legacy method name; use ${legacy.expected}`;
        this.report({ code: legacy === undefined ? "unknown_method" : "legacy_shape", message: `Method not found: ${missing}`, method, detail: legacy });
        this.finishRequest(method, errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${missing}`, legacy), batch);
        return;
      }
    }
    const handler = this.requestHandlers.get(method);
    if (handler === undefined) {
      this.report({ code: "unknown_method", message: `Method not found: nothing handles ${method}`, method });
      this.finishRequest(method, errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`), batch);
      return;
    }
    const params = message.params;
    if (info !== undefined) {
      const validation = info.validateParams(params);
      if (!validation.valid) {
        this.finishRequest(method, this.invalidParamsResponse(id, method, validation.errors), batch);
        return;
      }
    }

    const ctx = new IncomingRequest(id, method, this.onCancelListenerFailed);
    this.running.set(id, ctx);
    let output: unknown;
    try {
      output = handler(params, ctx);
    } catch (error) {
      this.answerFailure(id, method, error, ctx, batch);
      return;
    }
    if (isThenable(output)) {
      output.then(
        (result) => this.answerResult(id, method, result, ctx, batch),
        (error: unknown) => this.answerFailure(id, method, error, ctx, batch),
      );
    } else {
      this.answerResult(id, method, output, ctx, batch);
    }
  }

  private invalidParamsResponse(id: RequestId | null, method: string, errors: readonly ValidationError[]): JsonRpcResponse {
    const first = firstError(errors);
    const data: Record<string, unknown> = { path: first.path, message: first.message };
    let message = `Invalid params for ${method}: ${describeValidation(first)}`;
    if (first.legacyShape !== undefined) {
      data.legacyShape = first.legacyShape;
      data.expected = first.expected;
      message = `Invalid params for ${method}: expected ${first.expected ?? "the current shape"}, got the legacy shape ${first.legacyShape}`;
    }
    if (errors.length > 1) data.errors = errors;
    return errorResponse(id, ErrorCode.InvalidParams, message, data);
  }

  private answerResult(id: RequestId | null, method: string, result: unknown, ctx: IncomingRequest, batch: BatchReply | undefined): void {
    if (!this.finishRunning(id, ctx)) return;
    if (this.validateOutgoing) {
      const invalid = this.checkOutgoing(method, "result", result === undefined ? null : result);
      if (invalid !== undefined) {
        // The bug is in our own handler: tell its author (diagnostic) and the peer (-32603),
        // rather than put an invalid result on the wire.
        const data = invalid.data as { path?: string } | undefined;
        this.report({ code: "outgoing_invalid", message: invalid.message, method, path: data?.path, detail: invalid });
        this.finishRequest(method, errorResponse(id, ErrorCode.InternalError, `Internal error: ${invalid.message}`), batch);
        return;
      }
    }
    this.finishRequest(method, successResponse(id, result), batch);
  }

  private answerFailure(id: RequestId | null, method: string, error: unknown, ctx: IncomingRequest, batch: BatchReply | undefined): void {
    if (!this.finishRunning(id, ctx)) return;
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
    this.finishRequest(method, response, batch);
  }

  // The handler for `id` is done. False when the connection closed meanwhile (no one to answer).
  private finishRunning(id: RequestId | null, ctx: IncomingRequest): boolean {
    if (this.running.get(id) === ctx) this.running.delete(id);
    return this.closeInfo === undefined;
  }

  // Every answer to a request that passed the N8 gate goes through here.
  private finishRequest(method: string, response: JsonRpcResponse, batch: BatchReply | undefined): void {
    if (this.requireInitialize && method === "initialize" && this.initState === InitState.InProgress) {
      this.initState = "error" in response ? InitState.None : InitState.Done;
    }
    this.reply(response, batch);
  }

  private reply(response: JsonRpcResponse, batch: BatchReply | undefined): void {
    if (batch !== undefined) batch.add(response);
    else this.sendReply(response);
  }

  private sendReply(message: JsonRpcResponse | JsonRpcResponse[]): void {
    if (this.closeInfo !== undefined) return;
    this.transport.send(message).then(undefined, this.onReplyFailed);
  }

  private handleNotification(message: JsonRpcNotification): void | PromiseLike<unknown> {
    const method = message.method;
    if (this.requireInitialize && this.initState !== InitState.Done) {
      this.report({ code: "not_initialized", message: `Dropped ${method} notification received before initialize`, method });
      return;
    }
    const params = message.params;
    const version = this.currentVersion;
    if (version !== undefined) {
      const info = this.methodInfo(version, method);
      if (info === undefined) {
        if (!isExtensionMethod(method)) return this.ignoreUnknownNotification(version, method, params);
      } else {
        if (info.kind !== "notification") return this.ignoreNotification(method, `${method} is a request, not a notification`);
        if (!this.handlesDirection(info.direction)) return this.ignoreNotification(method, `${method} is not handled by the ${this.side}`);
        const validation = info.validateParams(params);
        if (!validation.valid) {
          this.reportInvalidNotification(method, params, validation.errors);
          return;
        }
        if (method === CANCEL_REQUEST_METHOD) {
          this.cancelIncoming((params as { requestId: RequestId }).requestId);
          return;
        }
      }
    }
    const handler = this.notificationHandlers.get(method);
    if (handler === undefined) return this.ignoreNotification(method, `nothing handles ${method}`);
    let output: void | PromiseLike<void>;
    try {
      output = handler(params);
    } catch (error) {
      this.reportHandlerError(method, params, error);
      return;
    }
    if (isThenable(output)) {
      return output.then(undefined, (error: unknown) => this.reportHandlerError(method, params, error));
    }
  }

  private ignoreUnknownNotification(version: ProtocolVersion, method: string, params: unknown): void {
    const legacy = this.registry.legacyMethod?.(version, method);
    if (legacy === undefined) return this.ignoreNotification(method, `${method} does not exist in protocol v${version}`);
    this.report({
      code: "legacy_shape",
      message: `Dropped notification: ${method} is a legacy method name; use ${legacy.expected}`,
      method,
      sessionId: sessionIdOf(params),
      detail: legacy,
    });
  }

  private ignoreNotification(method: string, why: string): void {
    this.report({ code: "unknown_notification", message: `Ignored notification: ${why}`, method });
  }

  private reportInvalidNotification(method: string, params: unknown, errors: readonly ValidationError[]): void {
    const first = firstError(errors);
    const legacy = first.legacyShape !== undefined;
    this.report({
      code: legacy ? "legacy_shape" : "invalid_params",
      message: legacy
        ? `Dropped ${method} notification: legacy shape ${first.legacyShape}, expected ${first.expected ?? "the current shape"}`
        : `Dropped ${method} notification: invalid params at ${describeValidation(first)}`,
      method,
      path: first.path,
      sessionId: sessionIdOf(params),
      detail: errors,
    });
  }

  private reportHandlerError(method: string, params: unknown, error: unknown): void {
    this.report({
      code: "handler_error",
      message: `The ${method} handler failed: ${errorMessageOf(error)}`,
      method,
      sessionId: sessionIdOf(params),
      detail: error,
    });
  }

  // v1 `$/cancel_request` from the peer: abort that handler's signal. It still answers (-32800
  // when it gives up, or a result), as docs/protocol.md §4.9 requires.
  private cancelIncoming(requestId: RequestId): void {
    const ctx = this.running.get(requestId);
    if (ctx === undefined) return; // already answered: a normal race
    ctx.abort(new AcpError("Cancelled", `The peer cancelled request ${JSON.stringify(requestId)}`));
  }

  private handleResponse(message: JsonRpcResponse): void {
    const id = message.id;
    if (id === null) {
      // The peer could not read something we sent (it answers -32700/-32600 with id null).
      const error = "error" in message ? message.error : undefined;
      this.report({
        code: error === undefined ? "unexpected_response" : "peer_error",
        message: error === undefined ? "Ignored a response with id null" : `The peer reported error ${error.code}: ${error.message}`,
        detail: message,
      });
      return;
    }
    const entry = this.pending.take(id);
    if (entry === undefined) {
      // A late answer to a request we cancelled or timed out is normal; anything else is odd.
      if (!this.pending.wasIssued(id))
        this.report({ code: "unexpected_response", message: `Ignored a response to unknown request id ${JSON.stringify(id)}`, detail: message });
      return;
    }
    if ("error" in message) {
      entry.reject(RpcError.fromObject(message.error as RpcErrorObject));
      return;
    }
    const version = this.currentVersion;
    if (version !== undefined) {
      const info = this.methodInfo(version, entry.method);
      const validation = info?.validateResult?.(message.result);
      if (validation !== undefined && !validation.valid) {
        const first = firstError(validation.errors);
        const text = `Invalid result for ${entry.method} from the peer at ${describeValidation(first)}`;
        this.report({ code: "invalid_result", message: text, method: entry.method, path: first.path, detail: validation.errors });
        entry.reject(new AcpError("InvalidMessage", text, { data: { method: entry.method, path: first.path, errors: validation.errors } }));
        return;
      }
    }
    entry.resolve(message.result);
  }

  private report(diagnostic: Diagnostic): void {
    this.diagnostics.emit(diagnostic);
  }

  // ---------------------------------------------------------------------------------------------
  // Closing

  /** Close the transport. Resolves once it is closed and every pending request was rejected. */
  async close(reason?: string): Promise<void> {
    await this.transport.close(reason);
    await this.closed;
  }

  private handleClose(info: CloseInfo): void {
    if (this.closeInfo !== undefined) return;
    this.closeInfo = info;
    const error = closedError(info);
    this.pending.rejectAll(error);
    const running = [...this.running.values()];
    this.running.clear();
    for (const ctx of running) ctx.abort(error);
  }
}
