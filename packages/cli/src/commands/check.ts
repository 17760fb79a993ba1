// `acpkit check agent|client`: the command face of @acpkit/conformance (docs/conformance.md).
// Exit 0 conformant, 1 not conformant (or a new failure against --expected-failures), 2 the agent
// could not be started or initialized (or bad usage), 3 inconclusive.
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  AGENT_REQUIREMENTS,
  type AgentCheckReport,
  AgentUnavailable,
  BaselineError,
  CLIENT_REQUIREMENTS,
  type CheckResult,
  checkAgent,
  checkClient,
  type ClientCheckReport,
  compareWithBaseline,
  parseBaseline,
  type Requirement,
  type RequirementId,
  runClientPeerCommand,
  type Tier,
  toJUnit,
} from "@acpkit/conformance";
import { addressLabel, isWebSocketUrl } from "../address-label.js";
import { type ParsedArgs, flagInteger, flagSet, flagValue, parseArgs, UsageError } from "../args.js";
import { Exit, type CommandIO } from "../io.js";
import { writeJsonText } from "../json-output.js";

export const checkUsage = `usage: acpkit check agent [options] -- <agent command…>
       acpkit check agent [options] --url URL
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
  --dialect auto|later
                     with --protocol 2: auto (default) offers the pinned v2 draft and, if the
                     agent refuses it, the later draft; later offers only the later draft (an
                     agent that speaks both is then judged by the LATER-* requirements)
  --timeout MS       how long one answer may take (default 10000; a prompt gets 20×)
  --start-timeout MS how long a fresh agent's first answer (initialize) may take: real agents
                     take seconds to start (default 30000, or --timeout if longer)
  --prompt TEXT      the prompt of the turn and cancel checks (default "Hello")
  --auth METHOD_ID   authenticate with this method before creating sessions
  --url URL          check an agent behind a remote endpoint of ACP's transport RFD (acpkit
                     serve, or any): http(s):// drives its HTTP+SSE profile, ws(s):// its
                     WebSocket profile; a fresh connection per group
  --ws URL           check an agent served over a plain WebSocket (acpkit bridge)
  --token T          with --url or --ws: sent as Authorization: Bearer T

options (client):
  --protocol 1|2     the highest version the checking agent speaks (default 2)
  --timeout MS       how long one client run may take (default 20000)
  --slow MS          how long the slow scenario's prompt takes (default 12000)

options (both):
  --json             print the report: {verdict, inconclusive, conformant, protocolVersion,
                     agent|client, results: [{id, tier, status, message, transcript?}]}
                     (JSON Schema: @acpkit/conformance/report.schema.json)
  --junit FILE       also write the report as JUnit XML, one test case per requirement
  --expected-failures FILE
                     a baseline of requirement ids known to fail (one per line, # comments):
                     exit 1 only on a failure not in it, or on an id in it that now passes

exit codes: 0 conformant (every deciding requirement judged, none failed), 1 not conformant,
2 the agent could not be started or initialized, or bad usage, 3 inconclusive (none failed, but
one was never judged: blocked by authentication, or a scenario the client never reached),
130/143 interrupted. With --expected-failures: 0 when the failures are exactly the expected ones
(the verdict is still printed), 1 on a new failure or a stale baseline entry.`;

const TIERS: readonly Tier[] = ["MUST", "CAPABILITY", "SHOULD", "INFO"];
const MARK: Record<CheckResult["status"], string> = { pass: "✓", fail: "✗", skip: "–", not_tested: "·", not_applicable: "·" };

/** `acpkit __check-peer --scenario NAME --log FILE [--slow-ms MS]`: the scripted agent of `check client`. */
export function runCheckPeer(argv: readonly string[]): Promise<number> {
  return runClientPeerCommand(argv, process.stderr, "acpkit __check-peer");
}

