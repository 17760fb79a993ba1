// `acpkit check agent [--protocol 1|2] [--json] [--timeout MS] [--prompt TEXT] [--auth ID] -- <agent command…>`:
// the conformance kit for agents (docs/conformance.md). Exit 0 conformant, 1 not, 2 the agent
// could not be started or initialized (or bad usage).
import { flagInteger, flagSet, flagValue, parseArgs, UsageError } from "../args.js";
import { AgentUnavailable, type CheckResult, checkAgent } from "../check/agent-check.js";
import { AGENT_REQUIREMENTS, type Tier } from "../check/requirements.js";
import { Exit, type CommandIO } from "../io.js";
import { toJsonText } from "../json-output.js";

export const checkUsage = `usage: acpkit check agent [options] -- <agent command…>

Checks an agent against the protocol's requirements (docs/conformance.md): starts it (a fresh
process per group of checks), drives it with a minimal raw client that records every byte, and
judges each requirement pass, fail (with the wire evidence), skip (with why) or not_tested.

options:
  --protocol 1|2     the version to offer (default 1)
  --timeout MS       how long one answer may take (default 10000; a prompt gets 20×)
  --prompt TEXT      the prompt of the turn and cancel checks (default "Hello")
  --auth METHOD_ID   authenticate with this method before creating sessions
  --json             print {conformant, protocolVersion, agent, results: [{id, tier, status, message, transcript?}]}

exit codes: 0 conformant (no MUST failed), 1 not conformant, 2 the agent could not be started
or initialized, or bad usage.`;

const TIERS: readonly Tier[] = ["MUST", "CAPABILITY", "SHOULD", "INFO"];
const MARK: Record<CheckResult["status"], string> = { pass: "✓", fail: "✗", skip: "–", not_tested: "·" };

export async function checkCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, {
    protocol: { value: true, choices: ["1", "2"] },
    json: {},
    timeout: { value: true },
    prompt: { value: true },
    auth: { value: true },
  });
  const [target, ...extra] = args.positionals;
  if (target !== "agent")
    throw new UsageError(target === undefined ? "say what to check: acpkit check agent -- <agent command…>" : `acpkit check knows "agent" (got "${target}")`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (put the agent command after --)`);
  const [command, ...commandArgs] = args.rest;
  if (command === undefined) throw new UsageError("no agent: give the agent command after --");
  const timeoutMs = flagInteger(args, "timeout") ?? 10_000;
  const auth = flagValue(args, "auth");
  let report: Awaited<ReturnType<typeof checkAgent>>;
  try {
    report = await checkAgent({
      command,
      args: commandArgs,
      cwd: io.cwd,
      protocol: Number(flagValue(args, "protocol", "1")) as 1 | 2,
      timeoutMs,
      prompt: flagValue(args, "prompt", "Hello"),
      ...(auth === undefined ? {} : { auth }),
    });
  } catch (error) {
    if (!(error instanceof AgentUnavailable)) throw error;
    io.stderr.write(io.err.red(`acpkit check: ${error.message}`) + "\n");
    return Exit.Usage;
  }
  if (flagSet(args, "json")) {
    io.stdout.write(toJsonText(report) + "\n");
  } else {
    const { out } = io;
    io.stdout.write(
      out.bold(
        `acpkit check agent — ${report.agent ? `${report.agent.name} ${report.agent.version}` : [command, ...commandArgs].join(" ")} · protocol v${report.protocolVersion}`,
      ) + "\n",
    );
    for (const tier of TIERS) {
      const inTier = report.results.filter((result) => result.tier === tier);
      io.stdout.write(`\n${out.bold(tier)}\n`);
      for (const result of inTier) {
        const text = AGENT_REQUIREMENTS.find((requirement) => requirement.id === result.id)!.text;
        const mark = result.status === "pass" ? out.green(MARK.pass) : result.status === "fail" ? out.red(MARK.fail) : out.dim(MARK[result.status]);
        io.stdout.write(`${mark} ${result.id} ${out.dim(text)}\n    ${result.status}: ${result.message}\n`);
        for (const line of result.transcript ?? []) io.stdout.write(out.dim(`      ${line.slice(0, 200)}`) + "\n");
      }
    }
    const failed = report.results.filter((result) => result.tier === "MUST" && result.status === "fail").length;
    io.stdout.write(
      `\n${report.conformant ? out.green("conformant: every MUST requirement holds") : out.red(`not conformant: ${failed} MUST requirement(s) failed`)}\n`,
    );
  }
  return report.conformant ? Exit.Ok : Exit.Failed;
}
