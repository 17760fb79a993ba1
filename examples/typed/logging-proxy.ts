// A logging proxy between an editor and an agent: configure it as the agent command in your editor,
// with the real agent after `--`. Every message is passed on unchanged, in order, with the editor
// and agent negotiating between themselves; each one is also appended to LOGFILE as one line,
// `→ {…}` from the editor and `← {…}` from the agent: a transcript `acpkit validate LOGFILE` checks.
//
//   npx tsx typed/logging-proxy.ts session.ndjson -- npx @acpkit/cli agent
import { appendFileSync } from "node:fs";
import type { JsonRpcMessage, Transport } from "@acpkit/core";
import { forwardingReceiver, wrapTransport } from "@acpkit/core/transport-kit";
import { relayBetween, spawnAgent, stdioServer } from "@acpkit/transport-stdio";

const [logFile, separator, command, ...args] = process.argv.slice(2);
if (logFile === undefined || separator !== "--" || command === undefined) {
  console.error("usage: logging-proxy.ts LOGFILE -- AGENT-COMMAND [ARGS…]");
  process.exit(2);
}

function log(from: "editor" | "agent", message: unknown): void {
  appendFileSync(logFile!, `${from === "editor" ? "→" : "←"} ${typeof message === "string" ? message : JSON.stringify(message)}\n`);
}

/** The agent's transport, with what goes to it and what comes from it logged on the way. */
function logged(agent: Transport): Transport {
  return wrapTransport(agent, {
    send(message: JsonRpcMessage | JsonRpcMessage[], inner) {
      log("editor", message);
      return inner.send(message);
    },
    // The receiver's optional hooks (end of input, congestion) pass through untouched.
    receiver: (outer) =>
      forwardingReceiver(outer, {
        onMessage(message) {
          log("agent", message);
          outer.onMessage(message);
        },
      }),
  });
}

// stdout belongs to the editor's protocol: the relay's own notes go to stderr.
await relayBetween(stdioServer(), logged(spawnAgent(command, args, { stderr: "inherit" })), (note) => process.stderr.write(`logging-proxy: ${note}\n`));
