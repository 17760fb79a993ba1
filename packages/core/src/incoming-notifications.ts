// The peer's notifications: which are ignored (unknown, for the other side, invalid, before
// initialize) with a diagnostic, and handing the rest to their handler in wire order. A v1
// `$/cancel_request` is not handed on: it aborts the running request it names.
import type { DiagnosticEmitter } from "./diagnostics.js";
import { sessionIdOf } from "./diagnostics.js";
import type { IncomingRequests } from "./incoming-requests.js";
import { isThenable, type JsonRpcNotification, type RequestId } from "./jsonrpc.js";
import { CANCEL_REQUEST_METHOD, type MethodPolicy } from "./method-policy.js";
import { describeValidation, errorMessageOf, firstError } from "./wire-errors.js";

/** Handles one incoming notification; a returned promise holds back the next incoming message until it settles. */
// biome-ignore lint/suspicious/noExplicitAny: params were validated before the call; typed wrappers narrow them per method.
export type NotificationHandler = (params: any) => void | PromiseLike<void>;

export class IncomingNotifications {
  readonly handlers = new Map<string, NotificationHandler>();

  constructor(
    private readonly policy: MethodPolicy,
    private readonly diagnostics: DiagnosticEmitter,
    private readonly requests: IncomingRequests,
  ) {}

  /** Handles one notification; a returned promise holds back the next incoming message. */
  handle(message: JsonRpcNotification, admitted: boolean): void | PromiseLike<unknown> {
    const method = message.method;
    if (!admitted) {
      this.diagnostics.emit({ code: "not_initialized", message: `Dropped ${method} notification received before initialize`, method });
      return;
    }
    const params = message.params;
    const info = this.policy.info(method);
    const refusal = this.policy.notificationRefusal(method, info);
    if (refusal !== undefined) {
      const { why, legacy } = refusal;
      if (legacy === undefined) this.diagnostics.emit({ code: "unknown_notification", message: `Ignored notification: ${why}`, method });
      else this.diagnostics.emit({ code: "legacy_shape", message: `Dropped notification: ${why}`, method, sessionId: sessionIdOf(params), detail: legacy });
      return;
    }
    if (info !== undefined) {
      const validation = info.validateParams(params);
      if (!validation.valid) {
        const first = firstError(validation.errors);
        const legacy = first.legacyShape !== undefined;
        this.diagnostics.emit({
          code: legacy ? "legacy_shape" : "invalid_params",
          message: legacy
            ? `Dropped ${method} notification: legacy shape ${first.legacyShape}, expected ${first.expected ?? "the current shape"}`
            : `Dropped ${method} notification: invalid params at ${describeValidation(first)}`,
          method,
          path: first.path,
          sessionId: sessionIdOf(params),
          detail: validation.errors,
        });
        return;
      }
      if (method === CANCEL_REQUEST_METHOD) {
        this.requests.cancel((params as { requestId: RequestId }).requestId);
        return;
      }
    }
    const handler = this.handlers.get(method);
    if (handler === undefined) {
      this.diagnostics.emit({ code: "unknown_notification", message: `Ignored notification: nothing handles ${method}`, method });
      return;
    }
    let output: void | PromiseLike<void>;
    try {
      output = handler(params);
    } catch (error) {
      this.reportHandlerError(method, params, error);
      return;
    }
    if (isThenable(output)) return output.then(undefined, (error: unknown) => this.reportHandlerError(method, params, error));
  }

  private reportHandlerError(method: string, params: unknown, error: unknown): void {
    this.diagnostics.emit({
      code: "handler_error",
      message: `The ${method} handler failed: ${errorMessageOf(error)}`,
      method,
      sessionId: sessionIdOf(params),
      detail: error,
    });
  }
}
