// Wire-order dispatcher for incoming messages.
//
// Every item is processed in arrival order. When processing an item returns a promise (an async
// notification handler), later items wait in the queue until it settles. When nothing is waiting,
// an item is processed synchronously inside `push` — the common case for streaming notifications
// with a synchronous handler — so the hot path allocates no promise and no queue slot.
import { isThenable } from "./jsonrpc.js";

/** Processes one item; returns a promise only when the next item must wait for it. */
export type ProcessItem<T> = (item: T) => void | PromiseLike<unknown>;

// Below this many consumed slots we never bother compacting.
const COMPACT_THRESHOLD = 1024;

/**
 * How many received messages may wait behind an unfinished async notification handler before the
 * queue asks for input to pause (docs/protocol.md E8). Input resumes once half of them were handled.
 */
export const INCOMING_BACKLOG_HIGH_WATER = 1024;

export class IncomingQueue<T> {
  // An array plus a head index: Array#shift is O(n) per item on long queues.
  private items: (T | undefined)[] = [];
  private head = 0;
  // How many promises the queue waits for: an item's (at most one at a time) and holds. Nothing is
  // processed while any is outstanding.
  private pending = 0;
  // True while the drain loop runs; a reentrant push (a handler that synchronously caused a new
  // incoming message) must queue behind the current item, not run inside it.
  private draining = false;
  private readonly resume = (): void => {
    if (--this.pending > 0) return;
    this.drain();
    if (this.pending === 0 && this.onIdle !== undefined) this.onIdle();
  };
  /** Called when an item's promise settled and nothing is left to process; set once the peer's input ended. */
  onIdle: (() => void) | undefined;
  /**
   * Called with true once `INCOMING_BACKLOG_HIGH_WATER` items wait, and with false once the backlog
   * has fallen to half of that: the owner pauses and resumes its input. Waiting items cannot be
   * dropped (they are accepted messages), so this is what keeps the queue bounded.
   */
  onBacklog: ((backlogged: boolean) => void) | undefined;
  private backlogged = false;

  constructor(private readonly process: ProcessItem<T>) {}

  /** Number of items received but not yet handed to `process`. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Whether every item received was handed to `process` and none is still being awaited. */
  get idle(): boolean {
    return this.pending === 0 && !this.draining && this.head === this.items.length;
  }

  /**
   * Process nothing more until `until` settles: items that arrive meanwhile wait, in order. Called
   * from inside `process` it takes effect after the current item. (A Connection holds its input
   * while its version's validators load.)
   */
  holdUntil(until: PromiseLike<unknown>): void {
    this.pending++;
    until.then(this.resume, this.resume);
  }

  push(item: T): void {
    if (this.pending > 0 || this.draining) {
      this.items.push(item);
      if (!this.backlogged && this.size >= INCOMING_BACKLOG_HIGH_WATER) this.setBacklogged(true);
      return;
    }
    this.draining = true;
    try {
      // Items pushed while this one ran (reentrantly) wait in `items`; the common case has none.
      if (!this.runOne(item) && this.head < this.items.length) this.drain();
    } finally {
      this.draining = false;
    }
  }

  // Returns true when the item left the queue waiting on a promise.
  private runOne(item: T): boolean {
    let result: void | PromiseLike<unknown>;
    try {
      result = this.process(item);
    } catch {
      // `process` reports its own failures; a throw here must not stall the queue.
      return false;
    }
    if (isThenable(result)) {
      this.pending++;
      result.then(this.resume, this.resume);
      return true;
    }
    return false;
  }

  private drain(): void {
    const wasDraining = this.draining;
    this.draining = true;
    try {
      while (this.pending === 0 && this.head < this.items.length) {
        const item = this.items[this.head] as T;
        this.items[this.head] = undefined; // let the message be collected
        this.head++;
        this.runOne(item);
      }
      if (this.head === this.items.length) {
        if (this.head > 0) {
          this.items.length = 0;
          this.head = 0;
        }
      } else if (this.head > COMPACT_THRESHOLD && this.head * 2 > this.items.length) {
        // A long-blocked queue keeps receiving: drop the consumed prefix now and then.
        this.items.splice(0, this.head);
        this.head = 0;
      }
      if (this.backlogged && this.size <= INCOMING_BACKLOG_HIGH_WATER / 2) this.setBacklogged(false);
    } finally {
      this.draining = wasDraining;
    }
  }

  private setBacklogged(backlogged: boolean): void {
    this.backlogged = backlogged;
    this.onBacklog?.(backlogged);
  }
}
