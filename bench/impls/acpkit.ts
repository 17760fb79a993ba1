// acpkit as a benchmark client: connectAgent over @acpkit/transport-memory (object mode, like the
// official SDK's in-process pair), @acpkit/transport-stdio (a real child process) and
// @acpkit/transport-websocket; the session's SessionState is the client state every update is
// applied to. Also the reducer and bridge measurements, which only acpkit has.
import { fileURLToPath } from "node:url";
import { applyUpdate, connectAgent, createSessionState, type ClientSession, type SessionState } from "@acpkit/client";
import type { Transport } from "@acpkit/core";
import { createMemoryPair } from "@acpkit/transport-memory";
import { spawnAgent } from "@acpkit/transport-stdio";
import { connect } from "@acpkit/transport-websocket";
import { VALIDATE_OUTGOING, serveAcpkitAgent } from "../agents/acpkit-app.mjs";
import { CHUNK_LENGTH, chunkText, streamPrompt } from "../lib/fixtures.mjs";
import { agentNodeArgs, agentScript, spawnAgent as spawnPlainChild, stopAgent, waitForPort } from "../lib/child.js";
import { type BenchSession, type Channel, type ClientImpl, REDIS_URL_ENV } from "../lib/impl.js";

/** Every chunk the fixture agents send is CHUNK_LENGTH characters, so text length counts chunks. */
function appliedChunks(state: SessionState): number {
  let characters = 0;
  for (const message of state.messages) {
    if (message.kind !== "agent_message") continue;
    for (const block of message.content) if (block.type === "text") characters += (block as { text: string }).text.length;
  }
  return characters / CHUNK_LENGTH;
}

type AgentVariant = "default" | "plain-v1" | "via-proxy";

/** The built `acpkit` binary, for the proxy measurement (`pnpm bench` builds every package first). */
const ACPKIT_BIN = fileURLToPath(new URL("../../packages/cli/dist/bin.js", import.meta.url));

async function openTransport(channel: Channel, variant: AgentVariant = "default"): Promise<{ transport: Transport; stop(): Promise<void> }> {
  if (channel === "memory") {
    const [clientSide, agentSide] = createMemoryPair({ mode: "object" });
    serveAcpkitAgent(agentSide);
    return { transport: clientSide, stop: async () => {} };
  }
  if (channel === "stdio" && variant === "via-proxy") {
    // An editor's setup: it starts `acpkit proxy`, which starts the agent and reaches it in the later v2 draft.
    const agent = [process.execPath, ...agentNodeArgs(), agentScript("acpkit-agent.mjs"), "stdio", "default"];
    const transport = spawnAgent(process.execPath, [...agentNodeArgs(), ACPKIT_BIN, "proxy", "--dialect", "later", "--", ...agent], { shutdownGraceMs: 2000 });
    return { transport, stop: async () => {} };
  }
  if (channel === "stdio") {
    const transport = spawnAgent(process.execPath, [...agentNodeArgs(), agentScript("acpkit-agent.mjs"), "stdio", variant], { shutdownGraceMs: 2000 });
    return { transport, stop: async () => {} };
  }
  if (channel === "http" || channel === "endpoint-ws") {
    const child = spawnPlainChild(agentScript("acpkit-agent.mjs"), ["http"]);
    const port = await waitForPort(child);
    const { connectHttp } = await import("@acpkit/transport-http");
    const transport = channel === "http" ? connectHttp(`http://127.0.0.1:${port}/acp`) : await connect(`ws://127.0.0.1:${port}/acp`);
    return { transport, stop: () => stopAgent(child) };
  }
  if (channel === "fleet-memory" || channel === "fleet-redis") {
    // One fleet node, its state in the backend: every message the agent sends is an append, every
    // stream read a backend read (RT30–RT32). The Redis URL comes from the scenario (REDIS_URL_ENV).
    const backend = channel === "fleet-memory" ? "memory" : process.env[REDIS_URL_ENV];
    if (backend === undefined) throw new Error(`${channel} needs ${REDIS_URL_ENV}`);
    const child = spawnPlainChild(agentScript("acpkit-agent.mjs"), ["fleet", backend]);
    const port = await waitForPort(child);
    const { connectHttp } = await import("@acpkit/transport-http");
    return { transport: connectHttp(`http://127.0.0.1:${port}/acp`), stop: () => stopAgent(child) };
  }
  const child = spawnPlainChild(agentScript("acpkit-agent.mjs"), ["ws"]);
  const port = await waitForPort(child);
  const transport = await connect(`ws://127.0.0.1:${port}/acp`);
  return { transport, stop: () => stopAgent(child) };
}

