// @acpkit/transport-websocket (Node entry): ACP over WebSocket, one JSON-RPC message per text
// frame (docs/protocol.md §8.3). `listen()` serves, `connect()` dials; both run on `ws`. Browsers get
// `./browser.js` (the "browser" export condition), which uses the global WebSocket instead.
export { listen, isLoopbackHost, bearerTokenCheck, type ListenOptions, type WebSocketListener } from "./server.js";
export { connect, type ConnectOptions } from "./node-client.js";
export { wrapNodeSocket, DEFAULT_KEEPALIVE_INTERVAL_MS, type NodeSocketOptions } from "./node-socket.js";
export { WebSocketTransport, DEFAULT_MAX_MESSAGE_SIZE, withoutAccessToken, type FrameSocket, type FrameTransportOptions } from "./frame-transport.js";
