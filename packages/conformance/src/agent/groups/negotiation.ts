// Group "negotiation": an offer of a version no agent speaks is answered with a version the agent
// does speak, not an error and not an echo (docs/protocol.md N3).
import { isJsonObject as isObject } from "@acpkit/core";
import type { AgentRequirementId } from "../../requirements.js";
import type { CheckGroup, Results } from "../../results.js";
import { connect, evidence, initializeParams } from "../session-steps.js";
import type { CheckContext } from "../target.js";
import { checkWire, WIRE_GROUP } from "./wire.js";

export const NEGOTIATION_GROUP = { name: "negotiation", judges: ["ACPKIT-INIT-002"] } as const satisfies CheckGroup<AgentRequirementId>;

export async function negotiationGroup(context: CheckContext, all: Results<AgentRequirementId>): Promise<void> {
  const results = all.for(NEGOTIATION_GROUP);
  const agent = await connect(context);
  try {
    if (await agent.spawnError) return;
    const answer = await agent.request("init-future", "initialize", initializeParams(context.protocol, 65535), context.startTimeoutMs);
    const version = isObject(answer?.result) ? answer.result.protocolVersion : undefined;
    if (!answer) results.set("ACPKIT-INIT-002", "fail", "no answer to initialize with protocolVersion 65535", evidence(agent));
    else if (isObject(answer.error))
      results.set(
        "ACPKIT-INIT-002",
        "fail",
        `a version mismatch was answered with error ${answer.error.code}; it must be answered with the latest supported version`,
        evidence(agent),
      );
    else if (version === 65535) results.set("ACPKIT-INIT-002", "fail", "the agent echoed protocolVersion 65535, which no agent speaks", evidence(agent));
    else results.pass("ACPKIT-INIT-002", `answered ${JSON.stringify(version)}`);
    checkWire(agent, all.for(WIRE_GROUP));
  } finally {
    await agent.kill();
  }
}
