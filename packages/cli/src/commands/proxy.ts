// `acpkit proxy [--protocol 1|2] [--dialect auto|pinned|later] [--editor-protocol 1|2|both] -- <agent command…>`:
// an editor starts this instead of the agent. It starts the agent, reaches it in the dialect the
// agent speaks, and serves the editor on stdin/stdout in the dialect the editor speaks
// (../proxy/proxy-agent.ts): a v1 editor in front of a later-v2 agent, or the reverse.
import { NdjsonStreamTransport, spawnAgent, stdioServer } from "@acpkit/transport-stdio";
import { flagValue, parseArgs, UsageError } from "../args.js";
import { Exit, type CommandIO } from "../io.js";
import { proxyAgent, type AgentProxy } from "../proxy/proxy-agent.js";

export const proxyUsage = `usage: acpkit proxy [--protocol 1|2] [--dialect auto|pinned|later] [--editor-protocol 1|2|both] -- <agent command…>

Starts the agent command and serves it on stdin/stdout, translating between the dialect the
editor speaks and the one the agent speaks (v1, acpkit's pinned v2, or the later v2 draft of
@agentclientprotocol/sdk 2.4). Put it where the editor expects the agent, for example to drive an
agent that speaks only the later v2 draft from a v1 editor.
  --protocol         the highest version offered to the agent (default 2, which falls back to 1)
  --dialect          with --protocol 2, the v2 draft offered first (default auto: pinned, then later)
  --editor-protocol  the versions served to the editor (default both)
What a side cannot carry is reported on stderr (lossy_<code>). Exit 0 when the editor closed the
connection, 1 when the agent could not be reached or failed.`;

export async function proxyCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, {
    protocol: { value: true, choices: ["1", "2"] },
    dialect: { value: true, choices: ["auto", "pinned", "later"] },
    "editor-protocol": { value: true, choices: ["1", "2", "both"] },
  });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}" (put the agent command after --)`);
  const [command, ...commandArgs] = args.rest;
  if (command === undefined) throw new UsageError("no agent: give the agent command after --");
  const protocol = Number(flagValue(args, "protocol", "2")) as 1 | 2;
  const dialect = flagValue(args, "dialect", "auto") as "auto" | "pinned" | "later";
  if (protocol === 1 && dialect !== "auto") throw new UsageError("--dialect chooses a v2 draft; it needs --protocol 2");
  const editorFlag = flagValue(args, "editor-protocol", "both");
  const editorVersions: (1 | 2)[] = editorFlag === "both" ? [1, 2] : [Number(editorFlag) as 1 | 2];

  const note = (text: string) => io.stderr.write(io.err.dim(`acpkit proxy: ${text}`) + "\n");
  // The agent's stderr is the user's to read: passed through as it is.
  const agentTransport = spawnAgent(command, commandArgs, { stderr: "inherit" });
  // The real process stdio gets stdioServer() (console.log moved to stderr); other streams (tests) the same transport over them.
  const editor = io.stdin === process.stdin && io.stdout === process.stdout ? stdioServer() : new NdjsonStreamTransport(io.stdin, io.stdout);
  let proxy: AgentProxy;
  try {
    proxy = await proxyAgent(editor, agentTransport, {
      agentProtocol: protocol,
      agentDialect: dialect,
      editorVersions,
      onDiagnostic: (diagnostic) => io.stderr.write(io.err.yellow(`acpkit proxy: [${diagnostic.side}] ${diagnostic.code}: ${diagnostic.message}`) + "\n"),
    });
  } catch (error) {
    io.stderr.write(io.err.red(`acpkit proxy: could not reach the agent "${[command, ...commandArgs].join(" ")}": ${(error as Error).message}`) + "\n");
    await agentTransport.close().catch(() => {});
    await editor.close().catch(() => {});
    return Exit.Failed;
  }
  const info = proxy.agent.agentInfo;
  note(
    `agent ${info ? `${info.name} ${info.version}` : command} speaks ${proxy.agent.dialect}; serving the editor ${editorVersions.map((v) => `v${v}`).join(" and ")}`,
  );
  const [editorClosed, agentClosed] = [proxy.server.closed, proxy.agent.closed];
  const first = await Promise.race([
    editorClosed.then((info) => ({ side: "editor" as const, info })),
    agentClosed.then((info) => ({ side: "agent" as const, info })),
  ]);
  await proxy.close();
  if (first.side === "agent") {
    io.stderr.write(io.err.red(`acpkit proxy: the agent went away: ${first.info.reason}`) + "\n");
    return Exit.Failed;
  }
  return first.info.error === undefined ? Exit.Ok : Exit.Failed;
}
