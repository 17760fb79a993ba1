// checkClient: runs the client under test once per scenario with the scripted checking agent
// (peer.ts) behind it, then judges what the agent's log shows the client did (judges.ts). Each
// requirement: pass, fail (with the wire lines), skip (why), not_tested or not_applicable.
import { type ClientCheckReport, verdictOf } from "../report.js";
import { CLIENT_REQUIREMENTS } from "../requirements.js";
import { Results } from "../results.js";
import { judgeAgentExit, judgeBasic, judgeCancel, judgeLowerVersion, judgeSlow } from "./judges.js";
import type { ClientScenario } from "./peer.js";
import { type Run, runCommandScenario, runInProcessScenario, withScratch } from "./runs.js";
import { type ClientCheckOptions, clientContextOf, type ClientTarget } from "./target.js";

/**
 * Check a client against every client requirement: five scenarios (basic, lower-version, cancel,
 * slow, agent-exit), a fresh run of the client each. Rejects with a TypeError for a target or
 * option that is not what it should be.
 */
export async function checkClient(target: ClientTarget, options: ClientCheckOptions = {}): Promise<ClientCheckReport> {
  const context = clientContextOf(target, options);
  const results = new Results(CLIENT_REQUIREMENTS);
  const checked = context.target;
  // A client command's checking agent logs to a file in a scratch folder; an in-process one keeps its log in memory.
  const scenarios = async (dir: string | undefined): Promise<ClientCheckReport> => {
    const run = (scenario: ClientScenario): Promise<Run> =>
      "argv" in checked ? runCommandScenario(context, checked, scenario, dir!) : runInProcessScenario(context, checked, scenario);
    const { version, client } = judgeBasic(await run("basic"), results, context.maxProtocol);
    judgeLowerVersion(await run("lower-version"), results);
    judgeCancel(await run("cancel"), results);
    judgeSlow(await run("slow"), results, context.slowMs);
    judgeAgentExit(await run("agent-exit"), results);
    const list = results.list();
    const { verdict, inconclusive } = verdictOf(list);
    return { verdict, inconclusive, conformant: verdict === "conformant", protocolVersion: version, client, results: list };
  };
  return "argv" in checked ? withScratch(scenarios) : scenarios(undefined);
}
