// Shared by the agent*.test.ts files: the built-in agent served in-process over a memory pair,
// driven by @acpkit/client, with every wire message the client received recorded in order.
import { serveAgent, type AgentServer } from "@acpkit/agent";
import {
  connectAgent,
  type ConnectedAgent,
  type ClientSession,
  type FileSystemHandlers,
  type SessionUpdate,
  type PermissionOutcome,
  type PermissionRequest,
} from "@acpkit/client";
import type { Diagnostic } from "@acpkit/core";
import { RecordingTransport, type WireMessage } from "@acpkit/test-support/recording-transport";
import type { ProtocolVersion } from "@acpkit/schema";
import { createMemoryPair } from "@acpkit/transport-memory";
import { createBuiltinAgent, type AgentScript } from "../src/test-agent/index.js";

export type { WireMessage };

/** How the test client answers permission requests. */
export type PermissionAnswer = "allow" | "reject" | "cancel-turn";

export interface StartOptions {
  /** The agent's --max-protocol (default 2). */
  maxProtocol?: ProtocolVersion;
  /** The version the client offers (default 2). */
  offer?: ProtocolVersion;
  script?: AgentScript;
  /** Client file system (v1 only: advertised for the methods given). */
  fs?: FileSystemHandlers;
  permission?: PermissionAnswer;
  cwd?: string;
}

export interface Started {
  agent: ConnectedAgent;
  session: ClientSession;
  server: AgentServer;
  wire: RecordingTransport;
  permissionRequests: PermissionRequest[];
  agentDiagnostics: Diagnostic[];
  close(): Promise<void>;
}

export const CWD = "/home/user/project";

export async function startBuiltinAgent(options: StartOptions = {}): Promise<Started> {
  const [clientSide, agentSide] = createMemoryPair();
  const agentDiagnostics: Diagnostic[] = [];
  const server = serveAgent(
    agentSide,
    createBuiltinAgent({ maxProtocol: options.maxProtocol ?? 2, demoPaceMs: 0, ...(options.script ? { script: options.script } : {}) }),
    { onDiagnostic: (d) => agentDiagnostics.push(d) },
  );
  const wire = new RecordingTransport(clientSide);
  const permissionRequests: PermissionRequest[] = [];
  let session: ClientSession | undefined;
  const agent = await connectAgent(wire, {
    protocolVersion: options.offer ?? 2,
    clientInfo: { name: "agent-test-client", version: "0.0.0" },
    ...(options.fs ? { fs: options.fs } : {}),
    requestPermission: (request): PermissionOutcome | Promise<PermissionOutcome> => {
      permissionRequests.push(request);
      const answer = options.permission ?? "allow";
      if (answer === "cancel-turn") {
        // Cancelling answers this very request "cancelled" (client duty C3).
        void session!.turn!.cancel();
        return new Promise<PermissionOutcome>(() => {});
      }
      const kind = answer === "allow" ? "allow_once" : "reject_once";
      const option = request.options.find((o) => o.kind === kind)!;
      return { outcome: "selected", optionId: option.optionId };
    },
  });
  session = await agent.newSession({ cwd: options.cwd ?? CWD });
  // The agent announces its commands right after session/new; wait for that, so every test's
  // first turn starts from a quiet session and sees only its own updates.
  await commandsAnnounced(session);
  return {
    agent,
    session,
    server,
    wire,
    permissionRequests,
    agentDiagnostics,
    close: () => agent.close(),
  };
}

/** Resolves once the session has the agent's `available_commands_update`. */
export function commandsAnnounced(session: ClientSession): Promise<void> {
  if (session.state.availableCommands.length > 0) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = session.onUpdate((update) => {
      if (update.sessionUpdate !== "available_commands_update") return;
      stop();
      resolve();
    });
  });
}

/** Run one prompt to its end; returns the model updates of the turn and the outcome. */
export async function runPrompt(session: ClientSession, text: string): Promise<{ updates: SessionUpdate[]; stopReason: string; _meta?: unknown }> {
  const turn = session.prompt(text);
  const updates: SessionUpdate[] = [];
  for await (const update of turn) updates.push(update);
  const outcome = await turn;
  return { updates, stopReason: outcome.stopReason, _meta: outcome._meta };
}

/** Tags of the updates with consecutive repeats collapsed: ["plan_update", "agent_thought_chunk", …]. */
export function tagRuns(updates: readonly unknown[]): string[] {
  const runs: string[] = [];
  for (const update of updates) {
    const tag = (update as { sessionUpdate: string }).sessionUpdate;
    if (runs[runs.length - 1] !== tag) runs.push(tag);
  }
  return runs;
}

/** The concatenated text of every chunk update with `tag` for `messageId`. */
export function chunkText(updates: readonly any[], tag: string, messageId?: string): string {
  return updates
    .filter((u) => u.sessionUpdate === tag && (messageId === undefined || u.messageId === messageId))
    .map((u) => u.content.text)
    .join("");
}
