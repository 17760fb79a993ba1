// Validation on a later-v2 connection. The runtime checks what it sends and receives against the
// model (the pinned v2 schema plus its conformance rules), and those rules name the later draft's
// shapes as mistakes on the pinned v2 (a tool call status `cancelled`, a permission `subject`, …;
// docs/protocol.md §9). On a connection that speaks the later draft through its codec those shapes
// are exactly right, so that one family of findings is dropped there, both ways; every other
// finding stays. Until the connection is known to speak the later draft, nothing changes.
import type { MethodInfo, MethodRegistry, ValidationResult } from "./registry.js";

/** How the conformance rules begin a finding about a later-draft shape (schema's legacy-common.ts). */
const LATER_DRAFT_FINDING = "later v2 draft shape";

/** `result` without later-draft findings. */
function withoutLaterFindings(result: ValidationResult): ValidationResult {
  if (result.valid) return result;
  const errors = result.errors.filter((error) => !error.message.startsWith(LATER_DRAFT_FINDING));
  return errors.length === 0 ? { valid: true } : { valid: false, errors };
}

/** `base`, whose checks ignore later-draft findings while `isLater()` says the connection speaks that draft. */
export function dialectAwareRegistry(base: MethodRegistry, isLater: () => boolean): MethodRegistry {
  // One wrapped entry per method entry of `base` (entries are stable once a version is loaded).
  const wrapped = new WeakMap<MethodInfo, MethodInfo>();
  const wrap = (info: MethodInfo): MethodInfo => {
    let out = wrapped.get(info);
    if (out === undefined) {
      const validateParams = (params: unknown): ValidationResult => withoutLaterFindings(info.validateParams(params));
      const validateResult = info.validateResult;
      out =
        validateResult === undefined
          ? { ...info, validateParams }
          : {
              ...info,
              validateParams,
              validateResult: (result: unknown) => withoutLaterFindings(validateResult.call(info, result)),
            };
      wrapped.set(info, out);
    }
    return out;
  };
  const registry: MethodRegistry = {
    getMethod(version, method) {
      const info = base.getMethod(version, method);
      // A v1 or pinned-v2 connection gets the base entries themselves: nothing added on its path.
      return info === undefined || !isLater() ? info : wrap(info);
    },
    checkOutgoing(version, method, part, value): ValidationResult {
      const result = base.checkOutgoing(version, method, part, value);
      return result.valid || !isLater() ? result : withoutLaterFindings(result);
    },
  };
  if (base.legacyMethod !== undefined) registry.legacyMethod = (version, method) => base.legacyMethod!(version, method);
  return registry;
}
