// The built-in agent's commands for what the later v2 draft added (docs/protocol.md §12): a tool
// call the client can cancel, an agent-owned terminal, a permission about a command, a diff of a
// small file and the stop reason `error`. On v1 and the pinned v2 each degrades as
// docs/compatibility.md says: the call is not cancellable on its own, the terminal updates are
// acpkit extensions (v1 drops them, reported), the command permission is about a tool call.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import type { AgentTurn, PermissionOption, PromptResult } from "@acpkit/agent";
import { ErrorCode, RpcError } from "@acpkit/core";
import { sleep } from "./pacing.js";
import { isAllowed } from "./tools.js";

/** Longest `/cancellable SECONDS`, and the agent terminal's time limit. */
export const MAX_WORK_SECONDS = 600;
/** At most this much of an agent terminal's output is streamed (the rest is cut, and said so). */
const MAX_TERMINAL_OUTPUT_BYTES = 1 << 20;

function badArgument(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, { path: "/prompt" });
}

function seconds(command: string, argument: string): number {
  const raw = argument.trim();
  const value = Number(raw);
  if (raw === "" || !Number.isFinite(value) || value < 0 || value > MAX_WORK_SECONDS) {
    throw badArgument(`${command} needs SECONDS, a number from 0 to ${MAX_WORK_SECONDS} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

/**
 * `/cancellable SECONDS`: a tool call that advertises cancel and runs until the client cancels it
 * (`tool_call/cancel`: it ends `cancelled`, the turn goes on to end_turn), the turn is cancelled,
 * or the time is up (it completes).
 */
export async function cancellableWork(turn: AgentTurn, argument: string): Promise<PromptResult> {
  const limit = seconds("/cancellable", argument);
  const tool = turn.toolCall({ title: `Work for ${limit} s (cancellable)`, kind: "execute", status: "in_progress", cancellable: true });
  await turn.flush();
  const finished = await sleep(limit * 1000, tool.signal);
  if (turn.cancelled) {
    tool.cancelled();
    return "cancelled";
  }
  if (!finished) {
    tool.cancelled({ content: [{ type: "content", content: { type: "text", text: "Cancelled by the client." } }] });
    turn.message("The tool call was cancelled; the turn goes on.");
    return "end_turn";
  }
  tool.complete({ content: [{ type: "content", content: { type: "text", text: `Worked for ${limit} s.` } }] });
  return "end_turn";
}

/**
 * `/background SECONDS`: a tool call that keeps running after the turn ends (the turn ends at once,
 * `end_turn`) and completes SECONDS later, or ends `cancelled` when the client cancels it on its own
 * (it is cancellable). The later v2 draft sees it in the `background` of the turn's `idle` and of
 * the state update when it ends; v1 gets its updates after the turn (docs/compatibility.md).
 */
export function backgroundWork(turn: AgentTurn, argument: string): PromptResult {
  const limit = seconds("/background", argument);
  const tool = turn.toolCall({ title: `Background work for ${limit} s`, kind: "execute", status: "in_progress", background: true, cancellable: true });
  const timer = setTimeout(
    () => tool.complete({ content: [{ type: "content", content: { type: "text", text: `Worked for ${limit} s in the background.` } }] }),
    limit * 1000,
  );
  // The work holds no process open: an agent whose client went away may exit meanwhile.
  timer.unref();
  tool.signal.addEventListener("abort", () => {
    clearTimeout(timer);
    tool.cancelled();
  });
  turn.message(`Started ${tool.toolCallId} in the background; it completes in ${limit} s.`);
  return "end_turn";
}

/**
 * `/agent-terminal CMD [ARGS…]`: runs CMD in the session's directory (no shell) as an agent-owned
 * terminal shown in a tool call: output streamed, exit status reported; `terminal/cancel` or a
 * cancelled turn stops it. The client chose the command: this is a test agent run by its user.
 */
export async function agentTerminalCommand(turn: AgentTurn, cwd: string, argument: string): Promise<PromptResult> {
  // Split on whitespace, as /terminal does (no quoting).
  const words = argument.trim() === "" ? [] : argument.trim().split(/\s+/);
  if (words.length === 0) throw badArgument("/agent-terminal needs CMD [ARGS…], e.g. /agent-terminal ls -la");
  const [command, ...args] = words as [string, ...string[]];
  const terminal = turn.agentTerminal({ command: words.join(" "), cwd, cancellable: true });
  const tool = turn.toolCall({ title: `Run ${words.join(" ")}`, kind: "execute", status: "in_progress", content: [terminal.content] });
  const exit = await new Promise<{ exitCode: number | null; signal: string | null }>((done) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], signal: terminal.signal, timeout: MAX_WORK_SECONDS * 1000 });
    let sent = 0;
    const forward = (chunk: Buffer): void => {
      if (sent >= MAX_TERMINAL_OUTPUT_BYTES) return;
      const piece = chunk.subarray(0, MAX_TERMINAL_OUTPUT_BYTES - sent);
      sent += piece.length;
      terminal.write(piece);
      if (sent >= MAX_TERMINAL_OUTPUT_BYTES) terminal.write(`\n[output cut at ${MAX_TERMINAL_OUTPUT_BYTES} bytes]\n`);
    };
    child.stdout!.on("data", forward);
    child.stderr!.on("data", forward);
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.name !== "AbortError") terminal.write(`${command}: ${error.message}\n`);
    });
    child.on("close", (exitCode, signal) => done({ exitCode: exitCode ?? (signal === null ? 127 : null), signal }));
  });
  terminal.exit(exit);
  if (turn.cancelled) {
    tool.cancelled();
    return "cancelled";
  }
  if (exit.exitCode === 0) tool.complete();
  else tool.fail();
  return "end_turn";
}

const COMMAND_PERMISSION_OPTIONS: readonly PermissionOption[] = [
  { optionId: "run", name: "Run it", kind: "allow_once" },
  { optionId: "skip", name: "Do not run it", kind: "reject_once" },
];

/** `/command-permission CMD`: a permission request whose subject is the command CMD (nothing is run). */
export async function commandPermission(turn: AgentTurn, cwd: string, argument: string): Promise<PromptResult> {
  const command = argument.trim();
  if (command === "") throw badArgument("/command-permission needs CMD, the command line to ask about");
  const tool = turn.toolCall({ title: `Run ${command}`, kind: "execute", status: "pending", rawInput: { command, cwd } });
  const outcome = await turn.requestPermission({
    toolCall: { toolCallId: tool.toolCallId, title: `Run ${command}` },
    options: COMMAND_PERMISSION_OPTIONS,
    subject: { type: "command", command, cwd },
  });
  if (turn.cancelled || outcome.outcome === "cancelled") {
    tool.cancelled();
    return turn.cancelled ? "cancelled" : "end_turn";
  }
  const allowed = isAllowed(outcome, COMMAND_PERMISSION_OPTIONS);
  // Nothing is run: the command is only what the permission was about.
  if (allowed) tool.complete({ content: [{ type: "content", content: { type: "text", text: `Allowed (not run): ${command}` } }] });
  else tool.fail({ content: [{ type: "content", content: { type: "text", text: `Not allowed: ${command}` } }] });
  turn.message(allowed ? "Permission granted." : "Permission not granted.");
  return "end_turn";
}

/** The small file `/diff` edits (nothing is written). */
export const DIFF_EXAMPLE = { file: "greeting.txt", oldText: "Hello\nworld\n", newText: "Hello\nbrave new world\n" } as const;

/** `/diff`: an edit tool call with a diff of a small file (later v2: changes plus a git patch, computed). */
export function diffCommand(turn: AgentTurn, cwd: string): PromptResult {
  const path = resolve(cwd, DIFF_EXAMPLE.file);
  turn.toolCall({
    title: `Edit ${DIFF_EXAMPLE.file}`,
    kind: "edit",
    status: "completed",
    locations: [{ path }],
    content: [{ type: "diff", path, oldText: DIFF_EXAMPLE.oldText, newText: DIFF_EXAMPLE.newText }],
  });
  return "end_turn";
}

/** `/stop error`: the stop reason `error` with its JSON-RPC error (an error response on v1 and the pinned v2). */
export function stopWithError(turn: AgentTurn): PromptResult {
  turn.message("Stopping with stop reason error.");
  return { stopReason: "error", error: { code: ErrorCode.InternalError, message: "/stop error: the turn ended with stop reason error" } };
}
