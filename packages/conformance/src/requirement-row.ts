// The shape of one row of the requirement registry (requirements.ts), shared by the agent's and
// the client's tables.

/** MUST: a failure means not conformant. CAPABILITY: judged only when advertised, then it counts like a MUST. SHOULD: reported. INFO: recorded. */
export type Tier = "MUST" | "CAPABILITY" | "SHOULD" | "INFO";

/** One row of a requirement table, before the registry types its id. */
export interface RequirementRow {
  readonly id: string;
  readonly tier: Tier;
  readonly group: string;
  readonly capability?: string;
  readonly text: string;
  readonly citation: string;
}
