// The wording of what goes wrong: error responses and local errors built from validation results
// and thrown values. Kept apart so the Connection's modules say *when* to answer with an error and
// this one says *what* the answer reads.
import type { Diagnostic } from "./diagnostics.js";
import { AcpError, ErrorCode, isAcpError } from "./errors.js";
import { errorResponse, type JsonRpcResponse, type RequestId } from "./jsonrpc.js";
import type { ValidationError } from "./registry.js";
import type { CloseInfo } from "./transport.js";

/** A thrown value as one line of text (an Error's message, a string, or its JSON). */
export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** The first validation error, or a generic one when a validator gave none. */
export function firstError(errors: readonly ValidationError[]): ValidationError {
  return errors[0] ?? { path: "", message: "is invalid" };
}

/** `"/path message"`, with `(root)` for the empty path. */
export function describeValidation(error: ValidationError): string {
  return `${error.path === "" ? "(root)" : error.path} ${error.message}`;
}

/** The -32602 answer to a request whose params failed validation: the first error's path, and the modern shape for a legacy one. */
export function invalidParamsResponse(id: RequestId | null, method: string, errors: readonly ValidationError[]): JsonRpcResponse {
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

/** The `AcpError("ConnectionClosed")` every pending request rejects with; `data` is the transport's `CloseInfo`. */
export function closedError(info: CloseInfo): AcpError {
  return new AcpError("ConnectionClosed", `Connection closed: ${info.reason}`, { data: info });
}

/** The diagnostic for an answer the outbox could not send: our handler's result JSON cannot carry (-32603 went instead), or the channel's failure. */
export function replyFailure(error: unknown): Diagnostic<"outgoing_invalid" | "transport_error"> {
  if (isAcpError(error, "InvalidMessage"))
    return { code: "outgoing_invalid", message: `An answer could not be sent, -32603 went instead: ${errorMessageOf(error)}`, detail: error };
  return { code: "transport_error", message: `Could not send a reply: ${errorMessageOf(error)}`, detail: error };
}
