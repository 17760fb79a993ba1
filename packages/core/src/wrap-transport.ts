// Wrapping a transport without losing what it can do. A wrapper (a tap that records messages, a
// layer that holds input while something loads) must pass on the optional parts of the contract
// as well: pause/resume when the inner transport has them, and the receiver's onInputEnd and
// onOutputCongestion when the receiver has them. Their presence is meaningful (a transport whose
// receiver lacks onInputEnd closes at once), so a wrapper that defines one the other side lacks,
// or drops one it has, changes behaviour; these helpers define exactly what the other side has.
import type { JsonRpcMessage, Transport, TransportReceiver } from "./transport.js";

/** What a wrapper changes; everything it leaves out is passed through as it is. */
export interface TransportWrapping {
  /** Sends a message through `inner` (default: `inner.send(message)`). */
  send?(message: JsonRpcMessage | JsonRpcMessage[], inner: Transport): Promise<void>;
  /** The receiver the inner transport delivers to, given the one the caller started with (default: that one). */
  receiver?(outer: TransportReceiver): TransportReceiver;
  /** Pause and resume, when the wrapper composes its own reasons to stop reading (default: the inner transport's, when it has them). */
  flow?: { pause(): void; resume(): void };
  /** Closes `inner` (default: `inner.close(reason)`); a wrapper that holds messages hands them over first. */
  close?(reason: string | undefined, inner: Transport): Promise<void>;
}

/** `inner` with the changes of `wrapping`; its optional members exist exactly when `inner` has them (or `wrapping.flow` gives them). */
export function wrapTransport(inner: Transport, wrapping: TransportWrapping): Transport {
  const flow =
    wrapping.flow ?? (inner.pause !== undefined && inner.resume !== undefined ? { pause: () => inner.pause!(), resume: () => inner.resume!() } : undefined);
  const sendThrough = wrapping.send;
  const closeThrough = wrapping.close;
  return {
    start: (receiver) => inner.start(wrapping.receiver ? wrapping.receiver(receiver) : receiver),
    send: sendThrough === undefined ? (message) => inner.send(message) : (message) => sendThrough(message, inner),
    close: closeThrough === undefined ? (reason) => inner.close(reason) : (reason) => closeThrough(reason, inner),
    ...(flow === undefined ? {} : { pause: () => flow.pause(), resume: () => flow.resume() }),
    get closed() {
      return inner.closed;
    },
  };
}

/**
 * A receiver that handles messages and transport errors its own way and forwards the optional
 * hooks (`onInputEnd`, `onOutputCongestion`) to `outer` exactly when `outer` has them.
 */
export function forwardingReceiver(
  outer: TransportReceiver,
  own: Pick<TransportReceiver, "onMessage"> & Partial<Pick<TransportReceiver, "onTransportError">>,
): TransportReceiver {
  const receiver: TransportReceiver = {
    onMessage: own.onMessage,
    onTransportError: own.onTransportError ?? ((error) => outer.onTransportError(error)),
  };
  if (outer.onInputEnd !== undefined) receiver.onInputEnd = () => outer.onInputEnd!();
  if (outer.onOutputCongestion !== undefined) receiver.onOutputCongestion = (congested) => outer.onOutputCongestion!(congested);
  return receiver;
}

/**
 * Pause and resume for a wrapper that has a reason of its own to stop reading (something loads,
 * input is held): the caller's reason and the wrapper's compose, and input flows only when
 * neither holds it. `flow` goes to `wrapTransport` (undefined when `inner` cannot pause);
 * `hold(true)` / `hold(false)` is the wrapper's own reason.
 */
export function composedFlow(inner: Transport): { flow: { pause(): void; resume(): void } | undefined; hold(paused: boolean): void } {
  let pausedByCaller = false;
  let pausedByWrapper = false;
  const apply = (): void => {
    if (pausedByCaller || pausedByWrapper) inner.pause?.();
    else inner.resume?.();
  };
  const flow =
    inner.pause !== undefined && inner.resume !== undefined
      ? {
          pause: () => {
            pausedByCaller = true;
            apply();
          },
          resume: () => {
            pausedByCaller = false;
            apply();
          },
        }
      : undefined;
  return {
    flow,
    hold(paused) {
      pausedByWrapper = paused;
      apply();
    },
  };
}
