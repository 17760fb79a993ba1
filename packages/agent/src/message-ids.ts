// The form of the message ids an agent hands out (`msg_1`, `msg_2`, …), in one place: SessionIds
// makes them, and HeldUpdates reads the number back to hold a run of consecutive whole messages
// as a start number and their texts, without keeping an id string per message.

const PREFIX = "msg_";

/** The id of message number `n` (n ≥ 1). */
export function messageIdFor(n: number): string {
  return PREFIX + n;
}

/** The number in an id made by `messageIdFor`, or undefined for any other id. */
export function messageNumberOf(id: string): number | undefined {
  // Read digit by digit: this runs once per message an agent holds (HeldTextRun), and slicing,
  // Number() and String() made three strings per call. Only the canonical spelling counts:
  // "msg_01" and "msg_1e3" are ids of their own.
  const length = id.length;
  if (length <= PREFIX.length || length > PREFIX.length + 16 || !id.startsWith(PREFIX)) return undefined;
  if (id.charCodeAt(PREFIX.length) === ZERO) return undefined;
  let n = 0;
  for (let i = PREFIX.length; i < length; i++) {
    const digit = id.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return Number.isSafeInteger(n) ? n : undefined;
}

const ZERO = 0x30;
