// What a later-v2 conversion cannot carry is reported, never dropped silently (docs/protocol.md A12),
// with the same codes and event shape as the v1 bridge (`lossy_<code>` diagnostics).
import type { LossyCode } from "../lossy-code.js";

/** One lossy step of a later-v2 conversion: its code, a sentence on what was lost or approximated, and the value it happened in. */
export interface LaterLossyEvent {
  code: LossyCode;
  sessionId: string | undefined;
  detail: string;
  update: unknown;
}

/** Where a conversion reports its lossy steps. */
export interface LaterLossy {
  report(code: LossyCode, detail: string, value: unknown, sessionId?: string): void;
}

/** A reporter that hands each event to `listener` (or drops it when there is none). */
export function laterLossy(listener: ((event: LaterLossyEvent) => void) | undefined): LaterLossy {
  return {
    report(code, detail, update, sessionId) {
      listener?.({ code, detail, update, sessionId });
    },
  };
}
