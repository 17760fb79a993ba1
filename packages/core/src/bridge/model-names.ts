// Names the model uses for things only v1 has, and the ids the bridge invents (architecture §4,
// docs/protocol.md B2, B6, B7). Custom values start with `_` as pinned v2 requires of extensions.

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

/** v1 update tags that exist only in v1, and the model tags that stand for them. */
export const V1_ONLY_UPDATES: Readonly<Record<string, string>> = Object.freeze({
  current_mode_update: CURRENT_MODE_UPDATE,
  notice: NOTICE_UPDATE,
  compaction_update: COMPACTION_UPDATE,
  compaction_summary_chunk: COMPACTION_SUMMARY_CHUNK,
});

/** The id a v1 plan gets in the model (docs/protocol.md B6). */
export const V1_PLAN_ID = "main";

/** Prefix of the message ids invented for v1 chunks without one: `acpkit-synth-1`, … (docs/protocol.md B2). */
export const SYNTH_MESSAGE_ID_PREFIX = "acpkit-synth-";

/** The `_meta` key that carries a v2 stop reason v1 cannot express (docs/protocol.md B5). */
export const V2_STOP_REASON_META_KEY = "acpkit/v2StopReason";
