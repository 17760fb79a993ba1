// `acpkit sessions [--delete ID] [--cwd DIR] [--protocol 1|2] [--json] -- <agent command…>`: lists the
// agent's stored sessions (every page of session/list), or deletes one.
import { isAbsolute, resolve } from "node:path";
import { connectAgent, type SessionListEntry } from "@acpkit/client";
import { isAcpError, isRpcError } from "@acpkit/core";
import { flagSet, flagValue, parseArgs, UsageError } from "../args.js";
import { openTarget } from "../client-session/agent-target.js";
import { Exit, type CommandIO } from "../io.js";
import { writeJsonText } from "../json-output.js";

export const sessionsUsage = `usage: acpkit sessions [options] -- <agent command…>

Lists the agent's sessions (session/list, every page), or deletes one (session/delete).

options:
  --delete ID         delete session ID instead of listing
  --cwd DIR           only sessions in DIR (default: all)
  --protocol 1|2      highest protocol version to offer (default 1)
  --ws URL            connect over WebSocket instead of starting a command
  --token T           bearer token for --ws
  --json              print {"sessions": [...]} (or {"deleted": ID}) as JSON

exit codes: 0 done, 1 the agent failed or does not serve the method, 2 bad usage.`;

/** Every page of session/list is read, but not without end: a cursor loop stops here. */
const MAX_PAGES = 1000;

export async function sessionsCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, {
    delete: { value: true },
    cwd: { value: true },
    protocol: { value: true, choices: ["1", "2"] },
    ws: { value: true },
    token: { value: true },
    json: {},
  });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}" (put the agent command after --)`);
  const url = flagValue(args, "ws");
  const [command, ...commandArgs] = args.rest;
  if (url === undefined && command === undefined) throw new UsageError("no agent: give an agent command after -- (or --ws URL)");
  const token = flagValue(args, "token");
  const target =
    url !== undefined
      ? token === undefined
        ? { kind: "websocket" as const, url }
        : { kind: "websocket" as const, url, token }
      : { kind: "command" as const, command: command!, args: commandArgs };
  const cwdFlag = flagValue(args, "cwd");
  const cwd = cwdFlag === undefined ? undefined : isAbsolute(cwdFlag) ? cwdFlag : resolve(io.cwd, cwdFlag);
  const toDelete = flagValue(args, "delete");
  const json = flagSet(args, "json");

  const agent = await connectAgent(await openTarget(target), {
    protocolVersion: Number(flagValue(args, "protocol", "1")) as 1 | 2,
    clientInfo: { name: "acpkit-cli", version: "0.1.0" },
  }).catch((error: unknown) => {
    io.stderr.write(io.err.red(`acpkit sessions: could not initialize the agent: ${describe(error)}`) + "\n");
    return undefined;
  });
  if (agent === undefined) return Exit.Failed;
  try {
    if (toDelete !== undefined) {
      await agent.deleteSession(toDelete);
      if (json) await writeJsonText({ deleted: toDelete }, io.stdout);
      else io.stdout.write(`deleted ${toDelete}\n`);
      return Exit.Ok;
    }
    const sessions: SessionListEntry[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await agent.listSessions({ ...(cwd === undefined ? {} : { cwd }), ...(cursor === undefined ? {} : { cursor }) });
      sessions.push(...result.sessions);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    if (json) await writeJsonText({ sessions }, io.stdout);
    else if (sessions.length === 0) io.stdout.write(io.out.dim("no sessions") + "\n");
    else {
      for (const session of sessions) {
        const title = session.title ? ` ${session.title}` : "";
        io.stdout.write(`${io.out.bold(session.sessionId)}${title} ${io.out.dim(`${session.cwd}${session.updatedAt ? ` · ${session.updatedAt}` : ""}`)}\n`);
      }
    }
    return Exit.Ok;
  } catch (error) {
    io.stderr.write(io.err.red(`acpkit sessions: ${describe(error)}`) + "\n");
    return Exit.Failed;
  } finally {
    await agent.close("done");
  }
}

function describe(error: unknown): string {
  if (isRpcError(error)) return `the agent answered with error ${error.code}: ${error.message}`;
  if (isAcpError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}
