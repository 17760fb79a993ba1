// A transport that reports every message it carries: the page's client talks through it, so the
// wire view shows exactly what went over the WebSocket, as text, in order. Everything else of the
// inner transport (flow control, the receiver's optional hooks) passes through unchanged.
import type { Transport } from "@acpkit/core";
import { forwardingReceiver, wrapTransport } from "@acpkit/core/transport-kit";

export interface TransportTap {
  sent(text: string): void;
  received(text: string): void;
}

export function tappedTransport(inner: Transport, tap: TransportTap): Transport {
  return wrapTransport(inner, {
    send(message, through) {
      tap.sent(JSON.stringify(message));
      return through.send(message);
    },
    receiver: (outer) =>
      forwardingReceiver(outer, {
        onMessage(message) {
          tap.received(typeof message === "string" ? message : JSON.stringify(message));
          outer.onMessage(message);
        },
      }),
  });
}