/** The human report: results grouped by tier, then the one-line verdict. */
function printReport(io: CommandIO, title: string, report: AgentCheckReport | ClientCheckReport, requirements: readonly Requirement<string>[]): void {
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
  const failed = (tier: Tier) => report.results.filter((result) => result.tier === tier && result.status === "fail").length;
  const capabilities = failed("CAPABILITY");
  const failures = `${failed("MUST")} MUST${capabilities > 0 ? ` and ${capabilities} advertised CAPABILITY` : ""} requirement(s) failed`;
  const verdict =
    report.verdict === "inconclusive"
      ? out.yellow(`inconclusive: no MUST requirement failed, but some were never judged\n${report.inconclusive.map((reason) => `  ${reason}`).join("\n")}`)
      : report.conformant
        ? out.green("conformant: every MUST requirement holds")
        : out.red(`not conformant: ${failures}`);
  io.stdout.write(`\n${verdict}\n`);
}

/** Flags both sides share: the report's forms and the baseline. */
const REPORT_FLAGS = { json: {}, junit: { value: true }, "expected-failures": { value: true } } as const;

/** The baseline named by --expected-failures, read before the check runs (a bad file is a usage error, not a failed check). */
async function readExpectedFailures(args: ParsedArgs, io: CommandIO): Promise<RequirementId[] | undefined> {
  const file = flagValue(args, "expected-failures");
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), "utf8");
  } catch (error) {
    throw new UsageError(`--expected-failures ${file}: ${(error as Error).message}`);
  }
  try {
    return parseBaseline(text, file);
  } catch (error) {
    if (error instanceof BaselineError) throw new UsageError(error.message);
    throw error;
  }
}

/** Print the report (human or --json), write --junit, and turn verdict and baseline into the exit code. */
async function finish(
  report: AgentCheckReport | ClientCheckReport,
  args: ParsedArgs,
  io: CommandIO,
  title: string,
  requirements: readonly Requirement<string>[],
  expected: readonly RequirementId[] | undefined,
): Promise<number> {
  const junit = flagValue(args, "junit");
  if (junit !== undefined) await writeFile(resolve(io.cwd, junit), toJUnit(report));
  if (flagSet(args, "json")) await writeJsonText(report, io.stdout);
  else printReport(io, title, report, requirements);
  if (expected !== undefined) {
    const baseline = compareWithBaseline(report, expected);
    const say = (text: string) => (flagSet(args, "json") ? io.stderr : io.stdout).write(`${text}\n`);
    if (baseline.newFailures.length > 0) say(io.out.red(`new failures (not in the expected failures): ${baseline.newFailures.join(", ")}`));
    if (baseline.stale.length > 0) say(io.out.red(`stale expected failures (these pass now; remove them from the file): ${baseline.stale.join(", ")}`));
    if (baseline.ok) say(io.out.green(`as expected: ${baseline.expected.length} known failure(s), no new one`));
    if (!baseline.ok) return Exit.Failed;
    return report.verdict === "inconclusive" ? Exit.Inconclusive : Exit.Ok;
  }
  return report.verdict === "conformant" ? Exit.Ok : report.verdict === "inconclusive" ? Exit.Inconclusive : Exit.Failed;
}

async function checkClientCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, {
    ...REPORT_FLAGS,
    timeout: { value: true },
    slow: { value: true },
    protocol: { value: true, choices: ["1", "2"] },
  });
  if (args.positionals.length > 1) throw new UsageError(`unexpected argument "${args.positionals[1]}" (put the client command after --)`);
  if (args.rest.length === 0) throw new UsageError("no client: give the client command after --, with {agent} where the agent command goes");
  if (!args.rest.includes("{agent}"))
    throw new UsageError("the client command must contain the argument {agent}, which is replaced by the checking agent's command");
  const expected = await readExpectedFailures(args, io);
  const report = await checkClient(
    { argv: args.rest },
    {
      cwd: io.cwd,
      slowMs: flagInteger(args, "slow") ?? 12_000,
      timeoutMs: flagInteger(args, "timeout") ?? 20_000,
      maxProtocol: Number(flagValue(args, "protocol", "2")) as 1 | 2,
    },
  );
  const who = report.client ? `${report.client.name} ${report.client.version}` : args.rest.join(" ");
  const title = `acpkit check client — ${who}${report.protocolVersion ? ` · protocol v${report.protocolVersion}` : ""}`;
  return finish(report, args, io, title, CLIENT_REQUIREMENTS, expected);
}

