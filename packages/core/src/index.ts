// @acpkit/core: the JSON-RPC peer both sides use, the Transport contract, typed errors and
// version negotiation. The v1⇄v2 bridge is `@acpkit/core/bridge`; what transport authors share
// (encodeMessage, utf8SizeOver, createDeferred, wrapTransport, …) is `@acpkit/core/transport-kit`.

/**
 * The JSON-RPC peer both sides use (`Connection`, typed by the ACP method tables), the `Transport` contract, typed errors, diagnostics and version negotiation.
 *
 * @module
 */
export * from "./errors.js";
export type * from "./transport.js";
export { describeTransportProblem } from "./transport.js";
export type * from "./model.js";
export { Connection } from "./connection.js";
export { type ConnectionOptions, DEFAULT_MAX_RUNNING_REQUESTS, defaultValidateOutgoing } from "./connection-options.js";
export { CANCEL_REQUEST_METHOD } from "./method-policy.js";
export { closedError } from "./wire-errors.js";
export { DEFAULT_REQUEST_TIMEOUT_MS, type RequestOptions, UNTIMED_METHODS } from "./outgoing-requests.js";
export { INCOMING_BACKLOG_HIGH_WATER } from "./incoming-queue.js";
export type { RequestContext, RequestHandler } from "./incoming-requests.js";
export type { NotificationHandler } from "./incoming-notifications.js";
export type {
  AcpMethodTables,
  ExtensionMethod,
  FieldOf,
  HandledBy,
  IncomingNotification,
  IncomingRequest,
  MethodSpec,
  MethodTables,
  MethodsOf,
  OutgoingNotification,
  OutgoingRequest,
  ParamsOf,
  ResultOf,
  SentBy,
  Side,
  Table,
  UntypedMethodTables,
} from "./method-types.js";
export {
  DiagnosticEmitter,
  type BridgeDiagnosticCode,
  type ConnectionDiagnosticCode,
  type Diagnostic,
  type DiagnosticCode,
  type DiagnosticListener,
} from "./diagnostics.js";
export { negotiateVersion, requestedVersionOf, type NegotiationResult } from "./negotiation.js";
export {
  isProtocolVersion,
  isProtocolVersionLoaded,
  loadProtocolVersion,
  schemaRegistry,
  SESSION_UPDATE_TAGS,
  STOP_REASONS,
  type MethodRegistry,
} from "./registry.js";
export { acceptedPromptBlocks, isJsonObject, jsonEqual, ownEntry, plainTextOf, setOwnField, valueKind, type PromptContentSupport } from "./json.js";
export { absolutePathProblem, checkAbsolutePathArgument, checkAbsolutePathParam, isAbsolutePath, toolCallPathProblem } from "./paths.js";
export type { LossyCode, LossyEvent } from "./lossy-code.js";
export { TextUpdateParams, encodeTextUpdateNotification, sessionUpdateParams, type TextUpdate } from "./text-update.js";
/**
 * The transport kit's code, for acpkit's own transports only; every other transport imports
 * `@acpkit/core/transport-kit`, which hands out this same copy. acpkit's transports take it from
 * here because a starting process then resolves one module of core instead of two.
 *
 * @hidden
 */
export * as __transportKit from "./transport-kit-code.js";
export {
  AGENT_TERMINAL_CONTENT_TYPE,
  AGENT_TERMINAL_OUTPUT,
  AGENT_TERMINAL_UPDATE,
  CANCEL_TERMINAL_METHOD,
  CANCEL_TOOL_CALL_METHOD,
  COMPACTION_SUMMARY_CHUNK,
  ELICITATION_COMPLETE_METHOD,
  ELICITATION_CREATE_METHOD,
  COMPACTION_UPDATE,
  CURRENT_MODE_UPDATE,
  DIFF_CHANGES_CONTENT_TYPE,
  NOTICE_UPDATE,
  STATE_UPDATE,
  TERMINAL_CONTENT_TYPE,
} from "./model-tags.js";
export {
  JsonRpcKind,
  classifyMessage,
  type RequestId,
  type JsonRpcRequest,
  type JsonRpcNotification,
  type JsonRpcSuccessResponse,
  type JsonRpcErrorResponse,
  type JsonRpcResponse,
} from "./jsonrpc.js";
export {
  type Dialect,
  dialectOfInitializeResult,
  isLaterV2InitializeParams,
  isWellFormedMessage,
} from "./dialect.js";
export {
  type DialectCodec,
  type DialectTransport,
  type DialectTransportOptions,
  dialectTransport,
  type Inbound,
  type Json as DialectJson,
  type LaterV2Codecs,
} from "./dialect-transport.js";
export { dialectAwareRegistry } from "./dialect-registry.js";
