// `acpkit inspect -- <agent>`: the page drives the agent. Each WebSocket the page opens at /acp
// gets a fresh agent process, and messages are relayed unchanged both ways (the same relay as
// `acpkit bridge`); the page's own client (@acpkit/client in the browser) is the ACP client, and
// it records and validates the traffic itself.
import type { Transport } from "@acpkit/core";
import { relayBetween, relayConnection } from "@acpkit/transport-stdio";
import { wrapNodeSocket } from "@acpkit/transport-websocket";
import { ACP_PATH, TOKEN_PARAM, type InspectorMode } from "../common/protocol.js";
import { startServer, type InspectorServer, type SocketHandler } from "./http-server.js";
import { newToken } from "./token.js";
import { packageVersion } from "./version.js";

/** Options of `startInspector`. */
export interface InspectorOptions {
  /** The agent command and its arguments (or `url`: one of the two). */
  command?: string;
  /** The arguments of `command`. */
  args?: readonly string[];
  /**
   * Instead of a command: an agent behind a remote endpoint of the transport RFD (http(s):// for
   * its HTTP+SSE profile, ws(s):// for its WebSocket profile); each page connection opens a new
   * connection to it. `agentToken` is sent as its bearer token.
   */
  url?: string;
  /** The bearer token for `url`. */
  agentToken?: string;
  /** The address to listen on (default 127.0.0.1); anything else needs an explicit `token`. */
  host?: string;
  /** The port (default 0: a free one). */
  port?: number;
  /** The launch token (default: random per launch). */
  token?: string;
  /** The protocol version the page's Connect form starts with (default 2). */
  protocolVersion?: 1 | 2;
  /** Agent processes running at once (one per open page connection; default 4); more are refused with 1013. */
  maxConnections?: number;
  /** One line per noteworthy event (connections, refusals, agent exits). */
  log?: (message: string) => void;
}

/** A running inspector. */
export interface Inspector {
  /** The page's URL with the token: what the command prints. */
  readonly url: string;
  readonly token: string;
  readonly port: number;
  /** Stop serving: close the page connections (their agents stop) and the server. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** The host to bind and the token, checked: a non-loopback host needs a token the caller chose. */
export function resolveAccess(host: string | undefined, token: string | undefined): { host: string; token: string } {
  const bound = host ?? "127.0.0.1";
  if (!LOOPBACK.has(bound) && token === undefined) {
    throw new Error(`binding ${bound} (not loopback) needs a token you chose (--token-file): a random one would be printed where others may see it`);
  }
  if (token !== undefined && token.length < 16) throw new Error("the token must be at least 16 characters");
  return { host: bound, token: token ?? newToken() };
}

/** The URL the command prints: the page, with the token in its query. */
export function pageUrl(origin: string, token: string): string {
  return `${origin}/?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

/**
 * Check the access options and start the server for one mode, with the page's start-up facts
 * (`GET /api/info`) taken from `options`. Shared by `startInspector` and `startTap`.
 */
export async function serveMode(
  mode: InspectorMode,
  options: Omit<InspectorOptions, "maxConnections">,
  sockets: Readonly<Record<string, SocketHandler>>,
): Promise<{ server: InspectorServer; token: string }> {
  const access = resolveAccess(options.host, options.token);
  const server = await startServer({
    host: access.host,
    port: options.port ?? 0,
    token: access.token,
    info: {
      mode,
      agentCommand: options.url !== undefined ? [options.url.replace(/[?#].*$/s, "")] : [options.command ?? "", ...(options.args ?? [])],
      protocolVersion: options.protocolVersion ?? 2,
      cwd: process.cwd(),
      version: packageVersion(),
    },
    log: options.log ?? (() => {}),
    sockets,
  });
  return { server, token: access.token };
}

/** Serve the inspector page for `command args` until `close()`. */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const log = options.log ?? (() => {});
  const args = options.args ?? [];
  if ((options.command === undefined) === (options.url === undefined))
    throw new TypeError("startInspector: give the agent as either options.command or options.url");
  const { url, command } = options;
  const describe = url !== undefined ? url.replace(/[?#].*$/s, "") : [command, ...args].join(" ");
  const maxConnections = options.maxConnections ?? 4;
  let active = 0;
  let connections = 0;
  const { server, token } = await serveMode("inspect", options, {
    [ACP_PATH](socket, request) {
      const number = ++connections;
      const transport = wrapNodeSocket(socket, request.socket);
      if (active >= maxConnections) {
        log(`page connection ${number} refused: ${active} agents already run (at most ${maxConnections})`);
        void transport.closeWithCode(1013, `at most ${maxConnections} agents at once; close another inspector tab`);
        return;
      }
      active++;
      const note = (message: string) => log(`page connection ${number}: ${message}`);
      note(url !== undefined ? `connecting to ${describe}` : `starting ${describe}`);
      const relay = url !== undefined ? relayRemote(transport, url, options.agentToken, note) : relayConnection(transport, command as string, args, note);
      void relay.finally(() => {
        active--;
      });
    },
  });
  return { url: pageUrl(server.origin, token), token, port: server.port, close: () => server.close() };
}

/** Relay a page connection to a new connection of the remote endpoint at `url`; a refusal closes the page's socket with the reason. */
async function relayRemote(
  page: Transport & { closeWithCode(code: number, reason: string): Promise<void> },
  url: string,
  token: string | undefined,
  log: (message: string) => void,
): Promise<void> {
  let agent: Transport;
  try {
    // Loaded on first use: an inspector of a command never needs the HTTP client.
    const { connectRemote } = await import("@acpkit/transport-http");
    agent = await connectRemote(url, token === undefined ? {} : { token });
  } catch (error) {
    log(`could not connect: ${(error as Error).message}`);
    await page.closeWithCode(1011, `could not connect to the agent: ${(error as Error).message}`.slice(0, 120));
    return;
  }
  await relayBetween(page, agent, log);
}
