// The answers a Connection owes its peer, on their way to the transport.
//
// Why answers are held here: a peer can write many requests in one go, and all of them are read
// and answered before the channel has had a chance to fill. Each answer handed to a transport is
// encoded at once, so 300 answers that each quote one 16 MB terminal output became 300 encoded
// copies, 4.8 GB, and ran the process out of memory. While the transport says its output is
// congested (`TransportReceiver.onOutputCongestion`) the answers wait here as objects, which share
// whatever their results share, and go out in order, one by one, as the peer reads.
//
// Why sends are counted: when the peer's input ends, the connection closes once everything is
// answered. An answer waiting behind a full channel is not delivered yet, and closing the
// transport then would drop it; `idle` says when nothing is held or in flight.
//
// Why a refused answer is replaced: a result JSON cannot carry (a BigInt, a cycle; only an
// extension method's result, or any result with validateOutgoing off, gets this far) made the
// transport reject the send, and the peer waited for an answer that never came. It gets -32603.
import { ErrorCode, isAcpError } from "./errors.js";
import type { IncomingRequest } from "./incoming-request.js";
import { errorResponse, isThenable, type JsonRpcResponse } from "./jsonrpc.js";
import type { Transport } from "./transport.js";
import { createDeferred, SEND_ACCEPTED, sendReturnedNoPromise, type Deferred } from "./transport-helpers.js";

const RESOLVED: Promise<void> = Promise.resolve();

/** A request (or a batch's requests) answered successfully: its afterResponse listeners run once the answer was handed over. */
export type AnsweredRequests = IncomingRequest | readonly IncomingRequest[] | undefined;

type Reply = JsonRpcResponse | JsonRpcResponse[];

export class ReplyOutbox {
  private congested = false;
  // Held answers and their requests, as flat pairs: [reply, answered, reply, answered, …].
  private held: (Reply | AnsweredRequests)[] = [];
  // Sends handed to the transport whose promise has not settled yet.
  private unsettled = 0;
  // Resolves once nothing is held back; made when someone asks (`ready`) while answers wait.
  private flowing: Deferred | undefined;
  /** Called whenever the outbox became idle (nothing held, nothing in flight); set once the peer's input ended. */
  onIdle: (() => void) | undefined;
  /**
   * Called with true when an answer is first held back, and with false once none is: the connection
   * stops reading meanwhile, or a peer that keeps asking and never reads would grow `held` without end.
   */
  onHolding: ((holding: boolean) => void) | undefined;

  private readonly settled = (): void => {
    this.unsettled--;
    if (this.onIdle !== undefined && this.idle) this.onIdle();
  };

  constructor(
    private readonly transport: Transport,
    /** Told when the transport refused an answer (it closed, or the value could not be encoded). */
    private readonly onFailed: (error: unknown) => void,
  ) {}

  /** Whether no answer is held and every one handed over was accepted by the transport. */
  get idle(): boolean {
    return this.unsettled === 0 && this.held.length === 0;
  }

  /**
   * Resolves at once when answers go straight to the transport, otherwise once the ones held back
   * went out. A handler about to produce a large answer waits for it, so that a burst of such
   * requests makes one answer at a time instead of holding all of them.
   */
  ready(): Promise<void> {
    if (!this.congested && this.held.length === 0) return RESOLVED;
    this.flowing ??= createDeferred();
    return this.flowing.promise;
  }

  /** Send `reply` now, or after the ones held before it once the output is no longer congested. */
  send(reply: Reply, answered: AnsweredRequests): void {
    if (!this.congested && this.held.length === 0) {
      this.handOver(reply, answered);
      return;
    }
    this.held.push(reply, answered);
    if (this.held.length === 2) this.onHolding?.(true);
  }

  /** The transport's output passed its high-water mark (true) or drained (false). */
  setCongested(congested: boolean): void {
    this.congested = congested;
    if (congested) return;
    if (this.held.length > 0) this.release();
    else this.resolveFlowing();
  }

  /** The connection closed: nobody will read what is held, and whoever waits for `ready()` goes on (its send will fail). */
  drop(): void {
    this.held = [];
    this.resolveFlowing();
  }

  private failed(error: unknown, reply: Reply): void {
    this.onFailed(error);
    // Only an answer that could not be encoded is sent again, as errors; a closed transport is not
    // retried, and neither is a reply in which nothing needed replacing (no second failure loop).
    if (isAcpError(error, "InvalidMessage")) {
      const replacement = encodableReply(reply);
      if (replacement !== undefined) this.handOver(replacement, undefined);
    }
    this.settled();
  }

  private resolveFlowing(): void {
    const flowing = this.flowing;
    this.flowing = undefined;
    flowing?.resolve();
  }

  private handOver(reply: Reply, answered: AnsweredRequests): void {
    const sent = this.transport.send(reply);
    // Taken at once: nothing can fail and nothing is in flight, so no handler is attached (the
    // common case, one answer per request). After the peer's input ended the connection still
    // closes in time: a request counts as settled only after its answer was handed over here.
    // Any other send is counted until it settles.
    if (sent !== SEND_ACCEPTED) this.watch(sent, reply);
    if (answered === undefined) return;
    if (Array.isArray(answered)) for (const request of answered as readonly IncomingRequest[]) request.responded();
    else (answered as IncomingRequest).responded();
  }

  private watch(sent: Promise<void>, reply: Reply): void {
    this.unsettled++;
    if (!isThenable(sent)) return this.failed(sendReturnedNoPromise(sent), reply);
    sent.then(this.settled, (error: unknown) => this.failed(error, reply));
  }

  // Hands held answers over in order until the transport is congested again (it says so inside
  // send(), so this stops after the answer that filled it).
  private release(): void {
    const held = this.held;
    let next = 0;
    // A drop() (the connection closed, perhaps from a listener) replaces the array: stop there.
    while (!this.congested && this.held === held && next < held.length) {
      const reply = held[next] as Reply;
      const answered = held[next + 1] as AnsweredRequests;
      held[next] = held[next + 1] = undefined;
      next += 2;
      this.handOver(reply, answered);
    }
    if (this.held !== held) return; // dropped: the connection closed
    held.splice(0, next);
    if (held.length === 0) this.onHolding?.(false);
    if (!this.congested && held.length === 0) this.resolveFlowing();
    if (this.onIdle !== undefined && this.idle) this.onIdle();
  }
}

/** `reply` with every response JSON cannot carry replaced by -32603 for the same id; `undefined` when none needed it. */
function encodableReply(reply: Reply): Reply | undefined {
  if (!Array.isArray(reply)) return encodable(reply);
  let replaced = false;
  const responses = reply.map((response) => {
    const replacement = encodable(response);
    if (replacement === undefined) return response;
    replaced = true;
    return replacement;
  });
  return replaced ? responses : undefined;
}

function encodable(response: JsonRpcResponse): JsonRpcResponse | undefined {
  try {
    JSON.stringify(response);
    return undefined;
  } catch (error) {
    return errorResponse(response.id, ErrorCode.InternalError, `Internal error: the answer could not be encoded as JSON: ${(error as Error).message}`);
  }
}
