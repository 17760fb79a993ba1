// Expected failures: a baseline of requirement ids known to fail, so that a CI gate turns red
// only on what changed. A new failure is red; so is a baselined id that now passes (the baseline
// is stale and would hide that id failing again).
import type { AgentCheckReport, ClientCheckReport } from "./report.js";
import { isRequirementId, type RequirementId } from "./requirements.js";

/** What a report says against a baseline. */
export interface BaselineComparison {
  /** No new failure and no stale entry: the gate is green. */
  ok: boolean;
  /** Ids that failed and are not in the baseline. */
  newFailures: RequirementId[];
  /** Ids in the baseline that passed this time: remove them from the baseline. */
  stale: RequirementId[];
  /** Ids in the baseline that failed again, as expected. */
  expected: RequirementId[];
  /** Ids in the baseline this report did not judge (skipped, not tested, or of the other side): neither red nor green. */
  unjudged: RequirementId[];
}

/** Where a baseline file is wrong: the line and why. */
export class BaselineError extends Error {
  override readonly name = "BaselineError";
}

/**
 * Read a baseline: one requirement id per line (blank lines and `#` comments ignored, text after
 * the id on a line is a note), or a JSON array of ids. Throws BaselineError naming the line of an
 * id the kit does not know, or of one listed twice.
 */
export function parseBaseline(text: string, source = "the baseline"): RequirementId[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    let list: unknown;
    try {
      list = JSON.parse(trimmed);
    } catch (error) {
      throw new BaselineError(`${source}: not valid JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(list)) throw new BaselineError(`${source}: a JSON baseline must be an array of requirement ids`);
    return collect(
      list.map((id, index) => ({ id, where: `entry ${index}` })),
      source,
    );
  }
  const entries = text.split(/\r?\n/).flatMap((line, index) => {
    const id = line.replace(/#.*$/, "").trim().split(/\s+/)[0] ?? "";
    return id === "" ? [] : [{ id: id as unknown, where: `line ${index + 1}` }];
  });
  return collect(entries, source);
}

function collect(entries: readonly { id: unknown; where: string }[], source: string): RequirementId[] {
  const seen = new Set<string>();
  for (const { id, where } of entries) {
    if (typeof id !== "string" || !isRequirementId(id))
      throw new BaselineError(`${source}, ${where}: ${JSON.stringify(id)} is not a requirement id of the kit (see AGENT_REQUIREMENTS and CLIENT_REQUIREMENTS)`);
    if (seen.has(id)) throw new BaselineError(`${source}, ${where}: ${id} is listed twice`);
    seen.add(id);
  }
  return [...seen] as RequirementId[];
}

/** Compare a report with the ids expected to fail. */
export function compareWithBaseline(report: AgentCheckReport | ClientCheckReport, expectedFailures: readonly RequirementId[]): BaselineComparison {
  const expectedSet = new Set<string>(expectedFailures);
  const statusOf = new Map<string, string>(report.results.map((result) => [result.id, result.status]));
  const newFailures = report.results.filter((result) => result.status === "fail" && !expectedSet.has(result.id)).map((result) => result.id);
  const stale = expectedFailures.filter((id) => statusOf.get(id) === "pass");
  const expected = expectedFailures.filter((id) => statusOf.get(id) === "fail");
  const unjudged = expectedFailures.filter((id) => statusOf.get(id) !== "pass" && statusOf.get(id) !== "fail");
  return { ok: newFailures.length === 0 && stale.length === 0, newFailures, stale, expected, unjudged };
}
