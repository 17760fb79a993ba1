// @acpkit/transport-websocket: ACP over WebSocket: one JSON-RPC message per text frame (ws in Node, WebSocket in browsers).
export {};
