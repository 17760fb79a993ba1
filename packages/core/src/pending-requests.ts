// Our outstanding requests: id → how to settle the caller's promise.
// Ids are numbers from a per-connection counter, so a response id tells us at once whether it
// answers a request we once sent (late answers after a cancel are expected and quiet) or not.
import type { AcpError } from "./errors.js";
import type { RequestId } from "./jsonrpc.js";

/**
 * One outstanding request. A plain class rather than an object of closures: a request without a
 * signal or timeout (the common case) allocates nothing else.
 */
export class PendingRequest {
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
  ) {}

  /** Detaches the abort listener and timer; called exactly once when the entry leaves the table. */
  cleanup(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.onAbort !== undefined) this.signal!.removeEventListener("abort", this.onAbort);
  }
}

export class PendingRequests {
  private readonly entries = new Map<RequestId, PendingRequest>();
  private nextId = 0;

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

  /** True when `id` is one we sent at some point (pending or already settled). */
  wasIssued(id: RequestId): boolean {
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
