const ignore = () => { };
export class Turn {
    prompt;
    cancelTurn;
    updates = [];
    finished = false;
    failure;
    wakers = [];
    outcome;
    settle;
    constructor(
    /** The prompt as it was sent (a string prompt became one text block). */
    prompt, cancelTurn) {
        this.prompt = prompt;
        this.cancelTurn = cancelTurn;
        this.outcome = new Promise((resolve, reject) => {
            this.settle = { resolve, reject };
        });
        // The application may only iterate; a failure then surfaces through the iterator, so the
        // promise itself must not count as an unhandled rejection.
        this.outcome.catch(ignore);
    }
    /** True once the response arrived (or the request failed). */
    get done() {
        return this.finished;
    }
    /** Cancel this turn (`session/cancel`); the turn still resolves, normally to "cancelled". */
    cancel() {
        return this.finished ? Promise.resolve() : this.cancelTurn();
    }
    then(onFulfilled, onRejected) {
        return this.outcome.then(onFulfilled, onRejected);
    }
    /** Every update of this turn, from the start; several iterators may run at once. */
    [Symbol.asyncIterator]() {
        let index = 0;
        const next = async () => {
            for (;;) {
                if (index < this.updates.length)
                    return { value: this.updates[index++], done: false };
                if (this.finished) {
                    if (this.failure)
                        throw this.failure.error;
                    return { value: undefined, done: true };
                }
                await new Promise((wake) => this.wakers.push(wake));
            }
        };
        return { next };
    }
    /** @internal An update of this turn was applied to the session state. */
    push(update) {
        this.updates.push(update);
        if (this.wakers.length > 0)
            this.wakeAll();
    }
    /** @internal The response arrived. */
    resolve(outcome) {
        if (this.finished)
            return;
        this.finished = true;
        this.settle.resolve(outcome);
        this.wakeAll();
    }
    /** @internal The request failed (error response, closed connection). */
    reject(error) {
        if (this.finished)
            return;
        this.finished = true;
        this.failure = { error };
        this.settle.reject(error);
        this.wakeAll();
    }
    wakeAll() {
        const wakers = this.wakers;
        this.wakers = [];
        for (const wake of wakers)
            wake();
    }
}
//# sourceMappingURL=turn.js.map