// Two kinds of failure, kept apart so a caller can tell a peer's refusal from a dead pipe:
// - RpcError: a JSON-RPC error object (numeric code), received from the peer or thrown by a
//   handler to answer with exactly that error.
// - AcpError: a local failure with a string code (the connection closed, a timeout, …).

/** JSON-RPC and ACP error codes used on the wire (docs/protocol.md §4.11). */
export const ErrorCode = {
  /** A message that is not JSON (answered with a null id). */
  ParseError: -32700,
  /** JSON that is not a JSON-RPC 2.0 request (a batch too, where the dialect forbids them). */
  InvalidRequest: -32600,
  /** A method the peer does not serve in the negotiated version. */
  MethodNotFound: -32601,
  /** Params that fail the method's schema; `data` names the JSON paths. */
  InvalidParams: -32602,
  /** The handler failed, or a limit refused the request; the message says which. */
  InternalError: -32603,
  /** A request the caller cancelled before it was answered. */
  RequestCancelled: -32800,
  /** The agent needs `authenticate` (later v2: `auth/login`) before this request. */
  AuthRequired: -32000,
  /** A session, terminal or file the request names does not exist. */
  ResourceNotFound: -32002,
  /** The later v2 draft's `initialize` refusal when no supported version is at or below the requested one (`data: {requested, supported}`). */
  UnsupportedProtocolVersion: -32022,
} as const;
/** One of the numeric codes in `ErrorCode`. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The JSON-RPC error object as it travels on the wire. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC error: received from the peer, or thrown by a handler to answer with it. */
export class RpcError extends Error {
  override readonly name = "RpcError";
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
  /** The JSON-RPC error object to send: `{code, message, data?}`. */
  toJSON(): RpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
  /** The error a peer sent, as an `RpcError` (keeps its code, message and data). */
  static fromObject(error: RpcErrorObject): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }
}

/** String codes of local failures. */
export type AcpErrorCode =
  | "ConnectionClosed" // the transport closed; pending requests reject with this
  | "InvalidMessage" // a message could not be parsed or is not JSON-RPC
  | "MessageTooLarge" // a frame/line exceeded the transport's limit
  | "Timeout" // a request exceeded its timeout
  | "Cancelled" // the caller aborted (AbortSignal)
  | "OutgoingInvalid" // development-mode check: we were about to send something invalid
  | "ProtocolViolation" // the peer broke a protocol rule (or strict bridge refused a lossy step)
  | "VersionUnsupported" // the peer answered a protocol version we do not speak
  | "Unsupported" // the operation is not available on this connection (e.g. fs on v2)
  | "InvalidArgument" // the caller passed a value the session does not allow (an unknown mode id, …)
  | "NotInitialized" // used before initialize completed
  | "ReceiverFailed" // a transport's receiver threw while taking a message; reported, the transport goes on
  | "UpdatesDropped"; // an iterator asked for updates that were no longer kept (a bounded buffer overflowed)

/** A local failure. `code` tells what happened; `data` carries details (paths, close info, …). */
export class AcpError extends Error {
  override readonly name = "AcpError";
  readonly code: AcpErrorCode;
  readonly data: unknown;
  constructor(code: AcpErrorCode, message: string, options?: { data?: unknown; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options?.data;
  }
}

/** Whether `error` is a JSON-RPC error (received from the peer, or made to answer with). */
export function isRpcError(error: unknown): error is RpcError {
  return error instanceof RpcError;
}

/** Whether `error` is a local failure, optionally with the given `code` (`isAcpError(e, "Timeout")`). */
export function isAcpError(error: unknown, code?: AcpErrorCode): error is AcpError {
  return error instanceof AcpError && (code === undefined || error.code === code);
}
