// Prints a prompt turn for people as it streams: one line per event (plan, thought, tool call,
// permission, file access, usage, stop reason) and the agent's answer text written as it arrives.
// Colors come from the Style, so piped output is plain text.
//
// Streaming text and whole lines share one output: the printer remembers whether a message or
// thought is "open" (its text is mid-line) and ends that line before printing anything else.
import type { Writable } from "node:stream";
import type { MessageJSON, SessionUpdate, PermissionOption, PermissionOutcome, StopReason, TerminalExitStatus } from "@acpkit/client";
import {
  AGENT_TERMINAL_OUTPUT,
  AGENT_TERMINAL_UPDATE,
  COMPACTION_SUMMARY_CHUNK,
  COMPACTION_UPDATE,
  CURRENT_MODE_UPDATE,
  isJsonObject,
  NOTICE_UPDATE,
  ownEntry,
  STATE_UPDATE,
} from "@acpkit/core";
import type { Style } from "../style.js";
import { contentBlockText, summarizeToolContent } from "./content-text.js";

type Json = Record<string, unknown>;

/** How a permission answer was reached, shown after the choice. */
export type PermissionSource = "auto" | "you" | "turn cancelled" | "no answer";

interface OpenStream {
  kind: "message" | "thought";
  messageId: string;
}

const PLAN_STATUS_MARK: Record<string, string> = { pending: "○", in_progress: "◐", completed: "●" };

/** Writes one session's turns to `out` for people; feed it updates, permissions, file access and stop reasons in arrival order. */
export class TurnPrinter {
  private open: OpenStream | undefined;
  /** Entry statuses of each plan seen, so a replaced plan prints only what changed. */
  private readonly plans = new Map<string, Map<string, string>>();
  /** Titles and last statuses of the tool calls seen, so later updates can name them. */
  private readonly toolCalls = new Map<string, { title: string; status: string | undefined; shown: string[] }>();

  constructor(
    private readonly out: Writable,
    private readonly style: Style,
  ) {}

  /** A heading such as `acpkit demo — protocol v1`. */
  heading(text: string): void {
    this.line(this.style.bold(text));
  }

  /** A neutral note inside the turn output (negotiated version, cancel sent, …). */
  note(text: string): void {
    this.line(this.style.dim(text));
  }

  /** The prompt the user sent. */
  prompt(text: string): void {
    this.line(this.style.bold(`› ${text}`));
    this.#echoDue = text;
  }

  /**
   * The text of the prompt just shown, until the agent's echo of it (a later-v2 agent repeats the
   * inserted user message as a `user_message` update): that echo is not shown a second time.
   */
  #echoDue: string | undefined;

