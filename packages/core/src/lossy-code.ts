// The codes of what the v1⇄v2 bridge cannot carry across (docs/protocol.md §7.1). A module of its
// own with no imports: diagnostics.ts names them and bridge/lossy.ts reports them, and neither
// may import the other (that was an import cycle through core's main entry).

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
  | "mcp_server" // an MCP server transport the other version does not have
  | "diff" // a diff one side's shape cannot carry (later v2 has no file text; the model needs it for v1 and pinned v2)
  | "permission_subject" // a permission request about something other than a tool call, sent as a tool call
  | "baseline_method"; // a method later v2 makes baseline that this agent does not serve (answered -32601)

/** One lossy conversion step (the v1 bridge's and the later-v2 codecs'). `update` is the value being converted when it happened. */
export interface LossyEvent {
  code: LossyCode;
  sessionId: string | undefined;
  /** A sentence saying what was lost or approximated and what was sent instead. */
  detail: string;
  update: unknown;
}
