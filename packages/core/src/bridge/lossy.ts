// What the v1⇄v2 bridge cannot carry across is reported, never dropped silently (docs/protocol.md §7).
import type { BridgeDiagnosticCode, Diagnostic } from "../diagnostics.js";
// Through the main entry, not ../errors.js: one copy of the error classes across bundled entries.
import { AcpError } from "../index.js";

export type { LossyCode } from "../lossy-code.js";
import type { LossyCode } from "../lossy-code.js";

export type { LossyEvent } from "../lossy-code.js";
import type { LossyEvent } from "../lossy-code.js";

/** Options shared by the bridges and the stateless conversions. */
export interface LossyOptions {
  /** Called once per lossy step. */
  onLossy?: (event: LossyEvent) => void;
  /** Turn every lossy step into a thrown `AcpError("ProtocolViolation")` (docs/protocol.md §7: strict mode). */
  strict?: boolean;
}

/** Options of both session bridges (`AgentSideV1Bridge`, `ClientSideV1Bridge`). */
export interface V1BridgeOptions extends LossyOptions {
  sessionId: string;
  /** Protocol slips noticed on the way that lose nothing (e.g. a v1 update before its `tool_call`, V4). */
  onDiagnostic?: (diagnostic: Diagnostic<BridgeDiagnosticCode>) => void;
}

/** Reports lossy steps for one session (or none, for connection-level conversions). */
export class LossyReporter {
  private readonly sessionId: string | undefined;
  private readonly onLossy: ((event: LossyEvent) => void) | undefined;
  private readonly strict: boolean;

  constructor(sessionId: string | undefined, options: LossyOptions = {}) {
    this.sessionId = sessionId;
    this.onLossy = options.onLossy;
    this.strict = options.strict === true;
  }

  /** Report one lossy conversion: its code, what was lost, and the update it happened in. */
  report(code: LossyCode, detail: string, update: unknown): void {
    const event: LossyEvent = { code, sessionId: this.sessionId, detail, update };
    if (this.strict) {
      throw new AcpError("ProtocolViolation", `v1 cannot express this (${code}): ${detail}`, { data: event });
    }
    this.onLossy?.(event);
  }
}

/** Accept either a ready reporter or options for one (stateless helpers take both). */
export function toReporter(options: LossyOptions | LossyReporter | undefined, sessionId?: string): LossyReporter {
  return options instanceof LossyReporter ? options : new LossyReporter(sessionId, options);
}
