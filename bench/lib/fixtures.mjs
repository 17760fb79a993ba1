// Message fixtures shared by every implementation, so acpkit, the official SDK and the raw
// ceiling move exactly the same bytes. Plain JS because the agent fixtures (bench/agents/*.mjs)
// run as child processes without a TypeScript loader.

export const SESSION_ID = "bench-session-1";

/**
 * Session ids a fixture agent hands out: `bench-session-1` for a connection's first session (the
 * only one every scenario but latency opens), then `-2`, `-3`, … The latency scenario opens a
 * second session after its warm-up, so the measured prompts run on a session of their own.
 */
export function sessionIds() {
  let n = 0;
  return () => `bench-session-${++n}`;
}
export const MESSAGE_ID = "bench-message-1";

export const CHUNK_LENGTH = 40;

/** 40 characters of text for chunk `i`; varies per chunk so nothing can be interned away. */
export function chunkText(i) {
  const tag = String(i).padStart(8, "0");
  return `chunk ${tag} lorem ipsum dolor sit amet`.slice(0, 40).padEnd(40, ".");
}

/** The v1/v2-valid `agent_message_chunk` update the agent streams (messageId is optional in v1, required in v2). */
export function chunkUpdate(i) {
  return { sessionUpdate: "agent_message_chunk", messageId: MESSAGE_ID, content: { type: "text", text: chunkText(i) } };
}

/**
 * The prompt text tells a fixture agent what to do: `stream <n>` sends n chunks then ends the
 * turn; anything else ends the turn at once (the latency scenario).
 */
export function streamPrompt(n) {
  return `stream ${n}`;
}

export function parseStreamCount(text) {
  const match = /^stream (\d+)$/.exec(text ?? "");
  return match ? Number(match[1]) : 0;
}
