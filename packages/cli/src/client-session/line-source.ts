// Lines typed (or piped) on stdin, shared by everyone who reads them: `acpkit run` takes its
// prompts from here when no --prompt is given, and `--permission ask` reads the user's answers.
// One reader keeps the two from stealing each other's input.
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

const ABORTED = Symbol("aborted");

export class LineSource {
  private readonly lines: AsyncIterator<string>;
  /** A read that was started but whose reader gave up (aborted): the next caller gets its line. */
  private pending: Promise<IteratorResult<string>> | undefined;
  private ended = false;

  constructor(input: Readable) {
    const reader = createInterface({ input, crlfDelay: Infinity, terminal: false });
    this.lines = reader[Symbol.asyncIterator]();
  }

  /**
   * The next line, or undefined once the input ended. When `signal` aborts first this resolves
   * undefined and the line, when it comes, is kept for the next call instead of being lost.
   */
  async next(signal?: AbortSignal): Promise<string | undefined> {
    if (this.ended) return undefined;
    const read = (this.pending ??= this.lines.next());
    let result: IteratorResult<string> | typeof ABORTED;
    if (signal) {
      if (signal.aborted) return undefined;
      let onAbort!: () => void;
      const aborted = new Promise<typeof ABORTED>((resolve) => {
        onAbort = () => resolve(ABORTED);
        signal.addEventListener("abort", onAbort, { once: true });
      });
      result = await Promise.race([read, aborted]);
      signal.removeEventListener("abort", onAbort);
      if (result === ABORTED) return undefined;
    } else result = await read;
    if (this.pending === read) this.pending = undefined;
    if (result.done) {
      this.ended = true;
      return undefined;
    }
    return result.value;
  }

  /** Stop reading (closes the readline interface, which releases stdin). */
  close(): void {
    this.ended = true;
    void this.lines.return?.();
  }
}
