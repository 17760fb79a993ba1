// @acpkit/core: the JSON-RPC peer both sides use, the Transport contract, typed errors,
// version negotiation and the v1⇄v2 bridge.
export * from "./errors.js";
export type * from "./transport.js";
export { createDeferred, encodeMessage, utf8SizeOver, type Deferred } from "./transport-kit.js";
export type * from "./model.js";
export {
  Connection,
  CANCEL_REQUEST_METHOD,
  closedError,
  type ConnectionOptions,
  type RequestOptions,
  type RequestContext,
  type RequestHandler,
  type NotificationHandler,
} from "./connection.js";
export type { Diagnostic, DiagnosticCode } from "./diagnostics.js";
export { negotiateVersion, requestedVersionOf, type NegotiationResult } from "./negotiation.js";
export { schemaRegistry, type MethodRegistry } from "./registry.js";
export {
  MessageKind,
  classifyMessage,
  type RequestId,
  type JsonRpcRequest,
  type JsonRpcNotification,
  type JsonRpcSuccessResponse,
  type JsonRpcErrorResponse,
  type JsonRpcResponse,
} from "./jsonrpc.js";
export * from "./bridge/index.js";
