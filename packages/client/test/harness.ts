// Starts our scenario agent (packages/agent/test/fixtures) in-process over a memory pair, or as a
// child process over stdio (built dist/), and connects our client to it.
import { fileURLToPath } from "node:url";
import type { Transport } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import { serveAgent } from "@acpkit/agent";
import { createMemoryPair } from "@acpkit/transport-memory";
import { spawnAgent } from "@acpkit/transport-stdio";
import { connectAgent, type ConnectedAgent, type ConnectOptions } from "@acpkit/client";
import { scenarioAgent } from "../../agent/test/fixtures/scenarios.mjs";

export type TransportKind = "memory" | "stdio";

const agentFixture = fileURLToPath(new URL("../../agent/test/fixtures/serve-stdio.mjs", import.meta.url));

export function agentTransport(kind: TransportKind, agentVersions: readonly ProtocolVersion[] = [1, 2]): Transport {
  if (kind === "memory") {
    const [clientSide, agentSide] = createMemoryPair();
    serveAgent(agentSide, scenarioAgent({ versions: agentVersions }) as never);
    return clientSide;
  }
  return spawnAgent(process.execPath, [agentFixture, agentVersions.join(",")], { stderr: "ignore", shutdownGraceMs: 500 });
}

export function connectScenarioAgent(kind: TransportKind, options: ConnectOptions, agentVersions?: readonly ProtocolVersion[]): Promise<ConnectedAgent> {
  return connectAgent(agentTransport(kind, agentVersions), options);
}

/** Text of the given message in the state, joined. */
export function textOf(message: { content: readonly unknown[] } | undefined): string {
  return (message?.content ?? [])
    .map((block) => {
      const { type, text } = block as { type: string; text?: string };
      return type === "text" ? text : `[${type}]`;
    })
    .join("");
}
