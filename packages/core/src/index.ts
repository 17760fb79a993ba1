// @acpkit/core: the JSON-RPC peer both sides use, the Transport contract, typed errors,
// version negotiation and the v1⇄v2 bridge.
export * from "./errors.js";
export type * from "./transport.js";
