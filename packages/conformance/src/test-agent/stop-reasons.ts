// Which stop reasons a turn may end with (docs/protocol.md §4.6): the five known ones on both versions,
// and on v2 also custom values starting with "_". Used by `/stop` and by script validation, so a
// bad reason is reported where the user wrote it instead of surfacing as the runtime's -32603.
import { STOP_REASONS } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";

/** The stop reasons every version knows. */
export const KNOWN_STOP_REASONS: readonly string[] = STOP_REASONS[2];

/** Why `reason` cannot end a turn on `version`, or undefined when it can. */
export function stopReasonProblem(reason: string, version: ProtocolVersion): string | undefined {
  if (KNOWN_STOP_REASONS.includes(reason)) return undefined;
  const known = KNOWN_STOP_REASONS.join(", ");
  if (version === 1) {
    return reason.startsWith("_") && reason.length > 1
      ? `stop reason "${reason}" is a custom (v2) value, but this connection speaks protocol v1, which allows only ${known}`
      : `stop reason "${reason}" is not one of ${known}`;
  }
  if (reason.startsWith("_") && reason.length > 1) return undefined;
  return `stop reason "${reason}" is not one of ${known}, and custom stop reasons must start with "_" (failures are JSON-RPC errors, not stop reasons)`;
}
