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
//
// Bound: the agent decides how many updates a turn has, so what a turn keeps is capped at
// MAX_KEPT_TURN_UPDATES. Below the cap nothing changes (any iterator, however late, replays the
// turn from its start). Past it the turn keeps only what a running iterator has not read yet, and
// never more than the cap: an iterator that falls further behind, or one created once the turn's
// start is gone, throws AcpError("UpdatesDropped") instead of silently skipping updates. Nothing is
// lost to the application: every update is applied to `session.state` before it reaches a turn.
import { AcpError } from "@acpkit/core";
import type { SessionUpdate, PromptOutcome } from "./types.js";

/**
 * How many updates a turn keeps for its iterators (see `Turn`): a running iterator may fall this
 * many updates behind, and a turn with up to this many can be iterated from its start at any time.
 */
export const MAX_KEPT_TURN_UPDATES = 65_536;

// What a dropped slot of `kept` holds until the array is compacted (never read: readers check keptFrom first).
const DROPPED = undefined as unknown as SessionUpdate;

/** One running iterator: absolute indices (0 = the turn's first update) of where it started and what it reads next. */
interface Reader {
  readonly start: number;
  position: number;
}

/**
 * One prompt turn (from `ClientSession.prompt`): iterate it for the turn's model updates, await it
 * for its `PromptOutcome`. A turn awaited before any iterator was created stops keeping updates
 * (they are in `session.state`); an iterator made later sees only the updates after it. A turn
 * keeps at most `MAX_KEPT_TURN_UPDATES` updates for its iterators: an iterator that falls further
 * behind, or that is created after a longer turn's start was dropped, throws
 * `AcpError("UpdatesDropped")` (the updates themselves are in `session.state`).
 */
export class Turn implements AsyncIterable<SessionUpdate>, PromiseLike<PromptOutcome> {
  // Kept updates: kept[head] is the update with absolute index `keptFrom`. Made on first use: a
  // turn that is only awaited (the common case) allocates nothing. Dropping advances `head`; the
  // array is compacted once the dropped part is the larger one, so dropping is O(1) amortized.
  private kept: SessionUpdate[] | undefined;
  private head = 0;
  private keptFrom = 0;
  /** Updates pushed so far: the absolute index of the next one. */
  private received = 0;
  /** Whether updates are kept for iterators (see the buffering rule above). */
  private buffering = true;
  /** Where keeping began: 0, or where an iterator made after an early `await` started it again. */
  private keptStart = 0;
  /** Whether an iterator was ever created (the buffering rule asks "awaited before any iterator?"). */
  private iterated = false;
  private readers: Set<Reader> | undefined;
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
    if (!this.iterated && this.buffering) {
      // Awaited before any iteration: drop what was kept and stop keeping updates (buffering rule).
      this.buffering = false;
      this.dropKept();
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
   * iterator was created (then the ones that arrive from now on). Several iterators may run at
   * once. Throws `AcpError("UpdatesDropped")` when updates it would have to yield next are no
   * longer kept (`MAX_KEPT_TURN_UPDATES`); `break` (the iterator's `return`) stops it.
   */
  [Symbol.asyncIterator](): AsyncIterator<SessionUpdate> {
    this.iterated = true;
    // From where keeping began (the turn's start, unless it was awaited first); when nothing is
    // being kept, from the next update to arrive.
    if (!this.buffering) {
      this.buffering = true;
      this.keptStart = this.keptFrom = this.received;
    }
    const reader: Reader = { start: this.keptStart, position: this.keptStart };
    let stopped = false;
    (this.readers ??= new Set()).add(reader);
    const stop = (): void => {
      stopped = true;
      this.readers?.delete(reader);
    };
    const next = async (): Promise<IteratorResult<SessionUpdate>> => {
      for (;;) {
        if (stopped) return { value: undefined, done: true };
        if (reader.position < this.keptFrom) {
          stop();
          throw this.droppedError(reader);
        }
        if (reader.position < this.received) {
          const update = this.kept![this.head + (reader.position - this.keptFrom)]!;
          reader.position++;
          return { value: update, done: false };
        }
        if (this.finished) {
          stop();
          if (this.failure) throw this.failure.error;
          return { value: undefined, done: true };
        }
        await new Promise<void>((wake) => (this.wakers ??= []).push(wake));
      }
    };
    return {
      next,
      return: async (): Promise<IteratorResult<SessionUpdate>> => {
        stop();
        return { value: undefined, done: true };
      },
    };
  }

  /** @internal An update of this turn was applied to the session state. */
  push(update: SessionUpdate): void {
    this.received++;
    // Not keeping (awaited before any iteration): nobody reads, and an iterator made later starts
    // from `received`, so there is nothing else to track.
    if (!this.buffering) return;
    const kept = (this.kept ??= []);
    kept.push(update);
    if (kept.length - this.head > MAX_KEPT_TURN_UPDATES) this.trim();
    if (this.wakers !== undefined) this.wakeAll();
  }

  /**
   * Over the cap: keep what a running iterator has not read, and at most the cap of that. With no
   * iterator running, the kept start of the turn is of no use any more (an iterator created now
   * could not start at the beginning), so everything goes.
   */
  private trim(): void {
    let from = this.received;
    if (this.readers !== undefined) for (const reader of this.readers) from = Math.min(from, reader.position);
    from = Math.max(from, this.received - MAX_KEPT_TURN_UPDATES);
    if (from <= this.keptFrom) return;
    const kept = this.kept!;
    const head = this.head + (from - this.keptFrom);
    // Let go of the dropped updates now, not at the next compaction: the cap is what is held.
    kept.fill(DROPPED, this.head, head);
    this.head = head;
    this.keptFrom = from;
    if (this.head >= kept.length - this.head) {
      this.kept = kept.slice(this.head);
      this.head = 0;
    }
  }

  private dropKept(): void {
    this.kept = undefined;
    this.head = 0;
  }

  private droppedError(reader: Reader): AcpError {
    const { position } = reader;
    const dropped = this.keptFrom - position;
    const message =
      position === reader.start
        ? `This turn's first ${dropped} updates for this iterator are no longer kept: a turn keeps at most ${MAX_KEPT_TURN_UPDATES} (MAX_KEPT_TURN_UPDATES) and this one outgrew that before the iterator read anything. Every update is in session.state; create the iterator before the turn's updates arrive, or use session.onUpdate`
        : `This turn iterator fell more than ${MAX_KEPT_TURN_UPDATES} updates behind (MAX_KEPT_TURN_UPDATES): ${dropped} updates it had not read were dropped. Every update is in session.state; read the turn faster, or await it and use session.onUpdate`;
    return new AcpError("UpdatesDropped", message, { data: { dropped, from: position, to: this.keptFrom } });
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
