// The slash commands that exercise the session surface: modes, config options, commands, session
// info, plans, notices, client terminals and elicitation. Each ends its turn with end_turn; a
// feature the client or the protocol version lacks is a -32602 error saying which.
import { isAcpError, ErrorCode, RpcError } from "@acpkit/core";
import type { FormElicitation, PromptResult, AgentTurn } from "@acpkit/agent";
import { sleep } from "./pacing.js";
import { splitWords } from "./text.js";

/** A failed feature call (AcpError "Unsupported"/"InvalidArgument") as the JSON-RPC error the client sees. */
function asPromptError(error: unknown): never {
  if (isAcpError(error)) throw new RpcError(ErrorCode.InvalidParams, error.message, { path: "/prompt", reason: error.code });
  throw error;
}

function need(argument: string, message: string): string {
  const value = argument.trim();
  if (value === "") throw new RpcError(ErrorCode.InvalidParams, message, { path: "/prompt" });
  return value;
}

export function setMode(turn: AgentTurn, argument: string): PromptResult {
  const modeId = need(argument, "/mode needs a mode ID, e.g. /mode code");
  try {
    turn.setMode(modeId);
  } catch (error) {
    asPromptError(error);
  }
  turn.message(`Mode is now ${modeId}.`);
  return "end_turn";
}

export function setConfig(turn: AgentTurn, argument: string): PromptResult {
  const [configId, value] = splitWords(argument.trim()).map((word) => word.trim());
  if (!configId || !value)
    throw new RpcError(ErrorCode.InvalidParams, "/config needs an option ID and a VALUE, e.g. /config model thorough", { path: "/prompt" });
  const option = turn.configOptions.find((candidate) => candidate.id === configId);
  const typed = option?.type === "boolean" ? value === "true" : value;
  try {
    turn.setConfigValue(configId, typed);
  } catch (error) {
    asPromptError(error);
  }
  turn.message(`${configId} is now ${value}.`);
  return "end_turn";
}

export function setTitle(turn: AgentTurn, argument: string): PromptResult {
  const title = need(argument, "/title needs TEXT, e.g. /title Fix the build");
  turn.sessionInfo({ title, updatedAt: new Date().toISOString() });
  turn.message(`Title set to "${title}".`);
  return "end_turn";
}

export async function playPlan(turn: AgentTurn): Promise<PromptResult> {
  const steps = ["Read the code", "Make the change", "Run the tests"];
  for (let done = 0; done <= steps.length; done++) {
    turn.plan(
      steps.map((content, index) => ({
        content,
        priority: index === 0 ? "high" : "medium",
        status: index < done ? "completed" : index === done ? "in_progress" : "pending",
      })),
    );
    if (!(await sleep(20, turn.signal))) return "cancelled";
  }
  turn.message("Plan done.");
  return "end_turn";
}

export function showNotice(turn: AgentTurn, argument: string): PromptResult {
  const title = need(argument, "/notice needs TEXT, e.g. /notice Rate limited, retrying");
  try {
    turn.notice({ severity: "info", title });
  } catch (error) {
    asPromptError(error);
  }
  turn.message("Notice sent.");
  return "end_turn";
}

/** Run a command in a client terminal, shown in a tool call, and report how it ended. */
export async function runTerminal(turn: AgentTurn, argument: string): Promise<PromptResult> {
  const [command, ...args] = need(argument, "/terminal needs a CMD, e.g. /terminal ls -l").split(/\s+/);
  let terminal: Awaited<ReturnType<AgentTurn["createTerminal"]>>;
  try {
    terminal = await turn.createTerminal({ command: command!, args, outputByteLimit: 64 * 1024 });
  } catch (error) {
    asPromptError(error);
  }
  const tool = turn.toolCall({ title: `Run ${[command, ...args].join(" ")}`, kind: "execute", status: "in_progress", content: [terminal.content] });
  try {
    const status = await Promise.race([
      terminal.waitForExit(),
      new Promise<undefined>((resolve) => turn.signal.addEventListener("abort", () => resolve(undefined), { once: true })),
    ]);
    if (status === undefined) {
      await terminal.kill().catch(() => undefined);
      return "cancelled";
    }
    const output = await terminal.output();
    if (status.exitCode === 0) tool.complete();
    else tool.fail();
    const how = status.signal ? `was stopped by ${status.signal}` : `exited with code ${status.exitCode}`;
    turn.message(`The command ${how}${output.truncated ? " (output truncated)" : ""}.`);
    return "end_turn";
  } finally {
    await terminal.release().catch(() => undefined);
  }
}

const ABOUT_YOU_FORM: FormElicitation = {
  message: "Tell the built-in agent about you",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Your name", default: "Ada" },
      subscribe: { type: "boolean", title: "Subscribe to updates", default: false },
    },
    required: ["name"],
  },
};

/**
 * Ask for a name and a yes/no through a form; with `url`, send the user to that address instead
 * (a URL elicitation, sent as given, so a client's handling of any address can be tried). Echo
 * the answer.
 */
export async function elicit(turn: AgentTurn, url: string): Promise<PromptResult> {
  let answer: Awaited<ReturnType<AgentTurn["elicit"]>>;
  try {
    answer = url !== "" ? await turn.elicitUrl({ message: "Open this page, then come back", url }) : await turn.elicit(ABOUT_YOU_FORM);
  } catch (error) {
    asPromptError(error);
  }
  if (turn.cancelled) return "cancelled";
  const content = answer.action === "accept" ? ` ${JSON.stringify((answer as { content?: unknown }).content ?? {})}` : "";
  turn.message(`Elicitation answered: ${answer.action}${content}`);
  return "end_turn";
}
