// The requirement registry: every requirement the kit judges, as typed data. Ids shared with
// acp-tck keep its names (ACP-PROMPT-001, ACP-CANCEL-001) so results compare; the rest are
// acpkit's. `group` names the one module that judges the id (agent/groups/*.ts,
// client/judges/*.ts); a test holds every id to exactly one judge. docs/conformance.md lists them.

import { AGENT_ROWS } from "./agent-requirement-rows.js";
import { CLIENT_ROWS } from "./client-requirement-rows.js";
import type { Tier } from "./requirement-row.js";

export type { Tier } from "./requirement-row.js";

/** Which side of the protocol a requirement is about. */
export type Side = "agent" | "client";

/** One requirement: what must hold, how much it weighs, and where the rule comes from. */
export interface Requirement<Id extends string = RequirementId> {
  id: Id;
  tier: Tier;
  /** The group of checks that judges it (one module each). */
  group: string;
  /** For a CAPABILITY requirement: what the peer must advertise for it to be judged. */
  capability?: string;
  /** What must hold, in one sentence. */
  text: string;
  /** The rule in docs/protocol.md (or JSON-RPC 2.0) it comes from. */
  citation: string;
}

/** The id of a requirement `checkAgent` judges. */
export type AgentRequirementId = (typeof AGENT_ROWS)[number]["id"];
/** The id of a requirement `checkClient` judges. */
export type ClientRequirementId = (typeof CLIENT_ROWS)[number]["id"];
/** Any requirement id of the kit: a typo is a type error. */
export type RequirementId = AgentRequirementId | ClientRequirementId;

/** What `checkAgent` judges, in report order. */
export const AGENT_REQUIREMENTS: readonly Requirement<AgentRequirementId>[] = AGENT_ROWS;
/** What `checkClient` judges, in report order. */
export const CLIENT_REQUIREMENTS: readonly Requirement<ClientRequirementId>[] = CLIENT_ROWS;

const BY_ID = new Map<string, Requirement>([...AGENT_REQUIREMENTS, ...CLIENT_REQUIREMENTS].map((entry) => [entry.id, entry]));

/** Whether `id` names a requirement of the kit (for ids read from a file or a command line). */
export function isRequirementId(id: string): id is RequirementId {
  return BY_ID.has(id);
}

/** The requirement `id` names; throws for an id the kit does not have. */
export function requirement(id: RequirementId): Requirement {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`no requirement ${JSON.stringify(id)}: the kit's ids are listed in AGENT_REQUIREMENTS and CLIENT_REQUIREMENTS`);
  return found;
}

/** The side a requirement id belongs to. */
export function requirementSide(id: RequirementId): Side {
  return CLIENT_REQUIREMENTS.some((entry) => entry.id === id) ? "client" : "agent";
}
