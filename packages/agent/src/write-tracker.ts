// Counts the writes of one request (a prompt turn or a session/load replay) that are still on
// their way to the transport, so the response can wait until every one of them was written
// (docs/protocol.md O1/C6).
//
// Cost per update: transports hand every send they accept at once the same settled promise (and
// every send of one blocked period the same pending one), so a promise seen by the previous
// `track` call is already being watched and gets no second handler. A stream of accepted updates
// then attaches no `.then` at all after the first, and no closure is allocated per update.

export class WriteTracker {
  private inFlight = 0;
  /** The promise of the previous tracked send. */
  private latest: Promise<void> | undefined;
  private idleWaiters: Array<() => void> | undefined;
  /** The first write that failed for a reason other than the connection closing. */
  failure: unknown = undefined;

  constructor(private readonly onWriteFailed: (error: unknown) => void) {}

  /** Track one send's promise. */
  track(write: Promise<void>): void {
    if (write === this.latest) return;
    this.latest = write;
    this.inFlight++;
    write.then(this.settled, this.failed);
  }

  /** Record a send that threw before it produced a promise. */
  trackThrown(error: unknown): void {
    this.recordFailure(error);
  }

  /** Whether nothing is in flight. */
  get isIdle(): boolean {
    return this.inFlight === 0;
  }

  /** Resolves when nothing is in flight. Never rejects. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => (this.idleWaiters ??= []).push(resolve));
  }

  private readonly settled = (): void => {
    if (--this.inFlight === 0 && this.idleWaiters !== undefined) {
      const waiters = this.idleWaiters;
      this.idleWaiters = undefined;
      for (const resolve of waiters) resolve();
    }
  };

  private readonly failed = (error: unknown): void => {
    this.recordFailure(error);
    this.settled();
  };

  private recordFailure(error: unknown): void {
    if (this.failure === undefined) this.failure = error;
    this.onWriteFailed(error);
  }
}
