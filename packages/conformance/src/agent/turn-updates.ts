// Which session/update notifications belong to a prompt turn. ACPKIT-ORDER-001 looks for these
// after a prompt's response, and the raw connection remembers the last one per session among the
// lines it reads but does not keep (raw-connection.ts, RECORD_BUDGET_CHARS).

/**
 * Session-level updates: they describe the session, not a turn, and may come at any time
 * (docs/protocol.md O5), so one after a prompt's response is no late update of that turn (O1).
 */
const SESSION_LEVEL_UPDATES = new Set(["usage_update", "available_commands_update", "session_info_update", "current_mode_update", "config_option_update"]);

type Json = Record<string, unknown>;

/** The session id of `value` when it is a `session/update` that belongs to a turn; `undefined` otherwise. */
export function turnUpdateSession(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const message = value as Json;
  if (message.method !== "session/update") return undefined;
  const params = message.params as Json | undefined;
  const kind = (params?.update as Json | undefined)?.sessionUpdate;
  if (typeof kind === "string" && SESSION_LEVEL_UPDATES.has(kind)) return undefined;
  return params?.sessionId;
}
