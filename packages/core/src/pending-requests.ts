// Our outstanding requests: id → how to settle the caller's promise.
// Ids are numbers from a per-connection counter, so a response id tells us at once whether it
// answers a request we once sent or not. Of those no longer pending, the ones we gave up on
// (cancelled, timed out, unsent) are remembered until their late answer comes, so that a second
// answer to a request that was already answered can be told apart from a late one
// (docs/protocol.md §3.1 E9).
import type { AcpError } from "./errors.js";
import type { RequestId } from "./jsonrpc.js";

/**
 * One outstanding request. A plain class rather than an object of closures: a request without a
 * signal or timeout (the common case) allocates nothing else.
 */
export class PendingRequest {
  /** Settles with the peer's result; what `Connection.request` returns. */
  readonly promise: Promise<unknown>;
  resolve!: (result: unknown) => void;
  reject!: (error: Error) => void;
  /** The caller's signal and our listener on it, when the request has a signal. */
  signal: AbortSignal | undefined = undefined;
  onAbort: (() => void) | undefined = undefined;
  /** The timeout, when the request has one. */
  timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(
    readonly id: number,
    readonly method: string,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Detaches the abort listener and timer; called exactly once when the entry leaves the table. */
  cleanup(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.onAbort !== undefined) this.signal!.removeEventListener("abort", this.onAbort);
  }
}

/** How many given-up ids `PendingRequests` remembers while waiting for their late answers. */
export const REMEMBERED_ABANDONED_IDS = 1024;

/** What a response whose id matches no pending request answers. */
export type UnmatchedResponse =
  /** An id we never sent. */
  | "unknown"
  /** A request we gave up on: its answer came late, which is expected. */
  | "late"
  /** A request that was already answered: this is a second answer. */
  | "repeated";

export class PendingRequests {
  private readonly entries = new Map<RequestId, PendingRequest>();
  private nextId = 0;
  // Given-up ids whose answer has not come (insertion order, oldest first), bounded: a peer that
  // never answers cancelled requests must not make this grow. Ids up to `forgottenUpTo` may have
  // been dropped from it, so an answer to one of them is taken as late rather than as repeated.
  private readonly abandoned = new Set<number>();
  private forgottenUpTo = -1;

  /** Reserves the next id (unique for the connection's life). */
  allocateId(): number {
    return this.nextId++;
  }

  get size(): number {
    return this.entries.size;
  }

  add(entry: PendingRequest): void {
    this.entries.set(entry.id, entry);
  }

  /** Removes and returns the entry for `id`, or undefined when none is pending. */
  take(id: RequestId): PendingRequest | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    this.entries.delete(id);
    entry.cleanup();
    return entry;
  }

  /** Like `take`, for a request we give up on (cancelled, timed out, unsent): its answer may still come, late. */
  abandon(id: number): PendingRequest | undefined {
    const entry = this.take(id);
    if (entry === undefined) return undefined;
    this.abandoned.add(id);
    if (this.abandoned.size > REMEMBERED_ABANDONED_IDS) {
      const oldest = this.abandoned.values().next().value as number;
      this.abandoned.delete(oldest);
      this.forgottenUpTo = Math.max(this.forgottenUpTo, oldest);
    }
    return entry;
  }

  /** What a response to `id` answers when no request with that id is pending. */
  unmatched(id: RequestId): UnmatchedResponse {
    if (!this.wasIssued(id)) return "unknown";
    const issued = id as number;
    if (this.abandoned.delete(issued) || issued <= this.forgottenUpTo) return "late";
    return "repeated";
  }

  /** True when `id` is one we sent at some point (pending or already settled). */
  private wasIssued(id: RequestId): boolean {
    return typeof id === "number" && Number.isInteger(id) && id >= 0 && id < this.nextId;
  }

  /** Rejects every pending request with `error` (the transport closed). */
  rejectAll(error: AcpError): void {
    const entries = [...this.entries.values()];
    this.entries.clear();
    for (const entry of entries) {
      entry.cleanup();
      entry.reject(error);
    }
  }
}
