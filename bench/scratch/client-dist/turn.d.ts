import type { ModelUpdate, PromptOutcome } from "./types.js";
export declare class Turn implements AsyncIterable<ModelUpdate>, PromiseLike<PromptOutcome> {
    /** The prompt as it was sent (a string prompt became one text block). */
    readonly prompt: readonly unknown[];
    private readonly cancelTurn;
    private readonly updates;
    private finished;
    private failure;
    private wakers;
    private readonly outcome;
    private settle;
    constructor(
    /** The prompt as it was sent (a string prompt became one text block). */
    prompt: readonly unknown[], cancelTurn: () => Promise<void>);
    /** True once the response arrived (or the request failed). */
    get done(): boolean;
    /** Cancel this turn (`session/cancel`); the turn still resolves, normally to "cancelled". */
    cancel(): Promise<void>;
    then<A = PromptOutcome, B = never>(onFulfilled?: ((value: PromptOutcome) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B>;
    /** Every update of this turn, from the start; several iterators may run at once. */
    [Symbol.asyncIterator](): AsyncIterator<ModelUpdate>;
    /** @internal An update of this turn was applied to the session state. */
    push(update: ModelUpdate): void;
    /** @internal The response arrived. */
    resolve(outcome: PromptOutcome): void;
    /** @internal The request failed (error response, closed connection). */
    reject(error: unknown): void;
    private wakeAll;
}
//# sourceMappingURL=turn.d.ts.map