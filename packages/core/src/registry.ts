// The method registry a Connection dispatches and validates against. By default it is the one
// generated into @acpkit/schema; a Connection may be given another (tests, experiments) through
// `ConnectionOptions.registry`.
import {
  PROTOCOL_VERSIONS,
  checkOutgoing,
  detectLegacyMethod,
  getMethod,
  isProtocolVersion,
  isProtocolVersionLoaded,
  loadProtocolVersion,
} from "@acpkit/schema/lazy";
import type { MethodInfo, ProtocolVersion, ValidationError, ValidationResult } from "@acpkit/schema";

export type { MethodInfo, ProtocolVersion, ValidationError, ValidationResult };
// A version's validators load when it is negotiated (the agent and client runtimes await this);
// code that drives a Connection itself awaits it before `setVersion`.
export { isProtocolVersionLoaded, loadProtocolVersion };
// Whether a value is a version acpkit speaks (1 or 2). Re-exported so that the runtimes import the
// schema package through core alone: each bare specifier a starting process resolves costs it
// about half a millisecond (docs/performance.md, "import").
export { isProtocolVersion };

/** Where a Connection looks up methods: what exists per version, its direction, its validators. */
export interface MethodRegistry {
  /** The method's entry in `version`'s table, or undefined when the version has no such method. */
  getMethod(version: ProtocolVersion, method: string): MethodInfo | undefined;
  /** Development-mode check of something we are about to send: schema plus conformance rules. */
  checkOutgoing(version: ProtocolVersion, method: string, part: "params" | "result", value: unknown): ValidationResult;
  /**
   * Optional: for a method `getMethod` does not know, whether it is an outdated name (`acp/prompt`)
   * and what replaced it, so the -32601 answer can say so (docs/protocol.md §9). Only called off the hot path.
   */
  legacyMethod?(version: ProtocolVersion, method: string): { legacyShape: string; expected: string } | undefined;
}

/** The registry generated from the canonical schema (`@acpkit/schema`). */
export const schemaRegistry: MethodRegistry = {
  getMethod,
  checkOutgoing,
  legacyMethod: (_version, method) => detectLegacyMethod(method),
};

/** Every version the registry knows, newest last. */
export const KNOWN_VERSIONS: readonly ProtocolVersion[] = PROTOCOL_VERSIONS;
