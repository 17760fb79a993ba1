// Splitting text into message chunks. Joining the pieces always gives back the text exactly.

/** Word-sized pieces: each boundary between a non-space and a space starts a new piece. */
export function splitWords(text: string): string[] {
  if (text === "") return [];
  return text.split(/(?<=\S)(?=\s)/);
}

/** `count` pieces of about equal length (fewer when the text is shorter); never splits a surrogate pair. */
export function splitEvenly(text: string, count: number): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / count));
  const pieces: string[] = [];
  for (let start = 0; start < chars.length; start += size) pieces.push(chars.slice(start, start + size).join(""));
  return pieces;
}

/** The prompt's text: its text blocks joined; other blocks (links, images…) carry no command. */
export function promptText(prompt: readonly unknown[]): string {
  let text = "";
  for (const block of prompt as readonly { type: unknown; text?: unknown }[]) {
    if (block.type === "text" && typeof block.text === "string") text += block.text;
  }
  return text;
}

/** `text` cut to `max` characters with an ellipsis, on one line (for quoting the prompt back). */
export function excerpt(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
