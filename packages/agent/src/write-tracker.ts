// Counts the writes of one request (a prompt turn or a session/load replay) that are still on
// their way to the transport, so the response can wait until every one of them was written
// (PROTOCOL O1/C6). Bound callbacks: no closure is allocated per update.

export class WriteTracker {
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  /** The first write that failed for a reason other than the connection closing. */
  failure: unknown = undefined;

  constructor(private readonly onWriteFailed: (error: unknown) => void) {
    this.settled = this.settled.bind(this);
    this.failed = this.failed.bind(this);
  }

  /** Track one send. Accepts a promise, or runs a send that may throw synchronously. */
  track(write: Promise<void>): void {
    this.inFlight++;
    write.then(this.settled, this.failed);
  }

  /** Record a send that threw before it produced a promise. */
  trackThrown(error: unknown): void {
    this.recordFailure(error);
  }

  /** Resolves when nothing is in flight. Never rejects. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settled(): void {
    if (--this.inFlight === 0 && this.idleWaiters.length > 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private failed(error: unknown): void {
    this.recordFailure(error);
    this.settled();
  }

  private recordFailure(error: unknown): void {
    if (this.failure === undefined) this.failure = error;
    this.onWriteFailed(error);
  }
}
