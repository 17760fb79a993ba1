// The slash commands that drive the built-in agent from a client under test. A prompt whose text
// starts with "/" is a command; the rest of the text is its argument.
import { ErrorCode, RpcError } from "@acpkit/core";
import type { AvailableCommand, PromptResult, AgentTurn } from "@acpkit/agent";
import { sleep, untilAborted } from "./pacing.js";
import { stopReasonProblem } from "./stop-reasons.js";
import { splitWords } from "./text.js";
import { editWithPermission, readThroughClient } from "./tools.js";
import { elicit, playPlan, runTerminal, setConfig, setMode, setTitle, showNotice } from "./session-commands.js";
import { agentTerminalCommand, backgroundWork, cancellableWork, commandPermission, diffCommand, stopWithError } from "./work-commands.js";

/** What a command runs with. */
export interface CommandContext {
  turn: AgentTurn;
  /** The session's working directory (from session/new). */
  cwd: string;
  /** Pause between streamed chunks (`/stream`, `/echo`) in ms; 0 streams at full speed. */
  chunkDelayMs: number;
}

interface Command {
  /** How the command is written, for help and errors. */
  synopsis: string;
  /** One line for the client's command list (`available_commands_update`). */
  description: string;
  run(context: CommandContext, argument: string): PromptResult | Promise<PromptResult>;
}

/** Largest `/stream N`: beyond this the v1 bridge's per-message bookkeeping gets large. */
export const MAX_STREAM_CHUNKS = 10_000_000;
/** `/stream` waits for the transport after this many chunks, so memory stays bounded (backpressure). */
const STREAM_FLUSH_EVERY = 256;
/** 40 characters of filler; each `/stream` chunk is its number plus a slice of this. */
const STREAM_FILLER = "the quick brown fox jumps over the lazy dog ".repeat(2);

/** Send what is queued, then wait `ms`; false when the turn was cancelled meanwhile. */
async function paced(turn: AgentTurn, ms: number): Promise<boolean> {
  await turn.flush();
  return !turn.cancelled && (await sleep(ms, turn.signal));
}

function badArgument(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, { path: "/prompt" });
}

