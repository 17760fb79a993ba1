// `acpkit demo [--protocol 1|2]`: what `pnpm demo` runs. Starts the built-in agent (`acpkit agent`)
// as a real child process over stdio and plays one full prompt turn, printed as it streams: plan,
// thought, a tool call that asks permission (answered automatically), a file read through the
// client (v1 only: pinned v2 has no client file system), the streamed answer, usage, stop reason.
// Without --protocol it runs v1, then v2.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { flagValue, parseArgs, UsageError } from "../args.js";
import { Exit, type CommandIO } from "../io.js";
import { TurnPrinter } from "../render/turn-printer.js";
import { driveAgent } from "../client-session/drive.js";
import { listPrompts } from "../client-session/prompt-source.js";

export const demoUsage = `usage: acpkit demo [--protocol 1|2]

Runs one full prompt turn against the built-in agent (a child process over stdio) and prints it
as it streams. Without --protocol it runs protocol v1, then v2. The permission request is
answered "allow" automatically; on v1 the agent reads a file through the client, from a
temporary directory that is removed afterwards.`;

/**
 * The built-in agent has no model behind it: the plan, the thought, the answer and the usage line
 * (tokens and cost) are scripted. The demo says so, so nobody mistakes them for measurements.
 */
export const DEMO_SIMULATED_NOTE =
  "The built-in agent is scripted: its plan, thought, answer and usage figures (tokens, cost) are simulated; the protocol traffic is real.";

/** What to try after the demo: the same client against your own agent. */
export const DEMO_NEXT_STEP = "Next: run a turn against your own agent with  npx @acpkit/cli run -- <your agent command>";

/** What the demo asks the built-in agent. */
export const DEMO_PROMPT = "Say hello to the world";

/** The file the built-in agent's demo turn reads through the client (its DEMO_READ_FILE). */
const DEMO_FILE = { name: "README.md", text: "# demo project\n\nA scratch directory made by `acpkit demo`.\n" };

/** The built-in agent is this very binary: `node dist/bin.js agent`. */
function builtInAgentCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: [fileURLToPath(new URL("../bin.js", import.meta.url)), "agent"] };
}

/** `acpkit demo`: one demo turn per protocol version against the built-in agent; exit 1 if any run failed. */
export async function demoCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { protocol: { value: true, choices: ["1", "2"] } });
  if (args.positionals.length > 0 || args.rest.length > 0) throw new UsageError("demo takes no arguments besides --protocol");
  const protocolFlag = flagValue(args, "protocol");
  const versions: (1 | 2)[] = protocolFlag === undefined ? [1, 2] : [Number(protocolFlag) as 1 | 2];

  const workspace = await mkdtemp(join(tmpdir(), "acpkit-demo-"));
  try {
    await writeFile(join(workspace, DEMO_FILE.name), DEMO_FILE.text);
    const agent = builtInAgentCommand();
    const summary: string[] = [];
    let failed = false;
    for (const [index, version] of versions.entries()) {
      if (index > 0) io.stdout.write("\n");
      const printer = new TurnPrinter(io.stdout, io.out);
      printer.heading(`━━ acpkit demo · offering protocol v${version} ━━`);
      const result = await driveAgent({
        target: { kind: "command", command: agent.command, args: agent.args },
        protocol: version,
        cwd: workspace,
        fs: "read",
        permission: "allow",
        prompts: listPrompts([DEMO_PROMPT]),
        printer,
        io,
        name: "acpkit demo",
      });
      if (result.failures.length > 0) failed = true;
      const negotiated = result.protocolVersion === undefined ? "no connection" : `negotiated v${result.protocolVersion}`;
      summary.push(`offered v${version} → ${negotiated}, ${result.stopReasons.join(", ") || "no stop reason"}`);
    }
    io.stdout.write("\n" + io.out.bold("summary") + "\n" + summary.map((line) => `  ${line}`).join("\n") + "\n");
    io.stdout.write(`\n${io.out.dim(DEMO_SIMULATED_NOTE)}\n${DEMO_NEXT_STEP}\n`);
    return failed ? Exit.Failed : Exit.Ok;
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
