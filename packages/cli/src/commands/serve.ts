// `acpkit serve --listen HOST:PORT [--token-file F] [--tls-cert F --tls-key F] -- <agent command…>`:
// hosts a stdio agent behind the remote endpoint of the transport RFD (docs/remote.md), both
// profiles on one path, one agent process per connection. Messages are relayed unchanged, so the
// client and the agent negotiate the protocol between themselves.
import { readFile } from "node:fs/promises";
import { isAcpError } from "@acpkit/core";
import { DEFAULT_NODE_TIMEOUT_MS, type EndpointServer, type FleetOptions, serveEndpoint } from "@acpkit/transport-http";
import { relayConnection } from "@acpkit/transport-stdio";
import { flagValue, parseArgs, UsageError } from "../args.js";
import { Exit, type CommandIO } from "../io.js";
import { TurnTracker } from "../serve-turns.js";
import { bridgeToken, parseListenAddress, stopRequested } from "./bridge.js";

/** How many connections (each an agent process) `acpkit serve` holds at once unless told otherwise. */
export const DEFAULT_SERVE_CONNECTIONS = 16;
/** How long a shutdown waits for cancelled turns to end before it closes their connections anyway. */
export const SHUTDOWN_TURN_GRACE_MS = 10_000;
/** The environment variable `acpkit serve` reads its token from when no flag gives one. */
export const SERVE_TOKEN_ENV = "ACPKIT_SERVE_TOKEN";

export const serveUsage = `usage: acpkit serve --listen HOST:PORT [--token-file FILE | --token T] [--tls-cert FILE --tls-key FILE]
                    [--max-connections N] [--allow-origin ORIGIN]… [--resume]
                    [--redis URL --node-id ID [--node-timeout MS]] -- <agent command…>

Serves a stdio agent at http://HOST:PORT/acp, the remote endpoint of ACP's transport RFD: the
HTTP+SSE profile and the WebSocket profile (ws://HOST:PORT/acp) on one path, one agent process per
connection. Prints "serving: URL" on stdout once it accepts connections; PORT 0 picks a free port.

A HOST other than loopback (127.0.0.1, ::1, localhost) needs a token; clients then send
"Authorization: Bearer T". Give it in a file (--token-file, trailing newline ignored) or the
${SERVE_TOKEN_ENV} environment variable: --token is visible to other local users.
With --tls-cert and --tls-key (PEM files) it serves HTTP/2 over TLS, HTTP/1.1 by ALPN (the RFD
requires HTTP/2 for the SSE profile); without them, plain HTTP/1.1 for loopback development.
Browser pages may connect from their own origin and from loopback origins; --allow-origin adds one.
At most --max-connections connections (default ${DEFAULT_SERVE_CONNECTIONS}) run at once; more get HTTP 503.
With --resume, streams resume: SSE events carry ids, the last 1,000 of each stream are kept, and a
client that lost a stream gets what it missed with Last-Event-ID; a WebSocket that dropped is
carried on by a new upgrade naming the connection (acpkit's client does both itself).
With --redis, it is one node of a fleet: every "acpkit serve" given the same Redis URL serves the
same connections. Any node takes any request and any stream; the node that took a connection's
initialize runs its agent. When a node dies, another takes its connections over within about
--node-timeout (default ${DEFAULT_NODE_TIMEOUT_MS} ms): it starts the agent again and resumes (or loads) its sessions;
the request that was running ends with an error. On SIGINT or SIGTERM a fleet node hands its
connections over to the others instead of ending them. --node-id names this node (unique in the fleet).
Run Redis with persistence (appendonly yes) for the fleet to survive a Redis restart.
SIGINT or SIGTERM stops it gracefully and it exits 0: running turns are cancelled (session/cancel)
and their answers delivered (at most ${SHUTDOWN_TURN_GRACE_MS / 1000} s), then every connection is closed (its streams end, a WebSocket
gets close code 1001) and the agents are stopped. A second signal stops everything at once.`;

/**
 * `acpkit serve`: host the agent command behind the endpoint until `until` settles (default: SIGINT
 * or SIGTERM), then close every connection, wait for the agents to end, and return 0.
 */
