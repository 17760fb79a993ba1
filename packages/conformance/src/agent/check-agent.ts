// checkAgent: drives an agent with the checker's raw client (raw-connection.ts), a fresh
// connection per group of checks so one failure cannot poison the rest, and judges each
// requirement of the registry: pass, fail (with the wire evidence), skip (with why), not_tested
// or not_applicable. The groups live in groups/, each judging the ids it declares.
import { isJsonObject as isObject } from "@acpkit/core";
import { type AgentCheckReport, verdictOf } from "../report.js";
import { AGENT_REQUIREMENTS, type AgentRequirementId } from "../requirements.js";
import { type CheckGroup, Results } from "../results.js";
import { CAPABILITY_GROUP, capabilityGroup } from "./groups/capabilities.js";
import { NEGOTIATION_GROUP, negotiationGroup } from "./groups/negotiation.js";
import { noteSlowStart, PROTOCOL_GROUP, protocolGroup } from "./groups/protocol.js";
import { LATER_GROUP, laterGroup, laterNotApplicable } from "./groups/later-v2.js";
import { cancelGroup, TURN_GROUP, turnGroup } from "./groups/turn.js";
import { WIRE_GROUP } from "./groups/wire.js";
import { type AgentCheckOptions, type AgentTarget, type CheckContext, targetKind } from "./target.js";

/** The groups of agent checks, in the order they run; between them they judge every agent requirement once. */
export const AGENT_CHECK_GROUPS: readonly CheckGroup<AgentRequirementId>[] = [
  PROTOCOL_GROUP,
  WIRE_GROUP,
  NEGOTIATION_GROUP,
  TURN_GROUP,
  CAPABILITY_GROUP,
  LATER_GROUP,
];

/** The groups judged on the shapes of v1 and the pinned v2; an agent that speaks the later v2 draft is judged by LATER_GROUP instead. */
const PINNED_SHAPE_GROUPS: readonly CheckGroup<AgentRequirementId>[] = [NEGOTIATION_GROUP, TURN_GROUP, CAPABILITY_GROUP];

function contextOf(target: AgentTarget, options: AgentCheckOptions): CheckContext {
  targetKind(target);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const milliseconds = (name: keyof AgentCheckOptions, least: number) => {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= least))
      throw new TypeError(`checkAgent: options.${name} must be an integer of milliseconds ≥ ${least} (got ${JSON.stringify(value)})`);
  };
  milliseconds("timeoutMs", 1);
  milliseconds("startTimeoutMs", 1);
  milliseconds("lateUpdateWindowMs", 0);
  if (options.protocol !== undefined && options.protocol !== 1 && options.protocol !== 2)
    throw new TypeError(`checkAgent: options.protocol must be 1 or 2 (got ${JSON.stringify(options.protocol)})`);
  if (options.v2Dialect !== undefined && options.v2Dialect !== "auto" && options.v2Dialect !== "later")
    throw new TypeError(`checkAgent: options.v2Dialect must be "auto" or "later" (got ${JSON.stringify(options.v2Dialect)})`);
  if (options.v2Dialect === "later" && options.protocol !== 2) throw new TypeError('checkAgent: options.v2Dialect "later" needs options.protocol 2');
  return {
    target,
    protocol: options.protocol ?? 1,
    cwd: options.cwd ?? process.cwd(),
    timeoutMs,
    startTimeoutMs: options.startTimeoutMs ?? Math.max(30_000, timeoutMs),
    prompt: options.prompt ?? "Hello",
    auth: options.auth,
    lateUpdateWindowMs: options.lateUpdateWindowMs ?? 300,
    ...(options.v2Dialect === "later" ? { later: true } : {}),
  };
}

/**
 * Check an agent against every agent requirement. Rejects with AgentUnavailable when the agent
 * cannot be started, reached or initialized (there is nothing to judge), and with a TypeError for
 * a target or option that is not what it should be.
 */
export async function checkAgent(target: AgentTarget, options: AgentCheckOptions = {}): Promise<AgentCheckReport> {
  const context = contextOf(target, options);
  const results = new Results(AGENT_REQUIREMENTS);
  const { init, version, initMs } = await protocolGroup(context, results);
  if (context.later === true) {
    // The agent answered in the later v2 draft: its turns, versions and capabilities follow that
    // draft's rules, which LATER_GROUP judges on the raw wire; the pinned-shape rules do not apply.
    const why = "the agent speaks the later v2 draft (it refused the pinned v2 initialize and answered with info): judged by the LATER-* requirements";
    for (const group of PINNED_SHAPE_GROUPS) for (const id of group.judges) results.for(group).set(id, "not_applicable", why);
    await laterGroup(context, init, results);
  } else {
    laterNotApplicable(
      results,
      context.protocol === 2 ? "the agent answered in the pinned v2 draft or v1, not the later v2 draft" : "the check offered protocol v1",
    );
    await negotiationGroup(context, results);
    const setup = await turnGroup(context, version, results);
    await cancelGroup(context, results);
    await capabilityGroup(context, init, version, setup, results);
  }
  if (initMs > context.timeoutMs) noteSlowStart(results, context, initMs);
  const list = results.list();
  const named = isObject(init.agentInfo) ? init.agentInfo : isObject(init.info) ? init.info : undefined;
  const info = named ? { name: String(named.name), version: String(named.version) } : null;
  const { verdict, inconclusive } = verdictOf(list);
  return { verdict, inconclusive, conformant: verdict === "conformant", protocolVersion: version, agent: info, results: list };
}
