// The built-in test agent: one AgentDefinition for `acpkit agent` (stdio) and for in-process use.
// An ordinary prompt plays the demo turn, a prompt starting with "/" runs a slash command, and
// with a script every prompt replays the script instead.
import { readFileSync } from "node:fs";
import type { AgentDefinition, PromptResult, Turn } from "@acpkit/agent";
import type { ProtocolVersion } from "@acpkit/schema";
import { parseCommand, runCommand } from "./commands.js";
import { DEMO_PACE_MS, playDemoTurn } from "./demo-turn.js";
import type { AgentScript } from "./script.js";
import { playScript } from "./script-runner.js";
import { promptText } from "./text.js";

/** Options of `createBuiltinAgent`. */
export interface BuiltinAgentOptions {
  /** Highest protocol version: 1 answers every client with v1; 2 (default) speaks 1 and 2. */
  maxProtocol?: ProtocolVersion;
  /** Replay this script for every prompt (slash commands and the demo turn are off). */
  script?: AgentScript;
  /** Pause between the demo turn's stages in ms (default 40); 0 makes it instant. */
  demoPaceMs?: number;
}

function packageVersion(): string {
  try {
    // src/agent/*.ts and dist/agent/*.js both sit two levels below the package root.
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}

/**
 * The built-in agent's definition, for `serveAgent`. Sessions get ids `sess_1`, `sess_2`, … per
 * definition, so serve one definition per connection for reproducible transcripts.
 *
 * ```ts
 * serveAgent(stdioServer(), createBuiltinAgent({ maxProtocol: 2 }));
 * ```
 */
export function createBuiltinAgent(options: BuiltinAgentOptions = {}): AgentDefinition {
  const maxProtocol = options.maxProtocol ?? 2;
  if (maxProtocol !== 1 && maxProtocol !== 2) throw new RangeError(`createBuiltinAgent: maxProtocol must be 1 or 2 (got ${String(maxProtocol)})`);
  const paceMs = options.demoPaceMs ?? DEMO_PACE_MS;
  const script = options.script;
  const cwds = new Map<string, string>();
  let sessions = 0;

  return {
    info: { name: "acpkit-agent", title: "acpkit built-in agent", version: packageVersion() },
    versions: maxProtocol === 1 ? [1] : [1, 2],
    features: { prompt: { embeddedContext: true } },
    newSession(request) {
      const sessionId = `sess_${++sessions}`;
      cwds.set(sessionId, request.cwd);
      return { sessionId };
    },
    prompt(turn: Turn): PromptResult | Promise<PromptResult> {
      const cwd = cwds.get(turn.sessionId) ?? process.cwd();
      if (script) return playScript(turn, script, cwd);
      const text = promptText(turn.prompt);
      const command = parseCommand(text);
      if (command) return runCommand({ turn, cwd }, command.name, command.argument);
      return playDemoTurn(turn, { cwd, text, paceMs });
    },
  };
}
