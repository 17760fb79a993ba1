// What a check returns: one result per requirement, and the verdict they add up to. The verdict
// rules are the kit's promise (docs/conformance.md): a requirement that was not tested is never
// counted as a pass.
import type { ProtocolVersion } from "@acpkit/schema";
import type { AgentRequirementId, ClientRequirementId, RequirementId, Tier } from "./requirements.js";

/**
 * pass / fail: judged. skip: not judged, and the peer is not to blame (a capability it does not
 * advertise; for a MUST: what the check needed never happened). not_tested: not judged because
 * something stopped the check (an authentication demand, an earlier failure). not_applicable:
 * the target cannot show it at all (stdio framing of an in-process agent).
 */
export type CheckStatus = "pass" | "fail" | "skip" | "not_tested" | "not_applicable";

/** The judgement of one requirement. */
export interface CheckResult<Id extends RequirementId = RequirementId> {
  id: Id;
  tier: Tier;
  status: CheckStatus;
  /** Why, in one line: what was seen, or why it could not be judged. */
  message: string;
  /** For a failure: the relevant lines of the wire (`→` sent by the checker, `←` received). */
  transcript?: string[];
}

/**
 * conformant: every requirement that decides was judged and none failed. not_conformant: one
 * failed. inconclusive: none failed but one was never judged (blocked by authentication, a
 * scenario the peer never reached); a requirement that was not tested is never a pass.
 */
export type Verdict = "conformant" | "not_conformant" | "inconclusive";

/** What `checkAgent` returns. */
export interface AgentCheckReport {
  verdict: Verdict;
  /** Why the verdict is inconclusive: one line per reason, naming the requirement ids (empty otherwise). */
  inconclusive: string[];
  /** verdict === "conformant" (kept for scripts written against earlier reports). */
  conformant: boolean;
  /** The version the agent answered to the checker's offer (null when it never answered one). */
  protocolVersion: ProtocolVersion | null;
  agent: { name: string; version: string } | null;
  results: CheckResult<AgentRequirementId>[];
}

/** What `checkClient` returns. */
export interface ClientCheckReport {
  verdict: Verdict;
  /** Why the verdict is inconclusive (see AgentCheckReport.inconclusive). */
  inconclusive: string[];
  /** verdict === "conformant". */
  conformant: boolean;
  /** The version the client and the checking agent agreed on (null when the client never initialized). */
  protocolVersion: ProtocolVersion | null;
  client: { name: string; version: string } | null;
  results: CheckResult<ClientRequirementId>[];
}

/** Whether a result takes part in the verdict: every MUST, and a CAPABILITY the peer advertised. */
function decides(result: CheckResult): boolean {
  if (result.status === "not_applicable") return false;
  if (result.tier === "MUST") return true;
  // A CAPABILITY that is skipped was not advertised; one that was advertised is judged (or blocked).
  return result.tier === "CAPABILITY" && result.status !== "skip";
}

/**
 * The verdict rules: a MUST, or a CAPABILITY the peer advertised, that failed makes the run
 * not_conformant; one that was never judged (not_tested, or a MUST skipped because what it needed
 * never happened) makes it inconclusive, with the reason; SHOULD and INFO never decide it.
 */
export function verdictOf(results: readonly CheckResult[]): { verdict: Verdict; inconclusive: string[] } {
  const deciding = results.filter(decides);
  if (deciding.some((result) => result.status === "fail")) return { verdict: "not_conformant", inconclusive: [] };
  const untested = deciding.filter((result) => result.status === "not_tested" || result.status === "skip");
  if (untested.length === 0) return { verdict: "conformant", inconclusive: [] };
  const reasons = [...new Set(untested.map((result) => result.message))];
  return {
    verdict: "inconclusive",
    inconclusive: reasons.map(
      (reason) =>
        `${untested
          .filter((result) => result.message === reason)
          .map((result) => result.id)
          .join(", ")}: ${reason}`,
    ),
  };
}
