#!/usr/bin/env node
// A minimal ACP agent over stdio. It serves v1 and v2 clients from one implementation: each prompt
// gets a short plan, one tool call and an answer that repeats the prompt's text.
//
//   node minimal-agent.mjs                                        (speaks ACP on stdin/stdout)
//   npx @acpkit/cli run --prompt "hello" -- node minimal-agent.mjs
import { serveAgent } from "@acpkit/agent";
import { stdioServer } from "@acpkit/transport-stdio";

serveAgent(stdioServer(), {
  info: { name: "minimal-agent", version: "1.0.0" },
  async prompt(turn) {
    const text = turn.prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    turn.plan([{ content: "Count the words", priority: "high", status: "in_progress" }]);
    const tool = turn.toolCall({ title: "Count words", kind: "think", status: "in_progress" });
    const words = text.split(/\s+/).filter(Boolean).length;
    tool.complete({ rawOutput: { words } });
    turn.plan([{ content: "Count the words", priority: "high", status: "completed" }]);
    turn.message(`You said "${text}" (${words} words).`);
    return "end_turn";
  },
});
