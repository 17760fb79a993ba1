// A JSON object (not an array, not null): the one check the schema package's hand-written parts
// (conformance walk, legacy detection) share. @acpkit/core has the public `isJsonObject`.
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
