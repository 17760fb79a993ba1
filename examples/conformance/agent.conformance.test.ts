// Checking your agent from your own test suite with @acpkit/conformance: in-process (no child
// process, no stdio), the whole requirement table or only the ids you choose. Run: pnpm test.
import { serveAgent } from "@acpkit/agent";
import { type AgentRequirementId, AGENT_REQUIREMENTS, checkAgent } from "@acpkit/conformance";
import { createMemoryPair } from "@acpkit/transport-memory";
import { describe, expect, it } from "vitest";
import { echoAgent } from "./echo-agent.mjs";

/** A fresh in-process connection to the agent, one per group of checks. */
const target = {
  transport: () => {
    const [client, agent] = createMemoryPair();
    serveAgent(agent, echoAgent);
    return client;
  },
};

describe("echo-agent conformance", () => {
  it("is conformant over v1 and v2", async () => {
    for (const protocol of [1, 2] as const) {
      const report = await checkAgent(target, { protocol });
      // On failure, the message names each requirement with what the checker saw.
      expect(report.results.filter((result) => result.status === "fail").map((result) => `${result.id}: ${result.message}`)).toEqual([]);
      expect(report.verdict).toBe("conformant");
    }
  });

  // Gate on the ids you care about: every MUST about the prompt turn and cancelling it.
  const gated: AgentRequirementId[] = ["ACP-PROMPT-001", "ACP-CANCEL-001", "ACPKIT-ORDER-001", "ACPKIT-UPDATE-001"];
  it("passes the turn requirements it is gated on", async () => {
    const report = await checkAgent(target);
    for (const id of gated) expect(report.results.find((result) => result.id === id)?.status, id).toBe("pass");
    // The registry is typed data: list what the gate leaves out.
    const others = AGENT_REQUIREMENTS.filter((requirement) => requirement.tier === "MUST" && !gated.includes(requirement.id));
    expect(others.length).toBeGreaterThan(0);
  });
});