const commands: Record<string, Command> = {
  echo: {
    description: "Stream TEXT back as message chunks",
    synopsis: "/echo TEXT",
    async run({ turn, chunkDelayMs }, text) {
      if (text.trim() === "") throw badArgument("/echo needs TEXT to echo, e.g. /echo hello world");
      const message = turn.message();
      for (const piece of splitWords(text)) {
        message.append(piece);
        if (chunkDelayMs > 0 && !(await paced(turn, chunkDelayMs))) return "cancelled";
      }
      return "end_turn";
    },
  },
  wait: {
    description: "Wait until the turn is cancelled",
    synopsis: "/wait",
    async run({ turn }) {
      turn.message().append("Waiting until the turn is cancelled…");
      await untilAborted(turn.signal);
      return "cancelled";
    },
  },
  permission: {
    description: "Propose an edit and ask permission for it",
    synopsis: "/permission",
    async run({ turn, cwd }) {
      const result = await editWithPermission(turn, cwd);
      if (result === "cancelled") return "cancelled";
      turn.message(result === "allowed" ? "Permission granted: the edit was applied." : "Permission not granted: the edit was skipped.");
      return "end_turn";
    },
  },
  read: {
    description: "Read PATH through the client (v1 with fs)",
    synopsis: "/read PATH",
    async run({ turn, cwd }, path) {
      if (path.trim() === "") throw badArgument("/read needs a PATH (absolute, or relative to the session cwd)");
      const result = await readThroughClient(turn, cwd, path.trim());
      return result.status === "cancelled" ? "cancelled" : "end_turn";
    },
  },
  stop: {
    description: "End the turn with REASON (error: the later v2 draft's stop reason error)",
    synopsis: "/stop REASON",
    run({ turn }, argument) {
      const reason = argument.trim();
      if (reason === "") throw badArgument("/stop needs a REASON, e.g. /stop max_tokens");
      if (reason === "error") return stopWithError(turn);
      const problem = stopReasonProblem(reason, turn.client.protocolVersion);
      if (problem !== undefined) throw badArgument(`/stop: ${problem}`);
      turn.message(`Stopping with stop reason ${reason}.`);
      return reason;
    },
  },
  error: {
    description: "Fail the prompt with a JSON-RPC error",
    synopsis: "/error",
    run() {
      throw new Error("/error: the prompt handler failed on purpose");
    },
  },
  stream: {
    description: "Stream N message chunks (benchmarks)",
    synopsis: "/stream N",
    async run({ turn, chunkDelayMs }, argument) {
      const raw = argument.trim();
      if (!/^\d+$/.test(raw) || Number(raw) > MAX_STREAM_CHUNKS) {
        throw badArgument(`/stream needs N, a whole number of chunks from 0 to ${MAX_STREAM_CHUNKS} (got ${JSON.stringify(raw)})`);
      }
      const count = Number(raw);
      const message = turn.message();
      for (let i = 0; i < count; i++) {
        const label = `${i} `;
        message.append(label + STREAM_FILLER.slice(0, Math.max(0, 40 - label.length)));
        if (chunkDelayMs > 0) {
          if (!(await paced(turn, chunkDelayMs))) return "cancelled";
          continue;
        }
        // The writer never blocks the caller; waiting now and then is what applies backpressure.
        if (i % STREAM_FLUSH_EVERY === STREAM_FLUSH_EVERY - 1) {
          await turn.flush();
          if (turn.cancelled) return "cancelled";
        }
      }
      return "end_turn";
    },
  },
  mode: {
    description: "Switch the session's mode (v1)",
    synopsis: "/mode ID",
    run: ({ turn }, argument) => setMode(turn, argument),
  },
  config: {
    description: "Set a config option",
    synopsis: "/config ID VALUE",
    run: ({ turn }, argument) => setConfig(turn, argument),
  },
  commands: {
    description: "Announce the command list again",
    synopsis: "/commands",
    run({ turn }) {
      turn.availableCommands(availableCommandList());
      turn.message(`${Object.keys(commands).length} commands announced.`);
      return "end_turn";
    },
  },
  title: {
    description: "Set the session's title",
    synopsis: "/title TEXT",
    run: ({ turn }, argument) => setTitle(turn, argument),
  },
  plan: {
    description: "Play a three-step plan",
    synopsis: "/plan",
    run: ({ turn }) => playPlan(turn),
  },
  notice: {
    description: "Show a notice (v1 clients that advertise notices)",
    synopsis: "/notice TEXT",
    run: ({ turn }, argument) => showNotice(turn, argument),
  },
  terminal: {
    description: "Run CMD in a client terminal (v1 clients with terminals)",
    synopsis: "/terminal CMD [ARGS…]",
    run: ({ turn }, argument) => runTerminal(turn, argument),
  },
  elicit: {
    description: "Ask for your name through a form, or with URL send you to that page (v1 clients with elicitation)",
    synopsis: "/elicit [URL]",
    run: ({ turn }, argument) => elicit(turn, argument.trim()),
  },
  cancellable: {
    description: "A tool call you can cancel on its own (tool_call/cancel), running up to SECONDS",
    synopsis: "/cancellable SECONDS",
    run: ({ turn }, argument) => cancellableWork(turn, argument),
  },
  background: {
    description: "A tool call that runs on after the turn ends and completes SECONDS later (later v2: background work)",
    synopsis: "/background SECONDS",
    run: ({ turn }, argument) => backgroundWork(turn, argument),
  },
  "agent-terminal": {
    description: "Run CMD in an agent-owned terminal: streamed output and exit status (later v2)",
    synopsis: "/agent-terminal CMD [ARGS…]",
    run: ({ turn, cwd }, argument) => agentTerminalCommand(turn, cwd, argument),
  },
  "command-permission": {
    description: "Ask permission to run CMD (a permission whose subject is a command; nothing runs)",
    synopsis: "/command-permission CMD",
    run: ({ turn, cwd }, argument) => commandPermission(turn, cwd, argument),
  },
  diff: {
    description: "An edit tool call with a diff of a small file (nothing is written)",
    synopsis: "/diff",
    run: ({ turn, cwd }) => diffCommand(turn, cwd),
  },
};

/** The commands as the agent announces them in `available_commands_update`. */
export function availableCommandList(): AvailableCommand[] {
  return Object.entries(commands).map(([name, command]) => {
    const hint = command.synopsis.slice(name.length + 1).trim();
    return hint === "" ? { name, description: command.description } : { name, description: command.description, input: { hint } };
  });
}

/** Every command as written, e.g. "/echo TEXT". */
export const COMMAND_SYNOPSES: readonly string[] = Object.values(commands).map((command) => command.synopsis);

/** The command a prompt starts with: `/name` and the text after the first whitespace. */
export function parseCommand(text: string): { name: string; argument: string } | undefined {
  const match = /^\s*\/(\S*)(?:\s([\s\S]*))?$/.exec(text);
  return match ? { name: match[1]!, argument: match[2] ?? "" } : undefined;
}

/** Run the command `name`; an unknown one is a -32602 error listing the known ones. */
export function runCommand(context: CommandContext, name: string, argument: string): PromptResult | Promise<PromptResult> {
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) throw badArgument(`Unknown command "/${name}". The built-in agent knows: ${COMMAND_SYNOPSES.join(", ")}`);
  return command.run(context, argument);
}
