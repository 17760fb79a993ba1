// Where a file stops being UTF-8, for an error that names the line (`acpkit validate`). Only run
// once a strict decode has failed, so it is written for clarity, not speed.

/** Where the first malformed UTF-8 sequence starts: 1-based line, 1-based byte within the line, and the byte. */
export interface MalformedUtf8 {
  line: number;
  byte: number;
  value: number;
}

/** The first byte of `bytes` that does not begin a well-formed UTF-8 sequence (Unicode table 3-7), or undefined. */
export function findMalformedUtf8(bytes: Uint8Array): MalformedUtf8 | undefined {
  let line = 1;
  let lineStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      if (lead === 0x0a) {
        line++;
        lineStart = i + 1;
      }
      i++;
      continue;
    }
    const length = sequenceLength(bytes, i);
    if (length === 0) return { line, byte: i - lineStart + 1, value: lead };
    i += length;
  }
  return undefined;
}

// The length of the well-formed multi-byte sequence at `at`, or 0. The second byte's range depends
// on the lead (no overlong forms, no surrogates, nothing above U+10FFFF); the rest are 80-BF.
function sequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at]!;
  let trailing: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) trailing = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    trailing = 2;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    trailing = 3;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return 0;
  for (let k = 1; k <= trailing; k++) {
    const next = bytes[at + k];
    if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return 0;
  }
  return trailing + 1;
}
