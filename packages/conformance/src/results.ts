// The results of one check as it runs: one entry per requirement, written only by the group that
// judges it. A failure, once found, stays: a later group that sees the requirement hold cannot
// turn it into a pass.
import type { CheckResult, CheckStatus } from "./report.js";
import type { Requirement, RequirementId } from "./requirements.js";

/** The results a group may write: only the ids it declared (its `judges`). */
export interface Judge<Id extends RequirementId> {
  /** Record a judgement; a failure carries the wire lines that show it. */
  set(id: Id, status: CheckStatus, message: string, transcript?: readonly string[]): void;
  /** Record a pass, unless something was already recorded. */
  pass(id: Id, message: string): void;
  /** `ids` could not be judged: not_tested with why (a pass, a failure or not_applicable stays). */
  block(ids: readonly Id[], why: string): void;
  status(id: Id): CheckStatus;
  message(id: Id): string;
}

/** A group of checks: a name, and the ids it alone judges. */
export interface CheckGroup<Id extends RequirementId> {
  readonly name: string;
  readonly judges: readonly Id[];
}

export class Results<Id extends RequirementId> {
  private readonly byId = new Map<Id, CheckResult<Id>>();

  constructor(private readonly requirements: readonly Requirement<Id>[]) {
    for (const entry of requirements) this.byId.set(entry.id, { id: entry.id, tier: entry.tier, status: "not_tested", message: "not reached" });
  }

  /** The writer for `group`: writing an id the group did not declare is a bug of the kit, and throws. */
  for(group: CheckGroup<Id>): Judge<Id> {
    const own = new Set<Id>(group.judges);
    const mine = (id: Id): Id => {
      if (!own.has(id)) throw new Error(`internal: group ${group.name} wrote ${id}, which it does not judge`);
      return id;
    };
    return {
      set: (id, status, message, transcript) => this.set(mine(id), status, message, transcript),
      pass: (id, message) => {
        if (this.get(mine(id)).status === "not_tested") this.set(id, "pass", message);
      },
      block: (ids, why) => {
        for (const id of ids.map(mine)) {
          const current = this.get(id);
          if (current.status === "not_tested" || current.status === "skip") this.byId.set(id, { ...current, status: "not_tested", message: why });
        }
      },
      status: (id) => this.get(id).status,
      message: (id) => this.get(id).message,
    };
  }

  list(): CheckResult<Id>[] {
    return this.requirements.map((entry) => this.get(entry.id));
  }

  private get(id: Id): CheckResult<Id> {
    const found = this.byId.get(id);
    if (!found) throw new Error(`internal: no result slot for ${id}`);
    return found;
  }

  private set(id: Id, status: CheckStatus, message: string, transcript?: readonly string[]): void {
    const current = this.get(id);
    if (current.status === "fail" && status !== "fail") return;
    const result: CheckResult<Id> = { id, tier: current.tier, status, message };
    if (status === "fail" && transcript && transcript.length > 0) result.transcript = [...transcript];
    this.byId.set(id, result);
  }
}
