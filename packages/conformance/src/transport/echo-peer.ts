// The scripted peer of the transport conformance suite. It speaks raw JSON-RPC over any Transport and
// stands in for what core will do (parse text, answer -32700), so the suite can test transports
// before and apart from Connection. The same code runs in-process (memory, WebSocket) and in a
// child process (stdio), so every transport faces the same peer.
//
// Requests:      echo(params) → params; flood({count}) → sends `count` "tick" {seq} notifications,
//                then answers {sent}; big({size}) → sends one "big" notification whose text is
//                `size` characters, then answers {}; notes() → {received, inOrder} of "note"
//                notifications so far; hang() → never answered.
// Notifications: note({seq}) is counted; exit() makes the peer close its transport.
// Unparsable text → {"jsonrpc":"2.0","id":null,"error":{"code":-32700,…}}.
// A transport error → "transportError" {code, message} notification to the other side.

import type { AcpError, JsonRpcMessage, Transport } from "@acpkit/core";

/** Run the suite's scripted peer on `transport` (the far end of the pair the suite tests). */
export function runEchoPeer(transport: Transport, hooks: { onExit?: () => void } = {}): void {
  let notesReceived = 0;
  let notesInOrder = true;
  const send = (message: JsonRpcMessage) => {
    transport.send(message).catch(() => {
      // The suite may close the transport while the peer still answers; nothing to do then.
    });
  };
  const handle = (message: any): void => {
    if (Array.isArray(message)) {
      for (const entry of message) handle(entry);
      return;
    }
    const { id, method, params } = message;
    switch (method) {
      case "echo":
        send({ jsonrpc: "2.0", id, result: params });
        return;
      case "flood":
        for (let seq = 0; seq < params.count; seq++) send({ jsonrpc: "2.0", method: "tick", params: { seq } });
        send({ jsonrpc: "2.0", id, result: { sent: params.count } });
        return;
      case "big":
        send({ jsonrpc: "2.0", method: "big", params: { text: "x".repeat(params.size) } });
        send({ jsonrpc: "2.0", id, result: {} });
        return;
      case "note":
        if (params.seq !== notesReceived) notesInOrder = false;
        notesReceived++;
        return;
      case "notes":
        send({ jsonrpc: "2.0", id, result: { received: notesReceived, inOrder: notesInOrder } });
        return;
      case "hang":
        return;
      case "exit":
        void transport.close("the suite asked the peer to exit").then(() => hooks.onExit?.());
        return;
      default:
        if (id !== undefined) send({ jsonrpc: "2.0", id, error: { code: -32601, message: `no method ${method}` } });
    }
  };
  transport.start({
    onMessage(message: string | object) {
      if (typeof message !== "string") return handle(message);
      let parsed: unknown;
      try {
        parsed = JSON.parse(message);
      } catch (error) {
        send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: `parse error: ${(error as Error).message}`, data: { line: message.slice(0, 100) } } });
        return;
      }
      handle(parsed);
    },
    onTransportError(error: AcpError) {
      send({ jsonrpc: "2.0", method: "transportError", params: { code: error.code, message: error.message } });
    },
  });
}
