// `acpkit run [options] -- <agent command…>` (or `--ws URL`): a client for any ACP agent.
// Runs one session with one turn per prompt and prints the turns as they stream, or with
// --json only the final SessionState JSON.
import { isAbsolute, resolve } from "node:path";
import { stat } from "node:fs/promises";
import { addressLabel, isWebSocketUrl } from "../address-label.js";
import { flagInteger, flagSet, flagValue, parseArgs, UsageError, type ParsedArgs } from "../args.js";
import { Exit, type CommandIO } from "../io.js";
import { TurnPrinter } from "../render/turn-printer.js";
import type { AgentTarget } from "../client-session/agent-target.js";
import { FS_MODES, type FsMode } from "../client-session/confined-fs.js";
import { driveAgent, type DriveResult } from "../client-session/drive.js";
import { LineSource } from "../client-session/line-source.js";
import { PERMISSION_POLICIES, type PermissionPolicy } from "../client-session/permission-policy.js";
import { linePrompts, listPrompts } from "../client-session/prompt-source.js";
import { writeJsonText } from "../json-output.js";
import { ELICIT_POLICIES, type ElicitPolicy } from "../client-session/elicitation-policy.js";
import { publicStateJSON } from "../render/public-state.js";

export const runUsage = `usage: acpkit run [options] -- <agent command…>
       acpkit run [options] --url URL
       acpkit run [options] --ws URL

Starts the agent (or connects to a remote one), opens one session and runs one prompt
turn per prompt, printing each turn as it streams.

options:
  --protocol 1|2          highest protocol version to offer (default 1)
  --dialect auto|pinned|later
                          with --protocol 2: which v2 draft to offer. auto (default) offers
                          the pinned draft and, if the agent refuses it, the later draft
                          (@agentclientprotocol/sdk 2.4's v2) on the same connection
  --prompt TEXT           a prompt; repeat for several turns in order
                          (without it, prompts are read from stdin, one per line)
  --cwd DIR               the session's working directory (default: the current one)
  --permission POLICY     allow | reject | cancel | ask (default allow; ask needs a terminal)
  --cancel-after MS       send session/cancel MS milliseconds after each prompt
  --fs MODE               none | read | write: client file access offered to v1 agents,
                          confined to --cwd (default read)
  --auth METHOD_ID        authenticate with this method before the session
  --mode ID               switch the session to this mode first (v1 agents with modes)
  --config ID=VALUE       set a config option first; repeat for several
  --terminal allow|deny   allow: advertise terminals and run the agent's commands confined to
                          --cwd (default deny)
  --elicit POLICY         decline | cancel | accept-defaults: how the agent's questions are
                          answered (default decline)
  --load ID               load (replay) session ID instead of creating one
  --resume ID             resume session ID (no replay) instead of creating one
  --url URL               connect to an ACP remote endpoint instead of starting a command:
                          http(s)://…/acp speaks HTTP+SSE, ws(s)://…/acp its WebSocket profile
                          (acpkit serve, or any endpoint of the transport RFD)
  --ws URL                connect to a plain ACP WebSocket (acpkit bridge)
  --token T               bearer token for --url or --ws
  --json                  print only the final session state as JSON on stdout; when no
                          session was opened: {"session": null, "agent", "protocolVersion",
                          "failedStep": {step, error?}, "authMethods", "failures"}
  --show-extensions       print the vendor (_…) messages acpkit ignores (default: quietly)
  --strict                fail on protocol violations that are otherwise warnings (a turn
                          that ends otherwise than "cancelled" after session/cancel)

With --protocol 2, an agent that refuses the v2 initialize is retried once with v1 (a note
says so). The note after initialize names the dialect that answered: v1, v2-pinned or
v2-later.

exit codes: 0 every turn ended, 1 the agent failed or broke the protocol, 2 bad usage,
3 the agent requires authentication, at any step (its methods are listed: pass --auth, or
run the terminal login shown), 130/143 interrupted (the agent is stopped first).`;

const FLAGS = {
  protocol: { value: true, choices: ["1", "2"] },
  dialect: { value: true, choices: ["auto", "pinned", "later"] },
  prompt: { value: true, repeat: true },
  cwd: { value: true },
  permission: { value: true, choices: PERMISSION_POLICIES },
  "cancel-after": { value: true },
  fs: { value: true, choices: FS_MODES },
  ws: { value: true },
  url: { value: true },
  token: { value: true },
  json: {},
  auth: { value: true },
  mode: { value: true },
  config: { value: true, repeat: true },
  terminal: { value: true, choices: ["allow", "deny"] },
  elicit: { value: true, choices: ELICIT_POLICIES },
  load: { value: true },
  resume: { value: true },
  "show-extensions": {},
  strict: {},
} as const;

