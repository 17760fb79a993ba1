// `acpkit inspect [--port N] [--no-open] [--protocol 1|2] -- <agent command…>`: the web inspector
// (@acpkit/inspector) for an agent; `--tap` makes it a transparent stdio proxy between an editor
// and the agent that shows the traffic read-only. Prints one line
// `inspector: http://127.0.0.1:PORT/?token=TOKEN` (on stderr in tap mode: stdout is the protocol).
import { openBrowser, startInspector, startTap } from "@acpkit/inspector";
import { flagSet, flagValue, parseArgs, UsageError } from "../args.js";
import { Exit, type CommandIO } from "../io.js";
import { bridgeToken, stopRequested } from "./bridge.js";

export const inspectUsage = `usage: acpkit inspect [--port N] [--no-open] [--protocol 1|2] -- <agent command…>
       acpkit inspect [--port N] [--no-open] [--protocol 1|2] --url URL [--agent-token-file F]
       acpkit inspect --tap [--port N] [--no-open] -- <agent command…>

Starts the agent and a web page on 127.0.0.1 to drive it: initialize, sessions, modes and config,
prompts with attachments, the turn live (messages, tool calls, diffs, plans, permission and
elicitation cards, Cancel), every JSON-RPC message checked against the schema, transcripts to
export (the ndjson "acpkit validate" reads) and import. Each page connection starts the agent anew;
with --url, it opens a new connection to the remote endpoint at URL instead (http(s):// for its
HTTP+SSE profile, ws(s):// for its WebSocket profile; --agent-token-file holds its bearer token).

With --tap, this command is the agent for an editor (put it in the editor's agent settings): it
relays every byte between the editor and the agent unchanged and shows the traffic in the page,
read-only. Its line goes to stderr; it exits with the agent's exit code.

  --port N          port to listen on (default: a free one)
  --no-open         print the URL but do not open a browser
  --protocol 1|2    the protocol version the page starts with (default 2)
  --host H          listen on H instead of 127.0.0.1; needs --token-file
  --token-file F    the token (first line of F) instead of a random one

The page needs the token in its URL: API requests and WebSocket upgrades without it get 401, and
requests whose Host is not the inspector's address or whose Origin is a foreign page get 403.
Stop with Ctrl-C.`;

export async function inspectCommand(argv: readonly string[], io: CommandIO, until: Promise<unknown> = stopRequested()): Promise<number> {
  const args = parseArgs(argv, {
    port: { value: true },
    "no-open": {},
    protocol: { value: true, choices: ["1", "2"] },
    tap: {},
    host: { value: true },
    "token-file": { value: true },
    url: { value: true },
    "agent-token-file": { value: true },
  });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}" (put the agent command after --)`);
  const [command, ...commandArgs] = args.rest;
  const url = flagValue(args, "url");
  if (url !== undefined && command !== undefined) throw new UsageError("give either --url URL or an agent command after --, not both");
  if (url !== undefined && !/^(https?|wss?):\/\//i.test(url))
    throw new UsageError(`--url must be an http(s):// or ws(s):// URL (got "${url.replace(/[?#].*$/s, "")}")`);
  if (url !== undefined && flagSet(args, "tap")) throw new UsageError("--tap relays an agent command's stdio; it cannot take --url");
  if (command === undefined && url === undefined)
    throw new UsageError("no agent: give the agent command after --, e.g. acpkit inspect -- acpkit agent (or --url URL)");
  const agentTokenFile = flagValue(args, "agent-token-file");
  if (agentTokenFile !== undefined && url === undefined) throw new UsageError("--agent-token-file only applies with --url");
  const agentToken = agentTokenFile === undefined ? undefined : await bridgeToken(undefined, agentTokenFile, {});
  const portFlag = flagValue(args, "port", "0");
  const port = Number(portFlag);
  if (!/^\d+$/.test(portFlag) || port > 65535) throw new UsageError(`--port must be 0-65535 (got "${portFlag}")`);
  const host = flagValue(args, "host");
  const tokenFile = flagValue(args, "token-file");
  if (host !== undefined && tokenFile === undefined) throw new UsageError("--host needs --token-file: a page reachable from elsewhere needs a token you chose");
  const token = tokenFile === undefined ? undefined : await bridgeToken(undefined, tokenFile, {});
  const tap = flagSet(args, "tap");
  const log = (message: string) => io.stderr.write(io.err.dim(`acpkit inspect: ${message}`) + "\n");
  const options = {
    ...(url === undefined ? { command: command as string, args: commandArgs } : { url, ...(agentToken === undefined ? {} : { agentToken }) }),
    port,
    log,
    ...(host === undefined ? {} : { host }),
    ...(token === undefined ? {} : { token }),
    protocolVersion: flagValue(args, "protocol", "2") === "1" ? (1 as const) : (2 as const),
  };

  let inspector: Awaited<ReturnType<typeof startInspector>>;
  let tapped: Awaited<ReturnType<typeof startTap>> | undefined;
  try {
    if (tap) {
      tapped = await startTap({ ...options, command: command as string, input: io.stdin, output: io.stdout });
      inspector = tapped;
    } else {
      inspector = await startInspector(options);
    }
  } catch (error) {
    io.stderr.write(io.err.red(`acpkit inspect: ${(error as Error).message}`) + "\n");
    return Exit.Failed;
  }
  // In tap mode stdout carries the editor's protocol: the line must not go there.
  (tap ? io.stderr : io.stdout).write(`inspector: ${inspector.url}\n`);
  if (!flagSet(args, "no-open")) openBrowser(inspector.url, log);

  if (tapped !== undefined) {
    const ended = await Promise.race([tapped.agentExit, until.then(() => undefined)]);
    await tapped.close();
    if (ended === undefined) return Exit.Ok;
    if (ended.error !== undefined) return Exit.Failed;
    return ended.code ?? Exit.Failed;
  }
  await until;
  log("shutting down");
  await inspector.close();
  return Exit.Ok;
}
