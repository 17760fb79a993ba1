// What the registry knows of one method of one version. A module of its own (types only): the
// method tables (methods.ts) name it and the registry (registry.ts) builds it, and the registry
// already imports the tables; the type here keeps the tables from importing the registry back.
import type { MethodDirection, MethodKind } from "./compiled-validator.js";
import type { ValidationResult } from "./validation-result.js";

/** One method of one protocol version, with its validators. */
export interface MethodInfo {
  readonly method: string;
  readonly direction: MethodDirection;
  readonly kind: MethodKind;
  /** Name of the params $def (a type in the version's namespace, e.g. `v2.PromptRequest`). */
  readonly paramsType: string;
  /** Name of the result $def; absent for notifications. */
  readonly resultType?: string;
  /** Schema validation, then legacy-shape detection (named legacy shapes lead the errors). */
  validateParams(params: unknown): ValidationResult;
  /** Present for requests only. */
  validateResult?(result: unknown): ValidationResult;
}
