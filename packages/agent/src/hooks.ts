// Calling the agent's own code (its definition's hooks): whatever it throws reaches the client as
// a JSON-RPC error, never as a crash and never as a stack trace (docs/protocol.md §4.11).
import { ErrorCode, isAcpError, RpcError } from "@acpkit/core";

/** A hook's failure as the JSON-RPC error the client sees: an RpcError as thrown, anything else -32603. */
export function toRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  if (isAcpError(error)) return new RpcError(ErrorCode.InternalError, `Agent error: ${error.message}`, { code: error.code });
  const message = error instanceof Error ? error.message : String(error);
  return new RpcError(ErrorCode.InternalError, `Agent error: ${message}`);
}

/** Run one of the agent's hooks; a throw or rejection becomes the RpcError the client is answered with. */
export async function callHook<T>(hook: () => T | PromiseLike<T>): Promise<T> {
  try {
    return await hook();
  } catch (error) {
    throw toRpcError(error);
  }
}

/** Whether a handler's failure is the abort of its own turn (its signal, or the connection closing). */
export function isAbortError(error: unknown): boolean {
  return (error instanceof Error && error.name === "AbortError") || isAcpError(error, "Cancelled") || isAcpError(error, "ConnectionClosed");
}
