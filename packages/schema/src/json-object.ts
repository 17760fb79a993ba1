// Two facts about JSON values every acpkit package needs, written once here (the package
// everything else depends on) and re-exported by @acpkit/core.

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `table[key]` for a key a peer chose: own entries only (never `Object.prototype`'s `constructor`, …). */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
