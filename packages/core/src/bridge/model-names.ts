// Names the model uses for things only v1 has, and the ids the bridge invents (architecture §4,
// docs/protocol.md B2, B6, B7). Custom values start with `_` as pinned v2 requires of extensions.

// The model's own names for v1-only things are in core's root entry (model-tags.ts); imported
// through it so that they exist once (scripts/bundle-package.mjs).
import { COMPACTION_SUMMARY_CHUNK, COMPACTION_UPDATE, CURRENT_MODE_UPDATE, NOTICE_UPDATE, TERMINAL_CONTENT_TYPE } from "../index.js";

export { COMPACTION_SUMMARY_CHUNK, COMPACTION_UPDATE, CURRENT_MODE_UPDATE, NOTICE_UPDATE, TERMINAL_CONTENT_TYPE };

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