/** `acpkit check agent|client`: exit 0 conformant, 1 not, 2 could not start or bad usage, 3 inconclusive. */
export async function checkCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  if (argv[0] === "client") return checkClientCommand(argv, io);
  const args = parseArgs(argv, {
    ...REPORT_FLAGS,
    protocol: { value: true, choices: ["1", "2"] },
    dialect: { value: true, choices: ["auto", "later"] },
    timeout: { value: true },
    prompt: { value: true },
    auth: { value: true },
    "start-timeout": { value: true },
    ws: { value: true },
    url: { value: true },
    token: { value: true },
  });
  const [target, ...extra] = args.positionals;
  if (target !== "agent")
    throw new UsageError(
      target === undefined ? "say what to check: acpkit check agent|client -- <command…>" : `acpkit check knows "agent" and "client" (got "${target}")`,
    );
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (put the agent command after --)`);
  const ws = flagValue(args, "ws");
  const remote = flagValue(args, "url");
  if (ws !== undefined && remote !== undefined) throw new UsageError("give either --url or --ws, not both");
  const url = remote ?? ws;
  const token = flagValue(args, "token");
  const flag = remote !== undefined ? "--url" : "--ws";
  if (url !== undefined && args.rest.length > 0) throw new UsageError(`give either ${flag} URL or an agent command after --, not both`);
  if (ws !== undefined && !isWebSocketUrl(ws)) throw new UsageError(`--ws must be a ws:// or wss:// URL (got "${addressLabel(ws)}")`);
  if (remote !== undefined && !/^(https?|wss?):\/\//i.test(remote))
    throw new UsageError(`--url must be an http(s):// or ws(s):// URL (got "${addressLabel(remote)}")`);
  if (token !== undefined && url === undefined) throw new UsageError("--token only applies with --url or --ws");
  const [command, ...commandArgs] = args.rest;
  if (command === undefined && url === undefined) throw new UsageError("no agent: give the agent command after -- (or --url URL)");
  const expected = await readExpectedFailures(args, io);
  const auth = flagValue(args, "auth");
  const startTimeoutMs = flagInteger(args, "start-timeout");
  const protocol = Number(flagValue(args, "protocol", "1")) as 1 | 2;
  const dialect = flagValue(args, "dialect", "auto") as "auto" | "later";
  if (dialect === "later" && protocol !== 2) throw new UsageError("--dialect later needs --protocol 2");
  let report: AgentCheckReport;
  try {
    report = await checkAgent(url === undefined ? { command: command!, args: commandArgs, cwd: io.cwd } : token === undefined ? { url } : { url, token }, {
      cwd: io.cwd,
      protocol,
      v2Dialect: dialect,
      timeoutMs: flagInteger(args, "timeout") ?? 10_000,
      ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
      prompt: flagValue(args, "prompt", "Hello"),
      ...(auth === undefined ? {} : { auth }),
    });
  } catch (error) {
    if (!(error instanceof AgentUnavailable)) throw error;
    io.stderr.write(io.err.red(`acpkit check: ${error.message}`) + "\n");
    return Exit.Usage;
  }
  // Over WebSocket the URL is the agent's name in the report; a token in it stays out of the report.
  const who = report.agent ? `${report.agent.name} ${report.agent.version}` : url === undefined ? args.rest.join(" ") : addressLabel(url);
  return finish(report, args, io, `acpkit check agent — ${who} · protocol v${report.protocolVersion}`, AGENT_REQUIREMENTS, expected);
}