/** `--config ID=VALUE` pairs, in order. */
function readConfig(args: ParsedArgs): [string, string][] {
  return (args.flags.get("config") ?? []).map((pair) => {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--config needs ID=VALUE (got "${pair}")`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

function readTarget(args: ParsedArgs): AgentTarget {
  const ws = flagValue(args, "ws");
  const remote = flagValue(args, "url");
  if (args.positionals.length > 0) {
    throw new UsageError(`unexpected argument "${args.positionals[0]}" (put the agent command after --)`);
  }
  if (ws !== undefined && remote !== undefined) throw new UsageError("give either --url or --ws, not both");
  const token = flagValue(args, "token");
  if (remote !== undefined) {
    if (args.rest.length > 0) throw new UsageError("give either --url URL or an agent command after --, not both");
    if (!/^(https?|wss?):\/\//i.test(remote)) throw new UsageError(`--url must be an http(s):// or ws(s):// URL (got "${addressLabel(remote)}")`);
    return token === undefined ? { kind: "remote", url: remote } : { kind: "remote", url: remote, token };
  }
  if (ws !== undefined) {
    if (args.rest.length > 0) throw new UsageError("give either --ws URL or an agent command after --, not both");
    if (!isWebSocketUrl(ws)) throw new UsageError(`--ws must be a ws:// or wss:// URL (got "${addressLabel(ws)}")`);
    return token === undefined ? { kind: "websocket", url: ws } : { kind: "websocket", url: ws, token };
  }
  if (token !== undefined) throw new UsageError("--token only applies with --url or --ws");
  const [command, ...commandArgs] = args.rest;
  if (command === undefined) throw new UsageError("no agent: give an agent command after -- (or --url URL)");
  return { kind: "command", command, args: commandArgs };
}

async function readCwd(args: ParsedArgs, io: CommandIO): Promise<string> {
  const given = flagValue(args, "cwd");
  const cwd = given === undefined ? io.cwd : isAbsolute(given) ? given : resolve(io.cwd, given);
  const info = await stat(cwd).catch(() => undefined);
  if (!info?.isDirectory()) throw new UsageError(`--cwd ${given ?? cwd} is not a directory`);
  return cwd;
}

/**
 * What `--json` prints when no session was opened (initialize failed, a login is needed, …): a
 * script can still read why, at which step, and the agent's authentication methods.
 */
function noSessionJSON(result: DriveResult): Record<string, unknown> {
  return {
    session: null,
    agent: result.agentName ?? null,
    protocolVersion: result.protocolVersion ?? null,
    dialect: result.dialect ?? null,
    failedStep: result.failedStep ?? null,
    authMethods: result.authMethods,
    failures: result.failures,
  };
}

/** `acpkit run`: one session with the agent, one turn per prompt; exit 0, 1 (agent failed or broke the protocol) or 2 (usage). */
export async function runCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  const target = readTarget(args);
  const protocol = Number(flagValue(args, "protocol", "1")) as 1 | 2;
  const permission = flagValue(args, "permission", "allow") as PermissionPolicy;
  const fs = flagValue(args, "fs", "read") as FsMode;
  const cancelAfterMs = flagInteger(args, "cancel-after");
  const json = flagSet(args, "json");
  const prompts = args.flags.get("prompt") ?? [];
  const cwd = await readCwd(args, io);
  const config = readConfig(args);
  const load = flagValue(args, "load");
  const resume = flagValue(args, "resume");
  if (load !== undefined && resume !== undefined) throw new UsageError("give either --load or --resume, not both");
  const optional = {
    auth: flagValue(args, "auth"),
    mode: flagValue(args, "mode"),
    load,
    resume,
  };

  const stdinIsTerminal = (io.stdin as { isTTY?: boolean }).isTTY === true;
  if (permission === "ask" && !(stdinIsTerminal && io.stderr.isTTY === true)) {
    throw new UsageError("--permission ask needs a terminal on stdin and stderr; use allow, reject or cancel when piping");
  }
  // One reader of stdin for prompts and for permission answers alike.
  const lines = prompts.length === 0 || permission === "ask" ? new LineSource(io.stdin) : undefined;

  const printer = json ? undefined : new TurnPrinter(io.stdout, io.out);
  try {
    const result = await driveAgent({
      target,
      protocol,
      dialect: flagValue(args, "dialect", "auto") as "auto" | "pinned" | "later",
      cwd,
      fs,
      permission,
      ...(cancelAfterMs === undefined ? {} : { cancelAfterMs }),
      ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
      config,
      terminal: flagValue(args, "terminal", "deny") as "allow" | "deny",
      elicit: flagValue(args, "elicit", "decline") as ElicitPolicy,
      prompts:
        prompts.length > 0
          ? listPrompts(prompts)
          : linePrompts(lines!, stdinIsTerminal ? () => io.stderr.write(io.err.dim("prompt (Ctrl-D to end)› ")) : undefined),
      ...(lines ? { answers: lines } : {}),
      ...(printer ? { printer } : {}),
      io,
      name: "acpkit run",
      showExtensions: flagSet(args, "show-extensions"),
      strict: flagSet(args, "strict"),
    });
    if (json) await writeJsonText(result.state ? publicStateJSON(result.state) : noSessionJSON(result), io.stdout);
    if (result.authRequired !== undefined) return Exit.AuthRequired;
    return result.failures.length === 0 ? Exit.Ok : Exit.Failed;
  } finally {
    lines?.close();
  }
}
