// A line diff for tool-call diffs: the longest common subsequence of lines, shown as kept,
// removed and added lines. Quadratic, so big inputs fall back to "all removed, all added".

export interface DiffLine {
  kind: "same" | "removed" | "added";
  text: string;
}

/** Above this many line pairs the diff is not computed line by line. */
const MAX_CELLS = 4_000_000;

export function diffLines(oldText: string | null | undefined, newText: string): DiffLine[] {
  const before = oldText == null || oldText === "" ? [] : oldText.split("\n");
  const after = newText === "" ? [] : newText.split("\n");
  if (before.length * after.length > MAX_CELLS) {
    return [...before.map((text) => ({ kind: "removed" as const, text })), ...after.map((text) => ({ kind: "added" as const, text }))];
  }
  // lengths[i][j]: LCS length of before[i..] and after[j..], in one flat array.
  const width = after.length + 1;
  const lengths = new Uint32Array((before.length + 1) * width);
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        before[i] === after[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    if (before[i] === after[j]) {
      out.push({ kind: "same", text: before[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) out.push({ kind: "removed", text: before[i++]! });
    else out.push({ kind: "added", text: after[j++]! });
  }
  while (i < before.length) out.push({ kind: "removed", text: before[i++]! });
  while (j < after.length) out.push({ kind: "added", text: after[j++]! });
  return out;
}
