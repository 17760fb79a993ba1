// A session's current SessionState, with incoming model updates applied in batches.
//
// Why: applying one chunk builds a new state (a new record, a path of the persistent vector, the
// state object itself): several hundred bytes of garbage per update, which is most of what a
// streaming client allocates. Updates are queued here and applied together with `applyUpdates`
// when the state is read, when another change to it is made, or every BATCH_SIZE updates (so the
// queue never holds many). Nobody can observe a difference: every read sees every update queued
// before it.
import type { v2 } from "@acpkit/schema";
import { applyUpdates } from "./reducer.js";
import type { SessionState } from "./session-state.js";

/** Enough to turn a burst of chunks into a few state copies; small enough to hold briefly. */
const BATCH_SIZE = 128;

export class BatchedState {
  private state: SessionState;
  private readonly queued: v2.SessionUpdate[] = [];

  constructor(initial: SessionState) {
    this.state = initial;
  }

  /** The state with every queued update applied. */
  get current(): SessionState {
    if (this.queued.length > 0) this.applyQueued();
    return this.state;
  }

  /** Replace the state with one derived from `current` (a client action: prompt, cancel, …). */
  set current(state: SessionState) {
    if (this.queued.length > 0) throw new Error("internal: BatchedState.current was replaced without reading it first");
    this.state = state;
  }

  /** Queue one model update (applied no later than the next read). */
  add(update: v2.SessionUpdate): void {
    this.queued.push(update);
    if (this.queued.length >= BATCH_SIZE) this.applyQueued();
  }

  private applyQueued(): void {
    this.state = applyUpdates(this.state, this.queued);
    this.queued.length = 0;
  }
}