/** A session on the given channel. The acpkit client speaks v1 here, like the official SDK's default entry. */
async function openAcpkit(
  channel: Channel,
  options: { variant?: AgentVariant; protocolVersion?: 1 | 2; v2Dialect?: "pinned" | "later" } = {},
): Promise<BenchSession> {
  const { transport, stop } = await openTransport(channel, options.variant);
  const agent = await connectAgent(transport, {
    protocolVersion: options.protocolVersion ?? 1,
    ...(options.v2Dialect === undefined ? {} : { v2Dialect: options.v2Dialect }),
    clientInfo: { name: "bench-acpkit-client", version: "0.0.0" },
    validateOutgoing: VALIDATE_OUTGOING,
  });
  if (agent.protocolVersion !== (options.protocolVersion ?? 1)) {
    throw new Error(`acpkit: negotiated v${agent.protocolVersion}, expected v${options.protocolVersion ?? 1}`);
  }
  let session: ClientSession = await agent.newSession({ cwd: "/" });
  return {
    async prompt(text) {
      await session.prompt(text);
    },
    async restart() {
      session = await agent.newSession({ cwd: "/" });
    },
    applied: () => appliedChunks(session.state),
    async close() {
      await agent.close();
      await stop();
    },
  };
}

export const acpkitImpl: ClientImpl = {
  name: "acpkit",
  unavailable: async () => undefined,
  open: (channel) => openAcpkit(channel),
};

// ── reducer ────────────────────────────────────────────────────────────────────────────────

/** The reducer scenario's updates: v2 chunks to one message, or content chunks to one tool call. */
function reducerUpdates(target: "message" | "toolcall", size: number): unknown[] {
  const updates: unknown[] = [];
  if (target === "toolcall") updates.push({ sessionUpdate: "tool_call_update", toolCallId: "call-1", title: "Run the tests", status: "in_progress" });
  for (let i = 0; i < size; i++) {
    const text = { type: "text", text: chunkText(i) };
    updates.push(
      target === "message"
        ? { sessionUpdate: "agent_message_chunk", messageId: "m-1", content: text }
        : { sessionUpdate: "tool_call_content_chunk", toolCallId: "call-1", content: { type: "content", content: text } },
    );
  }
  return updates;
}

/** ns per update when applying `size` chunks to one message (or one tool call) from an empty state. */
export async function measureReducer(target: "message" | "toolcall", size: number): Promise<number> {
  const updates = reducerUpdates(target, size);
  const run = () => {
    let state = createSessionState("bench-session", 2);
    const start = process.hrtime.bigint();
    for (let i = 0; i < updates.length; i++) state = applyUpdate(state, updates[i] as never);
    const nanos = Number(process.hrtime.bigint() - start);
    const applied = target === "message" ? state.message("m-1")?.content.length : state.toolCall("call-1")?.content?.length;
    if (applied !== size) throw new Error(`reducer ${target}: ${applied} items after ${size} chunks`);
    return nanos / updates.length;
  };
  run(); // warm-up
  return Math.min(run(), run());
}

export async function reducerUnavailable(): Promise<string | undefined> {
  return typeof applyUpdate === "function" && typeof createSessionState === "function"
    ? undefined
    : "@acpkit/client does not export applyUpdate/createSessionState";
}

// ── bridge ─────────────────────────────────────────────────────────────────────────────────

export type BridgeMode = "bridge" | "plain-v1" | "v2-native" | "v2-later" | "v1-via-proxy";

/**
 * updates/s of one stream-stdio turn:
 * - bridge: acpkit's agent (model, v2-shaped) → its v1 bridge → v1 wire → acpkit client on v1;
 * - plain-v1: an agent that writes v1 updates directly on acpkit's core Connection (no model, no
 *   bridge) → the same acpkit client on v1;
 * - v2-native: acpkit agent and client on the pinned v2, where updates pass through unconverted;
 * - v2-later: the same agent and client on the later v2 draft, every message through both sides'
 *   later-v2 codecs (docs/protocol.md §12);
 * - v1-via-proxy: the client on v1 in front of `acpkit proxy`, which reaches the same agent in the
 *   later v2 draft (a v1 editor in front of a later-v2 agent; docs/protocol.md A15): three processes.
 */
export async function measureBridge(mode: BridgeMode, warmup: number, updates: number): Promise<number> {
  const session = await openAcpkit(
    "stdio",
    mode === "plain-v1" || mode === "v1-via-proxy"
      ? { variant: mode === "plain-v1" ? ("plain-v1" as const) : ("via-proxy" as const) }
      : mode === "v2-later"
        ? { protocolVersion: 2, v2Dialect: "later" }
        : { protocolVersion: mode === "v2-native" ? 2 : 1, ...(mode === "v2-native" ? { v2Dialect: "pinned" as const } : {}) },
  );
  try {
    await session.prompt(streamPrompt(warmup));
    const before = session.applied();
    const start = process.hrtime.bigint();
    await session.prompt(streamPrompt(updates));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const applied = session.applied() - before;
    if (applied !== updates) throw new Error(`bridge ${mode}: ${applied} of ${updates} updates applied`);
    return updates / seconds;
  } finally {
    await session.close();
  }
}

export async function bridgeUnavailable(): Promise<string | undefined> {
  return undefined;
}
