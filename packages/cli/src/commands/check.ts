// `acpkit check agent [--protocol 1|2] [--json] [--timeout MS] [--prompt TEXT] [--auth ID] -- <agent command…>`:
// the conformance kit for agents (docs/conformance.md). Exit 0 conformant, 1 not, 2 the agent
// could not be started or initialized (or bad usage).
import { addressLabel, isWebSocketUrl } from "../address-label.js";
import { flagInteger, flagSet, flagValue, parseArgs, UsageError } from "../args.js";
import { AgentUnavailable, type CheckResult, checkAgent } from "../check/agent-check.js";
import { checkClient } from "../check/client-check.js";
import { CLIENT_SCENARIOS, type ClientScenario, runClientPeer } from "../check/client-peer.js";
import { AGENT_REQUIREMENTS, CLIENT_REQUIREMENTS, type Requirement, type Tier } from "../check/requirements.js";
import { Exit, type CommandIO } from "../io.js";
import { writeJsonText } from "../json-output.js";

export const checkUsage = `usage: acpkit check agent [options] -- <agent command…>
       acpkit check agent [options] --ws URL
       acpkit check client [options] -- <client command with {agent}…>

Checks an agent or a client against the protocol's requirements (docs/conformance.md) and judges
each one pass, fail (with the wire evidence), skip (with why) or not_tested.

check agent starts the agent (a fresh process per group of checks) and drives it with a minimal
raw client that records every byte. check client runs the client command once per scenario, with
the argument {agent} replaced by the command that starts acpkit's scripted checking agent, e.g.
  acpkit check client -- acpkit run --prompt hi --cancel-after 300 -- {agent}

options (agent):
  --protocol 1|2     the version to offer (default 1)
  --timeout MS       how long one answer may take (default 10000; a prompt gets 20×)
  --start-timeout MS how long a fresh agent's first answer (initialize) may take: real agents
                     take seconds to start (default 30000, or --timeout if longer)
  --prompt TEXT      the prompt of the turn and cancel checks (default "Hello")
  --auth METHOD_ID   authenticate with this method before creating sessions
  --ws URL           check an agent served over WebSocket (a fresh connection per group)
  --token T          with --ws: sent as Authorization: Bearer T
  --json             print {verdict, inconclusive, conformant, protocolVersion, agent,
                     results: [{id, tier, status, message, transcript?}]}

options (client):
  --protocol 1|2     the highest version the checking agent speaks (default 2)
  --timeout MS       how long one client run may take (default 20000)
  --slow MS          how long the slow scenario's prompt takes (default 12000)
  --json             print {conformant, protocolVersion, client, results: [...]}

exit codes (agent): 0 conformant (every MUST judged, none failed), 1 not conformant, 2 the agent
could not be started or initialized, or bad usage, 3 inconclusive (no MUST failed, but one was
never judged: blocked by authentication, for instance), 130/143 interrupted.
exit codes (client): 0 conformant (no MUST failed), 1 not conformant, 2 bad usage.`;

const TIERS: readonly Tier[] = ["MUST", "CAPABILITY", "SHOULD", "INFO"];
const MARK: Record<CheckResult["status"], string> = { pass: "✓", fail: "✗", skip: "–", not_tested: "·" };

/** `acpkit __check-peer --scenario NAME --log FILE [--slow-ms MS]`: the scripted agent of `check client`. */
export async function runCheckPeer(argv: readonly string[]): Promise<number> {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const scenario = value("--scenario") as ClientScenario | undefined;
  const log = value("--log");
  if (!scenario || !CLIENT_SCENARIOS.includes(scenario) || !log) {
    process.stderr.write(`acpkit __check-peer: needs --scenario (${CLIENT_SCENARIOS.join(", ")}) and --log FILE\n`);
    return Exit.Usage;
  }
  await runClientPeer(scenario, log, Number(value("--slow-ms") ?? 12_000), value("--max-protocol") === "1" ? 1 : 2);
  return Exit.Ok;
}

/** The human report: results grouped by tier, then the one-line verdict. */
function printReport(
  io: CommandIO,
  title: string,
  report: { conformant: boolean; verdict?: string; inconclusive?: string[]; results: CheckResult[] },
  requirements: readonly Requirement[],
): void {
  const { out } = io;
  io.stdout.write(out.bold(title) + "\n");
  for (const tier of TIERS) {
    io.stdout.write(`\n${out.bold(tier)}\n`);
    for (const result of report.results.filter((candidate) => candidate.tier === tier)) {
      const text = requirements.find((requirement) => requirement.id === result.id)!.text;
      const mark = result.status === "pass" ? out.green(MARK.pass) : result.status === "fail" ? out.red(MARK.fail) : out.dim(MARK[result.status]);
      io.stdout.write(`${mark} ${result.id} ${out.dim(text)}\n    ${result.status}: ${result.message}\n`);
      for (const line of result.transcript ?? []) io.stdout.write(out.dim(`      ${line.slice(0, 200)}`) + "\n");
    }
  }
  const failed = report.results.filter((result) => result.tier === "MUST" && result.status === "fail").length;
  const verdict =
    report.verdict === "inconclusive"
      ? out.yellow(
          `inconclusive: no MUST requirement failed, but some were never judged\n${(report.inconclusive ?? []).map((reason) => `  ${reason}`).join("\n")}`,
        )
      : report.conformant
        ? out.green("conformant: every MUST requirement holds")
        : out.red(`not conformant: ${failed} MUST requirement(s) failed`);
  io.stdout.write(`\n${verdict}\n`);
}

