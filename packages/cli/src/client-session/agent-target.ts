// Where the agent is: a command started as a child process (stdio), a plain WebSocket URL (acpkit
// bridge), or a remote endpoint of the transport RFD (acpkit serve; HTTP+SSE or its WebSocket).
import type { Transport } from "@acpkit/core";
import { spawnAgent } from "@acpkit/transport-stdio";
import { addressLabel } from "../address-label.js";

export type AgentTarget =
  | { kind: "command"; command: string; args: readonly string[] }
  | { kind: "websocket"; url: string; token?: string }
  | { kind: "remote"; url: string; token?: string };

/**
 * Human name of the target for messages: the command line, or the URL without its query (an
 * access_token may stand there; connect()'s own errors show the rest of it with the token as "…").
 */
export function describeTarget(target: AgentTarget): string {
  return target.kind === "command" ? [target.command, ...target.args].join(" ") : addressLabel(target.url);
}

/**
 * How long the CLI waits at each shutdown step (stdin end → SIGTERM → SIGKILL to the agent's
 * process group): short, so a command ends within about 2 s of its last turn even when the agent
 * (or a launcher's child) ignores EOF.
 */
export const CLI_SHUTDOWN_GRACE_MS = 700;

/**
 * Open a transport to the agent. A child inherits our stderr, so its log shows next to ours
 * (docs/protocol.md §8.1 S6) and never mixes with the protocol on stdout.
 */
export async function openTarget(target: AgentTarget): Promise<Transport> {
  if (target.kind === "command") return spawnAgent(target.command, target.args, { stderr: "inherit", shutdownGraceMs: CLI_SHUTDOWN_GRACE_MS });
  // Loaded here rather than at the top: most runs drive a command over stdio, and a run over stdio
  // loads no WebSocket code at all (startup.test.ts holds the CLI to that).
  if (target.kind === "remote") {
    const { connectRemote } = await import("@acpkit/transport-http");
    return connectRemote(target.url, target.token === undefined ? {} : { token: target.token });
  }
  const { connect } = await import("@acpkit/transport-websocket");
  return connect(target.url, target.token === undefined ? {} : { token: target.token });
}
