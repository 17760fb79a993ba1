// A transport that reports every message it carries: the page's client talks through it, so the
// wire view shows exactly what went over the WebSocket, as text, in order.
import type { JsonRpcMessage, Transport } from "@acpkit/core";

export interface TransportTap {
  sent(text: string): void;
  received(text: string): void;
}

export function tappedTransport(inner: Transport, tap: TransportTap): Transport {
  return {
    start(receiver) {
      inner.start({
        onMessage(message) {
          tap.received(typeof message === "string" ? message : JSON.stringify(message));
          receiver.onMessage(message);
        },
        onTransportError(error) {
          receiver.onTransportError(error);
        },
      });
    },
    send(message: JsonRpcMessage | JsonRpcMessage[]) {
      tap.sent(JSON.stringify(message));
      return inner.send(message);
    },
    close: (reason) => inner.close(reason),
    get closed() {
      return inner.closed;
    },
  };
}