async function checkClientCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { json: {}, timeout: { value: true }, slow: { value: true }, protocol: { value: true, choices: ["1", "2"] } });
  if (args.positionals.length > 1) throw new UsageError(`unexpected argument "${args.positionals[1]}" (put the client command after --)`);
  if (args.rest.length === 0) throw new UsageError("no client: give the client command after --, with {agent} where the agent command goes");
  if (!args.rest.includes("{agent}"))
    throw new UsageError("the client command must contain the argument {agent}, which is replaced by the checking agent's command");
  const report = await checkClient({
    argv: args.rest,
    cwd: io.cwd,
    slowMs: flagInteger(args, "slow") ?? 12_000,
    timeoutMs: flagInteger(args, "timeout") ?? 20_000,
    maxProtocol: Number(flagValue(args, "protocol", "2")) as 1 | 2,
  });
  if (flagSet(args, "json")) await writeJsonText(report, io.stdout);
  else {
    const who = report.client ? `${report.client.name} ${report.client.version}` : args.rest.join(" ");
    printReport(io, `acpkit check client — ${who}${report.protocolVersion ? ` · protocol v${report.protocolVersion}` : ""}`, report, CLIENT_REQUIREMENTS);
  }
  return report.conformant ? Exit.Ok : Exit.Failed;
}

/** `acpkit check agent|client`: exit 0 conformant, 1 not, 2 could not start or bad usage. */
export async function checkCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  if (argv[0] === "client") return checkClientCommand(argv, io);
  const args = parseArgs(argv, {
    protocol: { value: true, choices: ["1", "2"] },
    json: {},
    timeout: { value: true },
    prompt: { value: true },
    auth: { value: true },
    "start-timeout": { value: true },
    ws: { value: true },
    token: { value: true },
  });
  const [target, ...extra] = args.positionals;
  if (target !== "agent")
    throw new UsageError(
      target === undefined ? "say what to check: acpkit check agent|client -- <command…>" : `acpkit check knows "agent" and "client" (got "${target}")`,
    );
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (put the agent command after --)`);
  const url = flagValue(args, "ws");
  const token = flagValue(args, "token");
  if (url !== undefined && args.rest.length > 0) throw new UsageError("give either --ws URL or an agent command after --, not both");
  if (url !== undefined && !isWebSocketUrl(url)) throw new UsageError(`--ws must be a ws:// or wss:// URL (got "${addressLabel(url)}")`);
  if (token !== undefined && url === undefined) throw new UsageError("--token only applies with --ws");
  // Over WebSocket the URL is the agent's name in the report; a token in it stays out of the report.
  const [command = url === undefined ? undefined : addressLabel(url), ...commandArgs] = args.rest;
  if (command === undefined) throw new UsageError("no agent: give the agent command after -- (or --ws URL)");
  const auth = flagValue(args, "auth");
  let report: Awaited<ReturnType<typeof checkAgent>>;
  try {
    report = await checkAgent({
      command,
      args: commandArgs,
      cwd: io.cwd,
      protocol: Number(flagValue(args, "protocol", "1")) as 1 | 2,
      timeoutMs: flagInteger(args, "timeout") ?? 10_000,
      ...(flagInteger(args, "start-timeout") === undefined ? {} : { startTimeoutMs: flagInteger(args, "start-timeout")! }),
      prompt: flagValue(args, "prompt", "Hello"),
      ...(auth === undefined ? {} : { auth }),
      ...(url === undefined ? {} : { ws: token === undefined ? { url } : { url, token } }),
    });
  } catch (error) {
    if (!(error instanceof AgentUnavailable)) throw error;
    io.stderr.write(io.err.red(`acpkit check: ${error.message}`) + "\n");
    return Exit.Usage;
  }
  if (flagSet(args, "json")) await writeJsonText(report, io.stdout);
  else {
    const who = report.agent ? `${report.agent.name} ${report.agent.version}` : [command, ...commandArgs].join(" ");
    printReport(io, `acpkit check agent — ${who} · protocol v${report.protocolVersion}`, report, AGENT_REQUIREMENTS);
  }
  return report.verdict === "conformant" ? Exit.Ok : report.verdict === "inconclusive" ? Exit.Inconclusive : Exit.Failed;
}
