// A prompt turn as the application sees it: an async iterable of the turn's model updates (in
// arrival order) that is also a promise of the stop reason. Both see the same data: the
// iteration ends, and the promise settles, when the `session/prompt` response arrived, which is
// after every update of the turn was applied (core resolves a response only after every message
// received before it was handled).
import type { ModelUpdate, PromptOutcome } from "./types.js";

const ignore = (): void => {};

export class Turn implements AsyncIterable<ModelUpdate>, PromiseLike<PromptOutcome> {
  private readonly updates: ModelUpdate[] = [];
  private finished = false;
  private failure: { error: unknown } | undefined;
  private wakers: Array<() => void> = [];
  private readonly outcome: Promise<PromptOutcome>;
  private settle!: { resolve: (outcome: PromptOutcome) => void; reject: (error: unknown) => void };

  constructor(
    /** The prompt as it was sent (a string prompt became one text block). */
    readonly prompt: readonly unknown[],
    private readonly cancelTurn: () => Promise<void>,
  ) {
    this.outcome = new Promise<PromptOutcome>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // The application may only iterate; a failure then surfaces through the iterator, so the
    // promise itself must not count as an unhandled rejection.
    this.outcome.catch(ignore);
  }

  /** True once the response arrived (or the request failed). */
  get done(): boolean {
    return this.finished;
  }

  /** Cancel this turn (`session/cancel`); the turn still resolves, normally to "cancelled". */
  cancel(): Promise<void> {
    return this.finished ? Promise.resolve() : this.cancelTurn();
  }

  then<A = PromptOutcome, B = never>(
    onFulfilled?: ((value: PromptOutcome) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.outcome.then(onFulfilled, onRejected);
  }

  /** Every update of this turn, from the start; several iterators may run at once. */
  [Symbol.asyncIterator](): AsyncIterator<ModelUpdate> {
    let index = 0;
    const next = async (): Promise<IteratorResult<ModelUpdate>> => {
      for (;;) {
        if (index < this.updates.length) return { value: this.updates[index++]!, done: false };
        if (this.finished) {
          if (this.failure) throw this.failure.error;
          return { value: undefined, done: true };
        }
        await new Promise<void>((wake) => this.wakers.push(wake));
      }
    };
    return { next };
  }

  /** @internal An update of this turn was applied to the session state. */
  push(update: ModelUpdate): void {
    this.updates.push(update);
    if (this.wakers.length > 0) this.wakeAll();
  }

  /** @internal The response arrived. */
  resolve(outcome: PromptOutcome): void {
    if (this.finished) return;
    this.finished = true;
    this.settle.resolve(outcome);
    this.wakeAll();
  }

  /** @internal The request failed (error response, closed connection). */
  reject(error: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.failure = { error };
    this.settle.reject(error);
    this.wakeAll();
  }

  private wakeAll(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }
}
