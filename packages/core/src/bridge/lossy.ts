// What the v1⇄v2 bridge cannot carry across is reported, never dropped silently (docs/protocol.md §7).
import type { Diagnostic } from "../diagnostics.js";
// Through the main entry, not ../errors.js: one copy of the error classes across bundled entries.
import { AcpError } from "../index.js";

/** Why a conversion lost or approximated something; the codes of docs/protocol.md §7.1. */
export type LossyCode =
  | "meta" // a `_meta` value v1 has no place for (message meta, plan-content meta, `_meta: null` patch)
  | "message_replace" // a whole-message upsert that does not extend what v1 already received
  | "clear_field" // a v2 `null` clear of a field v1 cannot clear
  | "enum_value" // a custom/unknown v2 enum value (tool kind/status, plan priority/status)
  | "plan" // a second plan id, or a plan of unknown type
  | "session_update" // a session update v1 cannot express (unknown variant, custom command input)
  | "stop_reason" // a custom stop reason sent to v1 as `end_turn`
  | "permission_option" // a permission option of custom kind
  | "content_block" // an unknown content block / tool-call content item, or a custom annotation role
  | "auth_method" // an auth method type v1 does not have
  | "mcp_server"; // an MCP server transport the other version does not have

/** One lossy conversion step. `update` is the value being converted when it happened. */
export interface LossyEvent {
  code: LossyCode;
  sessionId: string | undefined;
  /** A sentence saying what was lost or approximated and what was sent instead. */
  detail: string;
  update: unknown;
}

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
  onDiagnostic?: (diagnostic: Diagnostic) => void;
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
