// A prompt turn as the application sees it: an async iterable of the turn's model updates (in
// arrival order) that is also a promise of the stop reason. Both see the same data: the
// iteration ends, and the promise settles, when the `session/prompt` response arrived, which is
// after every update of the turn was applied (core resolves a response only after every message
// received before it was handled).
//
// Buffering rule: a turn keeps its updates for iteration from the start, until it is awaited
// (`then` is called) before any iterator was created. From then on it keeps nothing until an
// iterator is created, and that iterator sees the updates that arrive after it was created. So
// `for await (const u of session.prompt(...))` sees every update, and `await session.prompt(...)`
// does not hold the whole turn in memory (the updates are in `session.state` anyway).
import type { ModelUpdate, PromptOutcome } from "./types.js";

/**
 * One prompt turn (from `ClientSession.prompt`): iterate it for the turn's model updates, await it
 * for its `PromptOutcome`. A turn awaited before any iterator was created stops keeping updates
 * (they are in `session.state`); an iterator made later sees only the updates after it.
 */
export class Turn implements AsyncIterable<ModelUpdate>, PromiseLike<PromptOutcome> {
  // Made on first use: a turn that is only awaited (the common case) allocates neither array.
  private updates: ModelUpdate[] | undefined;
  /** Whether updates are kept for iterators (see the buffering rule above). */
  private buffering = true;
  private iterators = 0;
  private finished = false;
  private result: PromptOutcome | undefined;
  private failure: { error: unknown } | undefined;
  private wakers: Array<() => void> | undefined;
  // The promise behind `then`, made on the first `then`. A turn that is only iterated then has
  // none, so its failure (which the iterator throws) cannot become an unhandled rejection.
  private outcome: Promise<PromptOutcome> | undefined;
  private resolveOutcome: ((outcome: PromptOutcome) => void) | undefined;
  private rejectOutcome: ((error: unknown) => void) | undefined;

  constructor(
    /** The prompt as it was sent (a string prompt became one text block). */
    readonly prompt: readonly unknown[],
    private readonly cancelTurn: () => Promise<void>,
  ) {}

  /** True once the response arrived (or the request failed). */
  get done(): boolean {
    return this.finished;
  }

  /** Cancel this turn (`session/cancel`); the turn still resolves, normally to "cancelled". */
  cancel(): Promise<void> {
    return this.finished ? Promise.resolve() : this.cancelTurn();
  }

  // biome-ignore lint/suspicious/noThenProperty: a Turn is awaitable on purpose (`await turn` gives the outcome).
  then<A = PromptOutcome, B = never>(
    onFulfilled?: ((value: PromptOutcome) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    if (this.iterators === 0 && this.buffering) {
      // Awaited before any iteration: drop what was kept and stop keeping updates (buffering rule).
      this.buffering = false;
      this.updates = undefined;
    }
    return this.outcomePromise().then(onFulfilled, onRejected);
  }

  private outcomePromise(): Promise<PromptOutcome> {
    if (this.outcome === undefined) {
      if (this.failure !== undefined) this.outcome = Promise.reject(this.failure.error);
      else if (this.finished) this.outcome = Promise.resolve(this.result!);
      else {
        this.outcome = new Promise<PromptOutcome>((resolve, reject) => {
          this.resolveOutcome = resolve;
          this.rejectOutcome = reject;
        });
      }
    }
    return this.outcome;
  }

  /**
   * The updates of this turn: every one from the start, unless the turn was awaited before this
   * iterator was created (then the ones that arrive from now on). Several iterators may run at once.
   */
  [Symbol.asyncIterator](): AsyncIterator<ModelUpdate> {
    this.iterators++;
    let index = this.buffering ? 0 : (this.updates?.length ?? 0);
    this.buffering = true;
    const next = async (): Promise<IteratorResult<ModelUpdate>> => {
      for (;;) {
        const updates = this.updates;
        if (updates !== undefined && index < updates.length) return { value: updates[index++]!, done: false };
        if (this.finished) {
          if (this.failure) throw this.failure.error;
          return { value: undefined, done: true };
        }
        await new Promise<void>((wake) => (this.wakers ??= []).push(wake));
      }
    };
    return { next };
  }

  /** @internal An update of this turn was applied to the session state. */
  push(update: ModelUpdate): void {
    if (!this.buffering) return;
    (this.updates ??= []).push(update);
    if (this.wakers !== undefined) this.wakeAll();
  }

  /** @internal The response arrived. */
  resolve(outcome: PromptOutcome): void {
    if (this.finished) return;
    this.finished = true;
    this.result = outcome;
    this.resolveOutcome?.(outcome);
    this.wakeAll();
  }

  /** @internal The request failed (error response, closed connection). */
  reject(error: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.failure = { error };
    this.rejectOutcome?.(error);
    this.wakeAll();
  }

  private wakeAll(): void {
    const wakers = this.wakers;
    if (wakers === undefined) return;
    this.wakers = undefined;
    for (const wake of wakers) wake();
  }
}
