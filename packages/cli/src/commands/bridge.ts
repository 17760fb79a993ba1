// `acpkit bridge --listen HOST:PORT [--token-file F | --token T] [--max-connections N] -- <agent command…>` (the command keeps its name;
// its job is a relay, see ../relay.ts): serves a stdio agent over
// WebSocket. Every connection gets its own child process; messages are relayed both ways
// unchanged, one WebSocket text frame per ndjson line. The server keeps the WebSocket transport's
// defaults: loopback only unless a token is given, browser origins limited to loopback pages.
import { readFile } from "node:fs/promises";
import { isAcpError } from "@acpkit/core";
import { listen, type WebSocketListener } from "@acpkit/transport-websocket";
import { flagValue, parseArgs, UsageError } from "../args.js";
import { Exit, type CommandIO } from "../io.js";
import { relayConnection } from "@acpkit/transport-stdio";

/** How many connections (each an agent process) `acpkit bridge` serves at once unless told otherwise. */
export const DEFAULT_MAX_CONNECTIONS = 16;

export const bridgeUsage = `usage: acpkit bridge --listen HOST:PORT [--token-file FILE | --token T] [--max-connections N] -- <agent command…>

Serves a stdio agent over WebSocket at ws://HOST:PORT/acp, one agent process per connection.
A HOST other than loopback (127.0.0.1, ::1, localhost) needs a token; clients then send
"Authorization: Bearer T" (browsers: ?access_token=T). Give the token in a file (--token-file,
trailing newline ignored) or the ACPKIT_BRIDGE_TOKEN environment variable: --token is visible to
other local users in the process list. PORT 0 picks a free port.
At most --max-connections connections (default ${DEFAULT_MAX_CONNECTIONS}) run at once, each an agent
process; more are closed at once with WebSocket code 1013 (try again later).
The URL is printed on stdout; connections are logged on stderr. Stop with Ctrl-C.`;

/** The environment variable `acpkit bridge` reads its token from when no flag gives one. */
export const TOKEN_ENV = "ACPKIT_BRIDGE_TOKEN";

/** The token from --token, --token-file or the environment variable `envName` (in that order), if any. */
export async function bridgeToken(
  flag: string | undefined,
  file: string | undefined,
  env: NodeJS.ProcessEnv,
  envName = TOKEN_ENV,
): Promise<string | undefined> {
  if (flag !== undefined && file !== undefined) throw new UsageError("give the token once: --token or --token-file, not both");
  let token = flag;
  if (file !== undefined) {
    try {
      token = (await readFile(file, "utf8")).replace(/\r?\n$/, "");
    } catch (error) {
      throw new UsageError(`--token-file ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
    }
  } else if (token === undefined && env[envName] !== undefined) {
    token = env[envName];
  }
  if (token === "") throw new UsageError(file !== undefined ? `--token-file ${file} is empty` : "the token must not be empty");
  return token;
}

/** Parse `HOST:PORT`, `[v6]:PORT` or `:PORT` (loopback). */
export function parseListenAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d+)$/.exec(value);
  if (!match) throw new UsageError(`--listen must be HOST:PORT, e.g. 127.0.0.1:8765 (got "${value}")`);
  const port = Number(match[3]);
  if (port > 65535) throw new UsageError(`--listen port must be 0-65535 (got ${port})`);
  const host = match[1] ?? (match[2] === "" ? "127.0.0.1" : match[2]!);
  return { host, port };
}

/** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
export function stopRequested(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/**
 * `acpkit bridge`: serve the agent command over WebSocket until `until` settles (default: SIGINT or
 * SIGTERM), then close every connection and return 0. A refused address is a usage error.
 */
export async function bridgeCommand(argv: readonly string[], io: CommandIO, until: Promise<unknown> = stopRequested()): Promise<number> {
  const args = parseArgs(argv, { listen: { value: true }, token: { value: true }, "token-file": { value: true }, "max-connections": { value: true } });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}" (put the agent command after --)`);
  const listenFlag = flagValue(args, "listen");
  if (listenFlag === undefined) throw new UsageError("--listen HOST:PORT is required");
  const { host, port } = parseListenAddress(listenFlag);
  const token = await bridgeToken(flagValue(args, "token"), flagValue(args, "token-file"), process.env);
  const maxFlag = flagValue(args, "max-connections");
  const maxConnections = maxFlag === undefined ? DEFAULT_MAX_CONNECTIONS : Number(maxFlag);
  if (!Number.isInteger(maxConnections) || maxConnections < 1)
    throw new UsageError(`--max-connections must be a whole number of at least 1 (got "${maxFlag}")`);
  const [command, ...commandArgs] = args.rest;
  if (command === undefined) throw new UsageError("no agent: give the agent command after --");

  let connections = 0;
  let active = 0;
  let listener: WebSocketListener;
  try {
    listener = await listen({
      host,
      port,
      ...(token === undefined ? {} : { token }),
      onConnection(transport, request) {
        const number = ++connections;
        const from = `${request.socket.remoteAddress ?? "?"}:${request.socket.remotePort ?? "?"}`;
        if (active >= maxConnections) {
          // Each connection is an agent process: refuse rather than let a client start unboundedly many.
          io.stderr.write(
            io.err.yellow(`acpkit bridge: connection ${number} from ${from} refused: ${active} connections already (--max-connections ${maxConnections})`) +
              "\n",
          );
          void transport.closeWithCode(1013, `too many connections (at most ${maxConnections}); try again later`);
          return;
        }
        active++;
        io.stderr.write(io.err.dim(`acpkit bridge: connection ${number} from ${from}: starting ${[command, ...commandArgs].join(" ")}`) + "\n");
        void relayConnection(transport, command, commandArgs, (message) =>
          io.stderr.write(io.err.dim(`acpkit bridge: connection ${number}: ${message}`) + "\n"),
        ).finally(() => {
          active--;
        });
      },
    });
  } catch (error) {
    if (isAcpError(error, "Unsupported")) throw new UsageError(error.message.replace("set options.token", `pass --token-file (or set ${TOKEN_ENV})`));
    io.stderr.write(io.err.red(`acpkit bridge: cannot listen on ${listenFlag}: ${(error as Error).message}`) + "\n");
    return Exit.Failed;
  }
  io.stdout.write(`${listener.url}\n`);
  io.stderr.write(
    io.err.dim(`acpkit bridge: serving "${[command, ...commandArgs].join(" ")}" at ${listener.url}${token === undefined ? "" : " (bearer token required)"}`) +
      "\n",
  );
  await until;
  io.stderr.write(io.err.dim("acpkit bridge: shutting down") + "\n");
  await listener.close();
  return Exit.Ok;
}
