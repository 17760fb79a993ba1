// Where the prompts of `acpkit run` come from: the --prompt flags in order, or stdin line by line.
import type { LineSource } from "./line-source.js";

export interface PromptSource {
  /** The next prompt, or undefined when there are no more (or `signal` aborted the wait). */
  next(signal: AbortSignal): Promise<string | undefined>;
  /** How many prompts are left, when that is known (a fixed list); undefined for a stream of lines. */
  remaining?(): number;
}

/** The given prompts, in order. */
export function listPrompts(prompts: readonly string[]): PromptSource {
  let index = 0;
  return {
    next: async (signal) => (signal.aborted ? undefined : prompts[index++]),
    remaining: () => Math.max(0, prompts.length - index),
  };
}

/** One prompt per non-blank line of the input. `beforeRead` runs before each wait (a terminal prompt). */
export function linePrompts(lines: LineSource, beforeRead?: () => void): PromptSource {
  return {
    async next(signal) {
      for (;;) {
        beforeRead?.();
        const line = await lines.next(signal);
        if (line === undefined) return undefined;
        if (line.trim() !== "") return line;
      }
    },
  };
}
