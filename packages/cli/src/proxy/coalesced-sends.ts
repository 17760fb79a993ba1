// Sends collected until the next macrotask and handed to the transport together (acpkit proxy's
// editor side). The agent's side of the proxy delivers each message in a microtask of its own, and
// the stdio writer flushes once per microtask burst, so every forwarded update was a write of its
// own; collected, a burst of updates is one write.
import type { Transport } from "@acpkit/core";
import { wrapTransport } from "@acpkit/core/transport-kit";

/**
 * `inner`, with sends collected until the next macrotask and handed over together. Order is kept;
 * each send settles as the inner one does; a close hands over what is collected first. Everything
 * else (start, pause/resume, closed) is `inner`'s, as wrapTransport passes it on.
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
  return wrapTransport(inner, {
    send: (message) =>
      new Promise<void>((resolve, reject) => {
        pending.push({ message, settle: (sent) => sent.then(resolve, reject) });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }),
    close(reason) {
      flush();
      return inner.close(reason);
    },
  });
}
