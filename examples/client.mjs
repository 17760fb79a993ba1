#!/usr/bin/env node
// A client: starts an agent as a child process, runs one prompt turn and prints it as it streams,
// then prints the session's final state (the same model for a v1 and a v2 agent).
//
//   node client.mjs "count these words"                 (drives minimal-agent.mjs)
//   node client.mjs "hello" -- node some-other-agent.js
import { connectAgent } from "@acpkit/client";
import { spawnAgent } from "@acpkit/transport-stdio";

const [promptText = "hello", separator, command, ...args] = process.argv.slice(2);
const agentCommand = separator === "--" && command ? [command, args] : [process.execPath, [new URL("minimal-agent.mjs", import.meta.url).pathname]];

const agent = await connectAgent(spawnAgent(agentCommand[0], agentCommand[1]), { protocolVersion: 2 });
console.log(`connected: ${agent.agentInfo?.name ?? "agent"}, protocol v${agent.protocolVersion}`);
const session = await agent.newSession({ cwd: process.cwd() });
const turn = session.prompt(promptText);
for await (const update of turn) console.log(`update: ${String(update.sessionUpdate)}`);
const { stopReason } = await turn;
console.log(`stop reason: ${stopReason}`);
const state = session.state.toJSON();
console.log(
  `answer: ${state.messages
    .at(-1)
    ?.content.map((block) => block.text ?? "")
    .join("")}`,
);
console.log(`tool calls: ${state.toolCalls.map((call) => `${call.title} (${call.status})`).join(", ")}`);
await agent.close();
