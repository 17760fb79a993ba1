// @acpkit/core: JSON-RPC 2.0 peer, Transport interface, typed errors, version negotiation and the v1⇄v2 bridge for ACP.
export {};