export async function serveCommand(argv: readonly string[], io: CommandIO, until: Promise<unknown> = stopRequested()): Promise<number> {
  const args = parseArgs(argv, {
    listen: { value: true },
    token: { value: true },
    "token-file": { value: true },
    "tls-cert": { value: true },
    "tls-key": { value: true },
    "max-connections": { value: true },
    "allow-origin": { value: true, repeat: true },
    resume: {},
    redis: { value: true },
    "node-id": { value: true },
    "node-timeout": { value: true },
  });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}" (put the agent command after --)`);
  const listenFlag = flagValue(args, "listen");
  if (listenFlag === undefined) throw new UsageError("--listen HOST:PORT is required");
  const { host, port } = parseListenAddress(listenFlag);
  const token = await bridgeToken(flagValue(args, "token"), flagValue(args, "token-file"), process.env, SERVE_TOKEN_ENV);
  const maxFlag = flagValue(args, "max-connections");
  const maxConnections = maxFlag === undefined ? DEFAULT_SERVE_CONNECTIONS : Number(maxFlag);
  if (!Number.isInteger(maxConnections) || maxConnections < 1)
    throw new UsageError(`--max-connections must be a whole number of at least 1 (got "${maxFlag}")`);
  const tls = await readTls(flagValue(args, "tls-cert"), flagValue(args, "tls-key"));
  const [command, ...commandArgs] = args.rest;
  if (command === undefined) throw new UsageError("no agent: give the agent command after --");
  const fleet = await fleetOptions(flagValue(args, "redis"), flagValue(args, "node-id"), flagValue(args, "node-timeout"));

  // Agents must not outlive this process, however it ends (the exit hook only: signals are ours).
  const { stopAgentsOnSignal, stopTrackedChildren } = await import("@acpkit/transport-stdio");
  stopAgentsOnSignal({ signals: [] });
  const turns = new TurnTracker();
  const relays = new Set<Promise<void>>();
  let connections = 0;
  let server: EndpointServer;
  try {
    server = await serveEndpoint({
      host,
      port,
      ...(token === undefined ? {} : { token }),
      ...(tls === undefined ? {} : { tls }),
      allowedOrigins: args.flags.get("allow-origin") ?? [],
      limits: { maxConnections },
      resume: args.flags.has("resume"),
      ...(fleet === undefined ? {} : { fleet }),
      onConnection(transport, info) {
        const number = ++connections;
        const log = (message: string) => io.stderr.write(io.err.dim(`acpkit serve: connection ${number}: ${message}`) + "\n");
        log(`${info.profile} ${info.connectionId}: starting ${[command, ...commandArgs].join(" ")}`);
        const relay = relayConnection(turns.watch(transport), command, commandArgs, log);
        relays.add(relay);
        void relay.finally(() => relays.delete(relay));
      },
    });
  } catch (error) {
    if (isAcpError(error, "Unsupported")) throw new UsageError(error.message.replace("set options.token", `pass --token-file (or set ${SERVE_TOKEN_ENV})`));
    io.stderr.write(io.err.red(`acpkit serve: cannot listen on ${listenFlag}: ${(error as Error).message}`) + "\n");
    await fleet?.backend.close();
    return Exit.Failed;
  }
  io.stdout.write(`serving: ${server.url}\n`);
  io.stderr.write(
    io.err.dim(`acpkit serve: "${[command, ...commandArgs].join(" ")}" at ${server.url}${token === undefined ? "" : " (bearer token required)"}`) + "\n",
  );
  await until;
  // A second signal while shutting down: stop the agents now and leave.
  const hurry = stopRequested().then(async (signal) => {
    io.stderr.write(io.err.yellow(`acpkit serve: ${signal} again: stopping the agents now`) + "\n");
    await stopTrackedChildren(0);
    process.exit(Exit.Failed);
  });
  void hurry;
  io.stderr.write(
    io.err.dim(`acpkit serve: shutting down: ${turns.running} running turn(s) cancelled, ${server.endpoint.connectionCount} connection(s) to close`) + "\n",
  );
  await turns.cancelAll(SHUTDOWN_TURN_GRACE_MS);
  await server.close("the server is shutting down");
  // Each relay ends once its agent process has ended (closed stdin, then the stop grace).
  await Promise.all(relays);
  await fleet?.backend.close();
  return Exit.Ok;
}

/** The fleet node options of --redis, --node-id and --node-timeout, checked; undefined without --redis. */
async function fleetOptions(url: string | undefined, nodeId: string | undefined, timeout: string | undefined): Promise<FleetOptions | undefined> {
  if (url === undefined) {
    if (nodeId !== undefined || timeout !== undefined) throw new UsageError("--node-id and --node-timeout go with --redis");
    return undefined;
  }
  if (!/^rediss?:\/\//.test(url)) throw new UsageError(`--redis must be a redis:// or rediss:// URL (got "${url}")`);
  if (nodeId === undefined || !/^[A-Za-z0-9._-]{1,64}$/.test(nodeId))
    throw new UsageError(`--redis needs --node-id ID: letters, digits, ".", "_" or "-", at most 64 (got ${nodeId === undefined ? "none" : `"${nodeId}"`})`);
  const nodeTimeoutMs = timeout === undefined ? DEFAULT_NODE_TIMEOUT_MS : Number(timeout);
  if (!Number.isInteger(nodeTimeoutMs) || nodeTimeoutMs < 500)
    throw new UsageError(`--node-timeout must be a whole number of milliseconds, at least 500 (got "${timeout}")`);
  const { RedisFleetBackend } = await import("@acpkit/fleet-redis");
  const backend = new RedisFleetBackend({ url });
  try {
    await backend.ready();
  } catch (error) {
    await backend.close();
    throw new UsageError(`--redis ${url}: ${(error as Error).message}`);
  }
  // Five heartbeats fit in a timeout, so one late beat never makes a live node look dead.
  return { backend, nodeId, nodeTimeoutMs, heartbeatMs: Math.floor(nodeTimeoutMs / 5) };
}

async function readTls(certFile: string | undefined, keyFile: string | undefined): Promise<{ cert: Buffer; key: Buffer } | undefined> {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) throw new UsageError("--tls-cert and --tls-key go together");
  const read = async (flag: string, file: string) => {
    try {
      return await readFile(file);
    } catch (error) {
      throw new UsageError(`${flag} ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
    }
  };
  return { cert: await read("--tls-cert", certFile), key: await read("--tls-key", keyFile) };
}
