// What `checkAgent` checks: an agent command it starts, an agent served over WebSocket, or an
// agent in the same process behind a Transport. Each group of checks opens a fresh connection, so
// one failure cannot poison the rest.
import type { Transport } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import type { RawConnection } from "./raw-connection.js";

/** An agent command: started once per group of checks, in a process group of its own. */
export interface CommandTarget {
  command: string;
  args?: readonly string[];
  /** Added to the checker's environment. */
  env?: Readonly<Record<string, string>>;
  /** The agent's working directory (default: the check's cwd). */
  cwd?: string;
}

/**
 * An agent served over the network: `ws(s)://` is a WebSocket (acpkit bridge, or the WebSocket
 * profile of a remote endpoint), `http(s)://` the HTTP+SSE profile of a remote endpoint of the
 * transport RFD (acpkit serve, or anyone's). A fresh connection per group of checks.
 */
export interface WebSocketTarget {
  url: string;
  /** Sent as `Authorization: Bearer TOKEN`. */
  token?: string;
}

/**
 * An agent in the same process: `transport()` is called once per group of checks and returns the
 * client's end of a fresh channel whose other end the agent serves (for example
 * `() => { const [client, agent] = createMemoryPair(); serveAgent(agent, definition); return client; }`).
 */
export interface InProcessTarget {
  /** Returns the client's end of a fresh channel to the agent. */
  transport: () => Transport | Promise<Transport>;
}

/** What `checkAgent` checks. */
export type AgentTarget = CommandTarget | WebSocketTarget | InProcessTarget;

/** How `checkAgent` drives the agent. Every field has a default. */
export interface AgentCheckOptions {
  /** The version to offer in initialize (default 1). */
  protocol?: ProtocolVersion;
  /**
   * With protocol 2, which v2 draft to offer: "auto" (default) offers the pinned shape and, when
   * the agent refuses it, the later draft's; "later" offers only the later draft's, so an agent
   * that speaks both (acpkit's does) is judged by the LATER-* requirements.
   */
  v2Dialect?: "auto" | "later";
  /** The working directory sent in session/new, absolute (default: process.cwd()). */
  cwd?: string;
  /** How long one answer may take, in ms (a prompt gets 20×; default 10000). */
  timeoutMs?: number;
  /** How long the first answer of a fresh agent (initialize) may take: real agents take seconds to start. Default max(30000, timeoutMs). */
  startTimeoutMs?: number;
  /** The prompt of the turn and cancel checks (default "Hello"). */
  prompt?: string;
  /** Authenticate with this method id before creating sessions. */
  auth?: string;
  /**
   * How long the checker keeps reading after a turn's response before it judges that nothing of
   * the turn came after it (ACPKIT-ORDER-001), in ms (default 300). It is most of an in-process
   * check's time; an agent that writes late from a timer needs it at least that long.
   */
  lateUpdateWindowMs?: number;
}

/** The options with their defaults filled in, and the target: what every group reads. */
export interface CheckContext {
  target: AgentTarget;
  protocol: ProtocolVersion;
  cwd: string;
  timeoutMs: number;
  startTimeoutMs: number;
  prompt: string;
  auth: string | undefined;
  lateUpdateWindowMs: number;
  /**
   * Set by the first `start`: the agent refused the pinned v2 initialize and answered the later v2
   * draft's (`info`). From then on every group initializes in that draft's shape.
   */
  later?: boolean;
}

/** The agent could not be started, reached or initialized: the check has nothing to judge (the CLI exits 2). */
export class AgentUnavailable extends Error {
  override readonly name = "AgentUnavailable";
}

/** What a target is called in messages: its command line, or its URL without query and fragment (an access_token may stand there). */
export function describeAgentTarget(target: AgentTarget): string {
  if ("command" in target) return [target.command, ...(target.args ?? [])].join(" ");
  if ("url" in target) return target.url.replace(/[?#].*$/s, "");
  return "the in-process agent";
}

/** Which kind a target is; throws a TypeError naming what is wrong for anything else. */
export function targetKind(target: unknown): "command" | "websocket" | "http" | "in-process" {
  if (typeof target === "object" && target !== null) {
    const fields = target as Record<string, unknown>;
    if (typeof fields.command === "string" && fields.command !== "") return "command";
    if (typeof fields.url === "string") {
      if (/^https?:\/\//i.test(fields.url)) return "http";
      if (!/^wss?:\/\//i.test(fields.url))
        throw new TypeError(`checkAgent: target.url must be an http(s):// or ws(s):// URL (got ${JSON.stringify(fields.url.slice(0, 80))})`);
      return "websocket";
    }
    if (typeof fields.transport === "function") return "in-process";
  }
  throw new TypeError("checkAgent: the target must be { command, args?, env?, cwd? }, { url, token? } or { transport: () => Transport }");
}

/** A fresh connection to the agent: a new process, a new WebSocket, a new HTTP connection, or a new in-process transport. */
export async function connectTo(context: CheckContext): Promise<RawConnection> {
  const { target } = context;
  if ("command" in target) {
    const { RawProcessConnection } = await import("./raw-process-connection.js");
    return new RawProcessConnection(target.command, target.args ?? [], target.cwd ?? context.cwd, target.env);
  }
  if ("url" in target && /^https?:\/\//i.test(target.url)) {
    const { connectHttp } = await import("@acpkit/transport-http");
    const { RawTransportConnection } = await import("./raw-transport-connection.js");
    const { url, token } = target;
    return new RawTransportConnection(() => connectHttp(url, token === undefined ? {} : { token }), "http");
  }
  if ("url" in target) {
    // Its own module, so that `ws` is loaded only when a check targets a WebSocket.
    const { RawWsConnection } = await import("./raw-ws-connection.js");
    return new RawWsConnection(target.url, target.token);
  }
  const { RawTransportConnection } = await import("./raw-transport-connection.js");
  return new RawTransportConnection(target.transport);
}
