// Sends collected until the next macrotask and handed to the transport together (acpkit proxy's
// editor side). The agent's side of the proxy delivers each message in a microtask of its own, and
// the stdio writer flushes once per microtask burst, so every forwarded update was a write of its
// own; collected, a burst of updates is one write.
import type { Transport } from "@acpkit/core";

/**
 * `inner`, with sends collected until the next macrotask and handed over together. The agent's
 * side delivers each message in a microtask of its own, and the stdio writer flushes once per
 * microtask burst: without this, every forwarded update became a write of its own. Order is kept;
 * each send settles as the inner one does; a close hands over what is collected first.
 */
export function coalescedSends(inner: Transport): Transport {
  let pending: { message: Parameters<Transport["send"]>[0]; settle: (sent: Promise<void>) => void }[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const batch = pending;
    pending = [];
    for (const item of batch) item.settle(inner.send(item.message));
  };
  const wrapped: Transport = {
    start: (receiver) => inner.start(receiver),
    send(message) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ message, settle: (sent) => sent.then(resolve, reject) });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    close(reason) {
      flush();
      return inner.close(reason);
    },
    get closed() {
      return inner.closed;
    },
  };
  if (inner.pause !== undefined && inner.resume !== undefined) {
    wrapped.pause = () => inner.pause!();
    wrapped.resume = () => inner.resume!();
  }
  return wrapped;
}
