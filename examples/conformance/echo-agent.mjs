// The agent under test in this example: it streams a prompt back word by word, one word each
// 50 ms, and stops when the client cancels. Any AgentDefinition checks the same way.
import { setTimeout as sleep } from "node:timers/promises";

/** @type {import("@acpkit/agent").AgentDefinition} */
export const echoAgent = {
  info: { name: "echo-agent", version: "1.0.0" },
  async prompt(turn) {
    const text = turn.prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    const words = `You said: ${text}. Streaming it back slowly so that it can be cancelled.`.split(" ");
    const answer = turn.message();
    for (const word of words) {
      if (turn.cancelled) return "cancelled";
      answer.append(`${word} `);
      await sleep(50, undefined, { signal: turn.signal }).catch(() => {});
    }
    return turn.cancelled ? "cancelled" : "end_turn";
  },
};
