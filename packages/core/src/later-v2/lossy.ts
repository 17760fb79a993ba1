// What a later-v2 conversion cannot carry is reported, never dropped silently (docs/protocol.md A12),
// with the same codes and event shape as the v1 bridge (`lossy_<code>` diagnostics).
import type { LossyCode, LossyEvent } from "../lossy-code.js";

/** Where a conversion reports its lossy steps. */
export interface LaterLossy {
  report(code: LossyCode, detail: string, value: unknown, sessionId?: string): void;
}

/** A reporter that hands each event to `listener` (or drops it when there is none). */
export function laterLossy(listener: ((event: LossyEvent) => void) | undefined): LaterLossy {
  return {
    report(code, detail, update, sessionId) {
      listener?.({ code, detail, update, sessionId });
    },
  };
}
