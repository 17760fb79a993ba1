// Names the model uses for things only v1 has (architecture §4, docs/protocol.md B7). Custom
// values start with `_`, as pinned v2 requires of extensions. They live in core's root entry, not
// in the bridge, because code that reads the model (a client's reducer, a renderer) needs them on
// v2 connections too, where nothing else of the bridge has to be loaded.

/** The custom tool-call content type that stands for a v1 `terminal` item (docs/protocol.md B7). */
export const TERMINAL_CONTENT_TYPE = "_acpkit/terminal";

/** The custom model update that carries a v1 `current_mode_update` (architecture §4). */
export const CURRENT_MODE_UPDATE = "_acpkit/current_mode_update";

/** The custom model update that carries a v1 `notice` (v1 only; the client must advertise notices). */
export const NOTICE_UPDATE = "_acpkit/notice";

/** The custom model update that carries a v1 `compaction_update` (v1 only; the client must advertise compaction). */
export const COMPACTION_UPDATE = "_acpkit/compaction_update";

/** The custom model update that carries a v1 `compaction_summary_chunk`. */
export const COMPACTION_SUMMARY_CHUNK = "_acpkit/compaction_summary_chunk";

/**
 * The custom model update that carries a later-v2 `state_update` (the session's foreground state:
 * `running`, `requires_action` or `idle` with a stop reason, plus the background work snapshot).
 * Only a later-v2 connection has it; the other dialects end a turn with the prompt's response.
 */
export const STATE_UPDATE = "_acpkit/state_update";

/** The custom model update that carries a later-v2 `terminal_update` (an agent-owned terminal, patch semantics). */
export const AGENT_TERMINAL_UPDATE = "_acpkit/terminal_update";

/** The custom model update that carries a later-v2 `terminal_output_chunk` (base64 bytes appended to an agent-owned terminal). */
export const AGENT_TERMINAL_OUTPUT = "_acpkit/terminal_output_chunk";

/** The custom tool-call content type for a later-v2 `terminal` item: a reference to an agent-owned terminal. */
export const AGENT_TERMINAL_CONTENT_TYPE = "_acpkit/agent_terminal";

/**
 * The custom tool-call content type for a later-v2 diff the model cannot hold as `{path, oldText,
 * newText}`: its `changes` (and `patch`, when sent) kept as they came, since no file text can be
 * rebuilt from them without the files themselves.
 */
export const DIFF_CHANGES_CONTENT_TYPE = "_acpkit/diff_changes";

/**
 * The model's request (client → agent) to cancel one tool call that advertises `capabilities.cancel`:
 * params `{sessionId, toolCallId}`, result `{}`. The later v2 draft's `tool_call/cancel`; between
 * acpkit peers on the pinned v2 it is this extension method as it is.
 */
export const CANCEL_TOOL_CALL_METHOD = "_acpkit/tool_call/cancel";

/** The model's request to cancel an agent-owned terminal that advertises `capabilities.cancel` (`terminal/cancel` in the later draft): `{sessionId, terminalId}` → `{}`. */
export const CANCEL_TERMINAL_METHOD = "_acpkit/terminal/cancel";

/**
 * The model's elicitation request (agent → client) on a later-v2 connection: the later draft's
 * `elicitation/create`, whose params and result are v1's (form or URL mode, session or request
 * scope). The pinned v2 has no elicitation, so the model carries it as this extension method.
 */
export const ELICITATION_CREATE_METHOD = "_acpkit/elicitation/create";

/** The model's notification that a URL elicitation finished (`elicitation/complete` in the later draft and v1): `{elicitationId}`. */
export const ELICITATION_COMPLETE_METHOD = "_acpkit/elicitation/complete";