  /** One model update of the session. */
  update(update: SessionUpdate): void {
    const u = update as Json & { sessionUpdate: string };
    switch (u.sessionUpdate) {
      case "agent_message_chunk":
        return this.stream("message", String(u.messageId), contentBlockText(u.content));
      case "agent_thought_chunk":
        return this.stream("thought", String(u.messageId), contentBlockText(u.content));
      case "agent_message":
      case "agent_thought": {
        // A whole-message upsert (pinned v2): show its content as a fresh piece of the message.
        if (!Array.isArray(u.content)) return;
        const kind = u.sessionUpdate === "agent_message" ? "message" : "thought";
        const text = u.content.map(contentBlockText).join("");
        this.endStream();
        return this.stream(kind, String(u.messageId), text);
      }
      case "user_message_chunk":
        return this.line(this.style.dim(`› ${contentBlockText(u.content)}`));
      case "user_message": {
        if (!Array.isArray(u.content)) return;
        const text = u.content.map(contentBlockText).join("");
        const echo = text === this.#echoDue;
        this.#echoDue = undefined;
        if (!echo) this.line(this.style.dim(`› ${text}`));
        return;
      }
      case "plan_update":
        return this.plan(u.plan as Json);
      case "tool_call_update":
        return this.toolCall(u);
      case "tool_call_content_chunk":
        return this.toolContent(String(u.toolCallId), [u.content], false);
      case "usage_update":
        return this.usage(u);
      case "available_commands_update": {
        const names = Array.isArray(u.availableCommands) ? u.availableCommands.map((c) => `/${(c as Json).name}`) : [];
        return this.line(this.style.dim(`commands ${names.join(" ")}`));
      }
      case "session_info_update":
        if (typeof u.title === "string") this.line(this.style.dim(`title ${u.title}`));
        return;
      case "config_option_update": {
        const options = Array.isArray(u.configOptions) ? (u.configOptions as Json[]) : [];
        return this.line(this.style.dim(`config ${options.map((option) => `${String(option.id)}=${String(option.currentValue)}`).join(" ")}`));
      }
      // v1-only updates reach the model under `_acpkit/` tags; people see what they mean.
      case CURRENT_MODE_UPDATE:
        return this.line(this.style.cyan(`mode → ${String(u.currentModeId)}`));
      case NOTICE_UPDATE: {
        const mark = u.severity === "error" ? this.style.red("✗") : u.severity === "warning" ? this.style.yellow("⚠") : this.style.blue("ℹ");
        return this.line(`${mark} ${String(u.title)}${typeof u.message === "string" ? this.style.dim(` — ${u.message}`) : ""}`);
      }
      // The later v2 draft's turn state: idle is the stop line; show only a wait on the user and running background work.
      case STATE_UPDATE: {
        const background = Array.isArray(u.background) ? u.background.length : 0;
        if (u.state === "requires_action") this.line(this.style.yellow("… waiting for you"));
        if (background > 0) this.line(this.style.dim(`· ${background} background ${background === 1 ? "task" : "tasks"} running`));
        return;
      }
      // An agent-owned terminal (later v2): its command, its output as it streams, its exit.
      case AGENT_TERMINAL_UPDATE: {
        if (typeof u.command === "string") this.line(`${this.style.yellow("▶ agent terminal")} ${u.command} ${this.style.dim(`(${String(u.terminalId)})`)}`);
        if (isJsonObject(u.exitStatus)) {
          const status = u.exitStatus as { exitCode?: unknown; signal?: unknown };
          this.line(
            this.style.dim(`terminal ${String(u.terminalId)} exited ${status.signal ? `on ${String(status.signal)}` : `with ${String(status.exitCode)}`}`),
          );
        }
        return;
      }
      case AGENT_TERMINAL_OUTPUT:
        if (typeof u.data === "string") this.line(this.style.dim(`   │ ${decodeTerminalText(u.data).replace(/\n$/, "").replaceAll("\n", "\n   │ ")}`));
        return;
      case COMPACTION_UPDATE:
        return this.line(this.style.dim(`compaction ${String(u.status)}${typeof u.error === "string" ? `: ${u.error}` : ""}`));
      case COMPACTION_SUMMARY_CHUNK:
        return this.line(this.style.dim(`compaction summary: ${contentBlockText(u.content)}`));
      default: {
        // A custom update: its tag, without acpkit's internal prefix.
        const tag = String(u.sessionUpdate).replace(/^_acpkit\//, "");
        return this.line(this.style.dim(`· update ${tag}`));
      }
    }
  }

  /** Messages of a loaded session (its replayed history), before the new turns. */
  history(messages: readonly MessageJSON[]): void {
    for (const message of messages) {
      const text = message.content.map(contentBlockText).join("");
      if (message.kind === "user_message") this.line(this.style.dim(`› ${text}`));
      else if (message.kind === "agent_thought") this.line(this.style.magenta(`💭 ${text}`));
      else this.line(text);
    }
  }

  /** A command the agent started in a client terminal. */
  terminalStarted(terminalId: string, command: string): void {
    this.line(`${this.style.yellow("▶ terminal")} ${command} ${this.style.dim(`(${terminalId})`)}`);
  }

  /** A terminal command ended: how, and the last lines of its output. */
  terminalExited(command: string, status: TerminalExitStatus, output: string): void {
    const lines = output
      .replace(/\n+$/, "")
      .split("\n")
      .filter((line) => line !== "");
    for (const line of lines.slice(-5)) this.line(this.style.dim(`   │ ${line}`));
    const how = status.signal ? `stopped by ${status.signal}` : `exit ${status.exitCode}`;
    const text = `■ terminal ${command} ${how}`;
    this.line(status.exitCode === 0 ? this.style.green(text) : this.style.yellow(text));
  }

  /** An elicitation the agent sent and how it was answered. */
  elicitation(question: string, action: string): void {
    this.line(
      `${this.style.blue("?")} ${question} → ${action === "accept" ? this.style.green(action) : this.style.yellow(action)} ${this.style.dim("(--elicit)")}`,
    );
  }

  /** A permission request and the answer it got. */
  permission(toolCall: Json, options: readonly PermissionOption[], outcome: PermissionOutcome, source: PermissionSource): void {
    const id = String(toolCall.toolCallId);
    const title = typeof toolCall.title === "string" ? toolCall.title : (this.toolCalls.get(id)?.title ?? id);
    const choices = options.map((option) => option.name).join(" | ");
    let answer: string;
    if (outcome.outcome === "selected") {
      const chosen = options.find((option) => option.optionId === (outcome as { optionId: string }).optionId);
      answer = chosen ? chosen.name : (outcome as { optionId: string }).optionId;
    } else answer = "cancelled";
    const colored = outcome.outcome === "selected" && /^allow/.test(optionKind(options, outcome)) ? this.style.green(answer) : this.style.yellow(answer);
    this.line(`${this.style.blue("?")} permission ${title} ${this.style.dim(`[${choices}]`)} → ${colored} ${this.style.dim(`(${source})`)}`);
  }

  /** A file the client served to the agent. */
  fileRead(path: string, bytes: number): void {
    this.line(`📄 read ${path} ${this.style.dim(`(${bytes} bytes)`)}`);
  }

  fileWrite(path: string, bytes: number): void {
    this.line(`📝 write ${path} ${this.style.dim(`(${bytes} bytes)`)}`);
  }

  /** The turn ended. */
  stop(stopReason: StopReason): void {
    const text = `■ ${stopReason}`;
    this.line(stopReason === "end_turn" ? this.style.green(text) : this.style.yellow(text));
  }

  /** The turn failed (error response, agent gone). */
  failed(message: string): void {
    this.line(this.style.red(`✗ ${message}`));
  }

  /** End an open streamed line, e.g. before the process exits. */
  finish(): void {
    this.endStream();
  }

  /**
   * A plan update replaces the whole plan. The first version is printed in full; later ones
   * print only the entries that are new or changed status, so a plan that advances step by step
   * reads as progress instead of the same list again and again.
   */
  private plan(plan: Json): void {
    if (plan.type !== "items" || !Array.isArray(plan.entries)) {
      this.line(`${this.style.cyan("▸ plan")} ${this.style.dim(`(${String(plan.type)})`)}`);
      return;
    }
    const id = String(plan.id);
    const seen = this.plans.get(id);
    const now = new Map<string, string>();
    if (!seen) this.line(this.style.cyan("▸ plan"));
    for (const entry of plan.entries as Json[]) {
      const content = String(entry.content);
      const status = String(entry.status);
      now.set(content, status);
      if (seen?.get(content) === status) continue;
      const mark = ownEntry(PLAN_STATUS_MARK, status) ?? "·";
      this.line(`${seen ? this.style.cyan("▸") : " "} ${mark} ${content} ${this.style.dim(`(${status})`)}`);
    }
    this.plans.set(id, now);
  }

  private toolCall(u: Json): void {
    const id = String(u.toolCallId);
    const known = this.toolCalls.get(id);
    const status = typeof u.status === "string" ? u.status : undefined;
    if (!known) {
      const title = typeof u.title === "string" ? u.title : id;
      this.toolCalls.set(id, { title, status, shown: [] });
      const kind = typeof u.kind === "string" ? ` (${u.kind})` : "";
      this.line(`${this.style.yellow("🔧 tool call")} ${title}${this.style.dim(kind)}${status ? ` ${statusText(status, this.style)}` : ""}`);
    } else {
      if (typeof u.title === "string") known.title = u.title;
      if (status !== undefined && status !== known.status) {
        known.status = status;
        this.line(`${this.style.yellow("🔧")} ${known.title} → ${statusText(status, this.style)}`);
      }
    }
    if (Array.isArray(u.content)) this.toolContent(id, u.content, true);
  }

  /**
   * Print tool-call content items. `replace` (a `content` field replaces the whole list) prints
   * only the items that differ from what is already on screen at the same position, so an agent
   * resending the full list as it grows does not repeat itself.
   */
  private toolContent(toolCallId: string, items: readonly unknown[], replace: boolean): void {
    const known = this.toolCalls.get(toolCallId);
    const shown = known?.shown ?? [];
    const start = replace ? 0 : shown.length;
    if (replace) shown.length = Math.min(shown.length, items.length);
    items.forEach((item, index) => {
      const summary = summarizeToolContent(item);
      const position = start + index;
      if (replace && shown[position] === summary) return;
      shown[position] = summary;
      if (summary !== "") this.line(this.style.dim(`   │ ${summary}`));
    });
  }

  private usage(u: Json): void {
    let text = `usage ${String(u.used)}/${String(u.size)}`;
    const cost = u.cost as Json | null | undefined;
    if (cost && typeof cost.amount === "number") text += ` · cost ${cost.amount} ${String(cost.currency)}`;
    this.line(this.style.dim(text));
  }

  /** Write streamed text; a new message or thought starts on its own line. */
  private stream(kind: OpenStream["kind"], messageId: string, text: string): void {
    const open = this.open;
    if (!open || open.kind !== kind || open.messageId !== messageId) {
      this.endStream();
      this.open = { kind, messageId };
      if (kind === "thought") this.out.write(this.style.magenta("💭 "));
    }
    if (text !== "") this.out.write(kind === "thought" ? this.style.magenta(text) : text);
  }

  private endStream(): void {
    if (this.open) {
      this.out.write("\n");
      this.open = undefined;
    }
  }

  private line(text: string): void {
    this.endStream();
    this.out.write(text + "\n");
  }
}

function optionKind(options: readonly PermissionOption[], outcome: PermissionOutcome): string {
  if (outcome.outcome !== "selected") return "";
  const optionId = (outcome as { optionId: string }).optionId;
  return String(options.find((option) => option.optionId === optionId)?.kind ?? "");
}

function statusText(status: string, style: Style): string {
  if (status === "completed") return style.green(status);
  if (status === "failed") return style.red(status);
  return style.dim(status);
}

/** Base64 terminal bytes as text (UTF-8, invalid sequences replaced); bad base64 shows nothing. */
function decodeTerminalText(data: string): string {
  try {
    return Buffer.from(data, "base64").toString("utf8");
  } catch {
    return "";
  }
}
