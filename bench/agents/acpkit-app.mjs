// The benchmark agent written against acpkit (@acpkit/agent): the same fixture protocol as the
// official and raw agents (lib/fixtures.mjs). Its chunks go through one MessageHandle, which is how
// an acpkit agent streams a message; it flushes every 256 chunks so memory stays bounded under
// backpressure, as a well-behaved agent would.
import { serveAgent } from "@acpkit/agent";
import { Connection, loadProtocolVersion, sessionUpdateParams } from "@acpkit/core";
import { chunkText, chunkUpdate, parseStreamCount, sessionIds } from "../lib/fixtures.mjs";

/** Incoming validation stays on at both ends (as in the official SDK); the development-mode
 *  outgoing check is off unless ACPKIT_BENCH_VALIDATE_OUTGOING=1, as in production. */
export const VALIDATE_OUTGOING = process.env.ACPKIT_BENCH_VALIDATE_OUTGOING === "1";

const FLUSH_EVERY = Number(process.env.ACPKIT_BENCH_FLUSH_EVERY ?? 256);
/** The naive-agent scenario: "messages" makes every chunk a `turn.message(text)` of its own, never awaited. */
const NAIVE = process.env.ACPKIT_BENCH_NAIVE;

function promptCount(turn) {
  const first = turn.prompt[0];
  return parseStreamCount(first && first.type === "text" ? first.text : "");
}

/** @param {readonly (1|2)[]} versions */
export function acpkitAgentDefinition(versions = [1, 2]) {
  const nextSessionId = sessionIds();
  return {
    info: { name: "bench-acpkit-agent", version: "0.0.0" },
    versions,
    newSession: () => ({ sessionId: nextSessionId() }),
    async prompt(turn) {
      const count = promptCount(turn);
      if (count === 0) return "end_turn";
      if (NAIVE === "messages") {
        for (let i = 0; i < count; i++) turn.message(chunkText(i));
        return "end_turn";
      }
      const message = turn.message();
      for (let i = 0; i < count; i++) {
        message.append(chunkText(i));
        if (i % FLUSH_EVERY === FLUSH_EVERY - 1) await turn.flush();
      }
      return "end_turn";
    },
  };
}

export function serveAcpkitAgent(transport, versions) {
  return serveAgent(transport, acpkitAgentDefinition(versions), { validateOutgoing: VALIDATE_OUTGOING });
}

/**
 * A v1 agent on acpkit's core Connection with no agent runtime and no bridge: it writes v1
 * `session/update` params directly. The bridge scenario's "plain v1" baseline.
 */
export async function servePlainV1Agent(transport) {
  // A Connection driven by hand loads its version's validators itself (serveAgent would).
  await loadProtocolVersion(1);
  const connection = new Connection(transport, { side: "agent", version: 1, requireInitialize: true, validateOutgoing: VALIDATE_OUTGOING });
  connection.onRequest("initialize", () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }));
  const nextSessionId = sessionIds();
  connection.onRequest("session/new", () => ({ sessionId: nextSessionId() }));
  connection.onRequest("session/prompt", async (params) => {
    const first = params.prompt[0];
    const count = parseStreamCount(first && first.type === "text" ? first.text : "");
    for (let i = 0; i < count; i++) {
      // sessionUpdateParams, as the agent runtime does: the two agents then differ only by the bridge.
      const sent = connection.notify("session/update", sessionUpdateParams(params.sessionId, chunkUpdate(i)));
      if (i % FLUSH_EVERY === FLUSH_EVERY - 1) await sent;
    }
    return { stopReason: "end_turn" };
  });
  return connection;
}
