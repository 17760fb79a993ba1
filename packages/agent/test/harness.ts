// Test harness: starts the scenario agent in-process (memory pair) or as a child process (stdio),
// and drives it with a bare core Connection on the client side that records every message the
// agent wrote, in wire order, so the tests can assert ordering on the wire itself.
import { fileURLToPath } from "node:url";
import { Connection, type Transport } from "@acpkit/core";
import { RecordingTransport } from "@acpkit/test-support/recording-transport";

export { RecordingTransport };
import type { ProtocolVersion } from "@acpkit/schema";
import { createMemoryPair } from "@acpkit/transport-memory";
import { spawnAgent } from "@acpkit/transport-stdio";
import { serveAgent, type AgentServer } from "@acpkit/agent";
import { scenarioAgent } from "./fixtures/scenarios.mjs";

export type TransportKind = "memory" | "stdio";

const stdioFixture = fileURLToPath(new URL("./fixtures/serve-stdio.mjs", import.meta.url));

export interface Started {
  client: Connection;
  wire: RecordingTransport;
  /** The in-process server (memory only). */
  server: AgentServer | undefined;
  close(): Promise<void>;
}

/** Start the scenario agent and a raw client connection to it (not yet initialized). */
export function startAgent(kind: TransportKind, agentVersions: readonly ProtocolVersion[] = [1, 2]): Started {
  let transport: Transport;
  let server: AgentServer | undefined;
  if (kind === "memory") {
    const [clientSide, agentSide] = createMemoryPair();
    server = serveAgent(agentSide, scenarioAgent({ versions: agentVersions }) as never);
    transport = clientSide;
  } else {
    transport = spawnAgent(process.execPath, [stdioFixture, agentVersions.join(",")], { stderr: "ignore", shutdownGraceMs: 500 });
  }
  const wire = new RecordingTransport(transport);
  const client = new Connection(wire, { side: "client" });
  return { client, wire, server, close: () => client.close("test done") };
}

/** Initialize offering `version` (with v1 fs when asked) and lock the connection to the answer. */
export async function initialize(started: Started, version: ProtocolVersion, fs = false): Promise<any> {
  const params =
    version === 1
      ? {
          protocolVersion: 1,
          clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal: false },
          clientInfo: { name: "raw-test-client", version: "0" },
        }
      : { protocolVersion: 2, capabilities: {}, clientInfo: { name: "raw-test-client", version: "0" } };
  const result: any = await started.client.request("initialize", params);
  started.client.setVersion(result.protocolVersion);
  return result;
}

export async function newSession(started: Started): Promise<string> {
  const result: any = await started.client.request("session/new", { cwd: "/work", mcpServers: [] });
  return result.sessionId;
}

export function prompt(started: Started, sessionId: string, text: string): Promise<any> {
  return started.client.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
}

/** Text of every agent message content (chunks and whole messages) of the session, in order. */
export function agentTexts(wire: RecordingTransport, sessionId: string): string[] {
  const texts: string[] = [];
  for (const update of wire.updates(sessionId)) {
    if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") texts.push(update.content.text);
    if (update.sessionUpdate === "agent_message") for (const block of update.content ?? []) if (block.type === "text") texts.push(block.text);
  }
  return texts;
}

/** Index in the wire log of the response to our request `id`. */
export function responseIndex(wire: RecordingTransport, id: number): number {
  return wire.received.findIndex((m) => m.id === id && m.method === undefined);
}
