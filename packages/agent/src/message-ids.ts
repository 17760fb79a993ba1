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
  if (!id.startsWith(PREFIX)) return undefined;
  const digits = id.slice(PREFIX.length);
  const n = Number(digits);
  // Only the canonical spelling: "msg_01" or "msg_1e3" are ids of their own.
  return Number.isSafeInteger(n) && n >= 1 && String(n) === digits ? n : undefined;
}
