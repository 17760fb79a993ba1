// Our outstanding requests: id → how to settle the caller's promise.
// Ids are numbers from a per-connection counter, so a response id tells us at once whether it
// answers a request we once sent (late answers after a cancel are expected and quiet) or not.
import type { AcpError } from "./errors.js";
import type { RequestId } from "./jsonrpc.js";

export interface PendingRequest {
  readonly id: number;
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  /** Detaches the abort listener and timer; called exactly once when the entry leaves the table. */
  cleanup(): void;
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
