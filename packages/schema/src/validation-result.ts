// The result type every validation entry point of @acpkit/schema returns (docs/architecture.md §2).

/** One problem found in a value. */
export interface ValidationError {
  /** JSON Pointer into the validated value (`/update/content/0/type`; `""` is the value itself). */
  path: string;
  /** What is wrong, in words (`must have required property 'content'`). */
  message: string;
  /** Set when the value matches a known legacy/foreign shape (e.g. a v1 `tool_call` update on v2). */
  legacyShape?: string;
  /** What the version expects instead, when a legacy shape was recognised. */
  expected?: string;
}

/** The answer of every validation function: one shared frozen `{ valid: true }`, or the errors found. */
export type ValidationResult = { valid: true } | { valid: false; errors: ValidationError[] };

/** The one shared success result: validation allocates nothing when the value is valid. */
export const VALID: ValidationResult = Object.freeze({ valid: true as const });

export function invalid(errors: ValidationError[]): ValidationResult {
  return { valid: false, errors };
}
