// Diffs between the model and the later v2 draft (docs/protocol.md A8). The model (like v1 and the
// pinned v2) carries a diff as `{path, oldText, newText}`: whole file texts. The later draft carries
// `changes` (which files, which operation) and an optional unified `patch`, and never file text.
//
// Model → later is always computable: the operation follows from `oldText` (absent or null: the
// file is new) and the patch is computed from the two texts (`diff`, a maintained implementation
// of the Myers algorithm, rather than one of our own).
// Later → model is computable only when the patch alone determines the new file: one added file
// whose patch applies to the empty text. Anything else is kept as the custom content item
// `_acpkit/diff_changes` with the changes and patch exactly as they came, so nothing is lost in the
// model and nothing is invented; a dialect that cannot carry that item reports it lossy.
import { applyPatch, createTwoFilesPatch } from "diff";
import { DIFF_CHANGES_CONTENT_TYPE, isJsonObject } from "../index.js";

type Json = Record<string, unknown>;

/** The header options that give a plain `---`/`+++` file header, which `diff --git` then precedes. */
const PATCH_HEADERS = { headerOptions: { includeIndex: false, includeUnderline: false, includeFileHeaders: true } } as const;

/** `path` as it appears after `a/` or `b/` in a git patch header (absolute paths keep their slash once). */
function gitName(prefix: "a/" | "b/", path: string): string {
  return prefix + (path.startsWith("/") ? path.slice(1) : path);
}

/** A git-format unified patch from `oldText` (null: a new file) to `newText` for `path`. */
export function gitPatchOf(path: string, oldText: string | null, newText: string): string {
  const oldName = oldText === null ? "/dev/null" : gitName("a/", path);
  const body = createTwoFilesPatch(oldName, gitName("b/", path), oldText ?? "", newText, undefined, undefined, PATCH_HEADERS);
  const header = `diff --git ${gitName("a/", path)} ${gitName("b/", path)}\n${oldText === null ? "new file mode 100644\n" : ""}`;
  return header + body;
}

/** A model `diff` item as the later draft's `{type: "diff", changes, patch}`; a kept `_acpkit/diff_changes` item goes back as it came. */
export function diffToLater(item: Json): Json {
  if (item.type === DIFF_CHANGES_CONTENT_TYPE) {
    const { type: _type, ...rest } = item;
    return { type: "diff", ...rest };
  }
  const path = String(item.path);
  const oldText = typeof item.oldText === "string" ? item.oldText : null;
  const newText = typeof item.newText === "string" ? item.newText : "";
  const out: Json = {
    type: "diff",
    changes: [{ operation: oldText === null ? "add" : "modify", path }],
    patch: { format: "git_patch", text: gitPatchOf(path, oldText, newText) },
  };
  if (item._meta !== undefined) out._meta = item._meta;
  return out;
}

/** The new file text a later-draft diff determines by itself (one added file with a patch that applies to ""), or undefined. */
function addedFileText(item: Json): { path: string; newText: string } | undefined {
  const changes = Array.isArray(item.changes) ? item.changes : [];
  const patch = isJsonObject(item.patch) ? item.patch : undefined;
  if (changes.length !== 1 || patch === undefined || typeof patch.text !== "string") return undefined;
  const change = changes[0];
  if (!isJsonObject(change) || change.operation !== "add" || typeof change.path !== "string") return undefined;
  if (patch.format !== "git_patch" && patch.format !== "unified") return undefined;
  const applied = applyPatch("", patch.text);
  return applied === false ? undefined : { path: change.path, newText: applied };
}

/**
 * A later-draft `diff` item in the model's shape: `{type: "diff", path, oldText: null, newText}`
 * for one added file whose patch applies, otherwise the `_acpkit/diff_changes` item. `exact` says
 * which: a caller that must deliver the model's plain diff reports the other case lossy.
 */
export function diffFromLater(item: Json): { item: Json; exact: boolean } {
  const added = addedFileText(item);
  if (added !== undefined) {
    const out: Json = { type: "diff", path: added.path, oldText: null, newText: added.newText };
    if (item._meta !== undefined) out._meta = item._meta;
    return { item: out, exact: true };
  }
  const { type: _type, ...rest } = item;
  return { item: { type: DIFF_CHANGES_CONTENT_TYPE, ...rest }, exact: false };
}
