// The work of a session the client may cancel on its own (docs/protocol.md A10): tool calls and
// agent-owned terminals started `cancellable`. Each has an AbortController until it ends; the
// client's cancel request (the later draft's `tool_call/cancel` / `terminal/cancel`, the model's
// `_acpkit/…` requests) aborts it. Bounded by the agent's own open work: the client adds nothing.
import { ErrorCode, isJsonObject, RpcError } from "@acpkit/core";

export type WorkKind = "tool_call" | "terminal";

export class CancellableWork {
  readonly #controllers = new Map<string, AbortController>();

  /** Register cancellable work; its signal aborts when the client cancels it. */
  add(kind: WorkKind, id: string): AbortSignal {
    const controller = new AbortController();
    this.#controllers.set(`${kind}\u0000${id}`, controller);
    return controller.signal;
  }

  /** The work ended (final status, exit): a cancel for it is refused from now on. */
  end(kind: WorkKind, id: string): void {
    this.#controllers.delete(`${kind}\u0000${id}`);
  }

  /** Abort the work; false when there is no such cancellable work now. */
  cancel(kind: WorkKind, id: string, reason: string): boolean {
    const key = `${kind}\u0000${id}`;
    const controller = this.#controllers.get(key);
    if (controller === undefined) return false;
    this.#controllers.delete(key);
    controller.abort(new DOMException(reason, "AbortError"));
    return true;
  }

  /** The session closed: abort everything still running. */
  cancelAll(reason: string): void {
    for (const controller of this.#controllers.values()) controller.abort(new DOMException(reason, "AbortError"));
    this.#controllers.clear();
  }
}

/**
 * The agent's own cancel of work it announced without the runtime's handles (`AgentDefinition.cancelWork`):
 * called when no cancellable work of the runtime has the id.
 */
export type CancelOwnWork = (request: { sessionId: string; kind: WorkKind; id: string }) => void | Promise<void>;

/**
 * Serve one cancel request: `{}` once the work's signal aborted (or the agent's own `cancelOwn`
 * accepted it), -32602 naming the id otherwise.
 */
export async function answerCancel(
  work: CancellableWork | undefined,
  kind: WorkKind,
  params: unknown,
  cancelOwn?: CancelOwnWork,
): Promise<Record<string, never>> {
  const field = kind === "tool_call" ? "toolCallId" : "terminalId";
  const id = isJsonObject(params) ? params[field] : undefined;
  if (typeof id !== "string") throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${field} must be a string`, { path: `/${field}` });
  const cancelled = work !== undefined && work.cancel(kind, id, `The client cancelled ${kind === "tool_call" ? "tool call" : "terminal"} ${id}`);
  if (!cancelled && cancelOwn !== undefined && work !== undefined) {
    await cancelOwn({ sessionId: String((params as { sessionId: unknown }).sessionId), kind, id });
    return {};
  }
  if (!cancelled) {
    const what = kind === "tool_call" ? `tool call "${id}"` : `terminal "${id}"`;
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${what} is not cancellable now (unknown, finished, or started without cancellable)`, {
      path: `/${field}`,
    });
  }
  return {};
}
