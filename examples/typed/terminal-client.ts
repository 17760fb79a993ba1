// A client that lets the agent run commands in terminals and ask the user to fill in forms (both
// are v1 client services, advertised only because they are given here). It prints each terminal
// the agent opens and what it showed, and fills every form from the schema's defaults, with
// NAME_FOR_FORMS for the name when set.
//
//   npx tsx typed/terminal-client.ts "/terminal node --version" -- npx @acpkit/cli agent
//
// Everything after `--` is the agent's command line; the first argument is the prompt.
import type { ElicitationSchema } from "@acpkit/client";
import { connectAgent } from "@acpkit/client";
import { createNodeTerminalHost } from "@acpkit/client/node";
import { spawnAgent } from "@acpkit/transport-stdio";

const [prompt, separator, command, ...args] = process.argv.slice(2);
if (prompt === undefined || separator !== "--" || command === undefined) {
  console.error("usage: terminal-client.ts PROMPT -- AGENT-COMMAND [ARGS…]");
  process.exit(2);
}

/** A form's answer from its defaults (a user who accepts what is offered), the name from the environment. */
function defaultsOf(schema: ElicitationSchema): Record<string, string | number | boolean | string[]> {
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const fallback = (property as { default?: unknown }).default;
    if (typeof fallback === "string" || typeof fallback === "number" || typeof fallback === "boolean") content[key] = fallback;
  }
  if (process.env.NAME_FOR_FORMS && "name" in content) content.name = process.env.NAME_FOR_FORMS;
  return content;
}

const terminals = createNodeTerminalHost(); // real child processes, confined to the session's cwd
const agent = await connectAgent(spawnAgent(command, args), {
  protocolVersion: 1, // client terminals and forms are v1 services
  terminal: {
    async create(request, context) {
      const created = await terminals.create(request, context);
      console.log(`terminal ${created.terminalId}: ${[request.command, ...request.args].join(" ")}`);
      return created;
    },
    output: (terminalId) => terminals.output(terminalId),
    async waitForExit(terminalId) {
      const status = await terminals.waitForExit(terminalId);
      const { output } = await terminals.output(terminalId);
      console.log(`terminal ${terminalId} exited ${status.exitCode ?? status.signal}: ${JSON.stringify(output)}`);
      return status;
    },
    kill: (terminalId) => terminals.kill(terminalId),
    release: (terminalId) => terminals.release(terminalId),
  },
  elicitation: {
    form(request) {
      const content = defaultsOf(request.requestedSchema);
      console.log(`form: ${request.message} -> ${JSON.stringify(content)}`);
      return { action: "accept", content };
    },
  },
});

const session = await agent.newSession({ cwd: process.cwd() });
const { stopReason } = await session.prompt(prompt);
for (const message of session.state.messages.filter((entry) => entry.kind === "agent_message"))
  console.log(`agent: ${message.content.map((block) => (block.type === "text" ? block.text : "")).join("")}`);
for (const call of session.state.toolCalls) console.log(`tool call: ${call.title} (${call.status})`);
console.log(`stop reason: ${stopReason}`);
await terminals.closeAll();
await agent.close();
