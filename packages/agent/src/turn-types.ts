// The turn API: what a prompt handler (and a session/load replay) writes with. Part of the
// public shapes of @acpkit/agent (types.ts re-exports it).
import type {
  AvailableCommand,
  ConfigOption,
  ConfigValue,
  ContentBlock,
  ElicitationResult,
  ElicitationSchema,
  Meta,
  SessionUpdate,
  PermissionOption,
  PermissionOutcome,
  Notice,
  PlanEntry,
  SessionModes,
  TerminalExitStatus,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from "@acpkit/core";
import type { ClientInfo } from "./peer-types.js";

/** A message or thought of the agent, addressed by a stable `messageId`. */
export interface MessageHandle {
  readonly messageId: string;
  /** Stream one more block (a string is one text block). */
  append(block: ContentBlock | string): void;
  /** Replace the whole content (v2 upsert; on v1 only an extension can be sent, see README). */
  replace(content: readonly ContentBlock[] | string): void;
  /** Replace (object) or clear (`null`) the message's `_meta`. */
  setMeta(meta: Meta | null): void;
}

/** Fields of a tool call the agent may set; `null` clears a field (v2 semantics). */
export interface ToolCallFields {
  title?: string | null;
  kind?: ToolKind | null;
  status?: ToolCallStatus | null;
  content?: ToolCallContent[] | null;
  locations?: ToolCallLocation[] | null;
  rawInput?: unknown;
  rawOutput?: unknown;
  _meta?: Meta | null;
}

/** The fields of a new tool call (`SessionWriter.toolCall`): a title is required. */
export interface ToolCallStart extends Omit<ToolCallFields, "title"> {
  title: string;
  /** Use this id instead of a generated one (it must be new in the session). */
  toolCallId?: string;
  /**
   * Let the client cancel this one call while it runs (the later v2 draft's `capabilities.cancel` and
   * `tool_call/cancel`; between acpkit peers on any v2 too): the handle's `signal` aborts when it
   * does, and the call should then end with `cancelled()`. v1 cannot carry it: there the call is
   * simply not cancellable on its own (session/cancel still ends the turn).
   */
  cancellable?: boolean;
  /**
   * Let the call outlive its turn: the turn may end while it runs, and its handle keeps writing
   * until `complete()`, `fail()` or `cancelled()` (a `session/cancel` does not abort it; the draft
   * cancels only the foreground). The later v2 draft reports it in the `background` of the turn's
   * `idle` state and of a state update when it ends; other dialects get its updates after the turn
   * without that snapshot (reported once per session as `lossy_session_update`). Such a call
   * cannot ask for permission: ask from the turn.
   */
  background?: boolean;
}

/**
 * A tool call of the running turn, returned by `toolCall()`: every method writes one update at once.
 * A location or diff whose `path` is not absolute fails with AcpError "InvalidArgument" and sends nothing.
 */
export interface ToolCallHandle {
  readonly toolCallId: string;
  /** Change the fields given; absent fields stay as they are. */
  update(fields: ToolCallFields): void;
  /** Append one content item (a string becomes a text `content` item). */
  appendContent(item: ToolCallContent | string): void;
  /** Mark the call `completed`, optionally setting more fields. */
  complete(fields?: Omit<ToolCallFields, "status">): void;
  /** Mark the call `failed`, optionally setting more fields. */
  fail(fields?: Omit<ToolCallFields, "status">): void;
  /** Ask the client for permission to run this call. Resolves `cancelled` when the turn is cancelled. */
  requestPermission(options: readonly PermissionOption[], fields?: ToolCallFields): Promise<PermissionOutcome>;
  /**
   * Aborts when the client cancels this call (`cancellable` calls only) or the turn is cancelled.
   * Without `cancellable` it aborts with the turn.
   */
  readonly signal: AbortSignal;
  /**
   * End the call as cancelled: status `cancelled` on the later v2 draft (which confirms the client's
   * `tool_call/cancel` with it); `failed` on v1 and the pinned v2, which have no wire `cancelled` (C2).
   */
  cancelled(fields?: Omit<ToolCallFields, "status">): void;
}

/** A permission request sent by `AgentTurn.requestPermission`: the tool call it concerns and the options to choose from. */
export interface AgentPermissionRequest {
  toolCall: { toolCallId: string } & ToolCallFields;
  options: readonly PermissionOption[];
  /**
   * What permission is asked for, when it is a command rather than the tool call itself: the later
   * v2 draft sends it as the request's `subject`; v1 and the pinned v2 have only the tool call, so
   * give that a title and `rawInput` that say the same.
   */
  subject?: PermissionSubject;
  _meta?: Meta | null;
}

/** A permission request's subject other than its tool call (the later v2 draft's `command` subject). */
export interface PermissionSubject {
  type: "command";
  /** The command line to be run. */
  command: string;
  /** Absolute directory it runs in. */
  cwd: string;
  /** The agent terminal it will run in, if there is one. */
  terminalId?: string;
}

/** Context-window usage for a `usage_update`: tokens used, window size and an optional cost. */
export interface UsageReport {
  used: number;
  size: number;
  cost?: { amount: number; currency: string; _meta?: Meta | null } | null;
  _meta?: Meta | null;
}

/**
 * Sends updates for one session: used for a prompt turn and for `session/load` replay.
 * Every method returns at once; updates are written in call order, and the response of the
 * request being served is sent only after all of them were written.
 */
export interface SessionWriter {
  readonly sessionId: string;
  readonly client: ClientInfo;
  /** Start an agent message; `content` (if given) is its initial content. */
  message(content?: readonly ContentBlock[] | string): MessageHandle;
  /** Start an agent thought. */
  thought(content?: readonly ContentBlock[] | string): MessageHandle;
  /** Report a user message (history replay; agents do not echo the live prompt, docs/protocol.md M11). */
  userMessage(content: readonly ContentBlock[] | string): MessageHandle;
  /** Replace the entries of a plan (`id` defaults to "main"). Returns the plan id. */
  plan(entries: readonly PlanEntry[], options?: { id?: string; _meta?: Meta | null }): string;
  /** Create a tool call (status defaults to `pending`). */
  toolCall(start: ToolCallStart): ToolCallHandle;
  /**
   * Show a terminal the agent runs itself (the later v2 draft's agent-owned terminal:
   * `terminal_update`, `terminal_output_chunk`): stream its output with `write`, end it with `exit`.
   * Put `handle.content` in a tool call to show it there. On v1 and the pinned v2 these updates
   * are acpkit extensions (`_acpkit/terminal_update`, …): acpkit's client shows them, v1 cannot
   * carry them (reported `lossy_session_update`).
   */
  agentTerminal(start: AgentTerminalStart): AgentTerminalHandle;
  /** Report context-window usage. */
  usage(report: UsageReport): void;
  /** Send any model update as is (escape hatch for custom `_…` updates). */
  update(update: SessionUpdate): void;
  /** The session's modes as the runtime tracks them (`undefined` without modes or on v2). */
  readonly modes: SessionModes | undefined;
  /** The session's config options with their current values. */
  readonly configOptions: readonly ConfigOption[];
  /**
   * Switch the session's mode and tell the client (`current_mode_update`). Throws AcpError
   * "Unsupported" on v2 (no modes) and "InvalidArgument" for a mode the session does not have.
   */
  setMode(modeId: string): void;
  /** Replace the session's config options and tell the client (`config_option_update`). */
  setConfigOptions(options: readonly ConfigOption[]): void;
  /** Set one option's current value and tell the client (`config_option_update` with every option). */
  setConfigValue(configId: string, value: ConfigValue): void;
  /** Announce the commands the client may offer as slash commands (`available_commands_update`). */
  availableCommands(commands: readonly AvailableCommand[]): void;
  /** Change the session's title or last-activity time (`session_info_update`; `null` clears a field). */
  sessionInfo(info: { title?: string | null; updatedAt?: string | null; _meta?: Meta | null }): void;
  /** Show a notice (v1 `notice`). Throws AcpError "Unsupported" unless the client advertised notices. */
  notice(notice: Notice): void;
  /** Start a context compaction (v1 `compaction_update`). Throws AcpError "Unsupported" unless the client advertised compaction. */
  compaction(options?: { compactionId?: string }): CompactionHandle;
  /** Resolves once every update sent so far was written to the transport (backpressure). */
  flush(): Promise<void>;
}

/** A compaction started by `SessionWriter.compaction()`: each method writes one update at once. */
export interface CompactionHandle {
  readonly compactionId: string;
  /** Stream one piece of the summary (`compaction_summary_chunk`). */
  appendSummary(block: ContentBlock | string): void;
  /** Mark it `completed`, optionally with the whole summary. */
  complete(summary?: readonly ContentBlock[] | string): void;
  /** Mark it `failed` with the reason. */
  fail(error: string): void;
  /** Mark it `cancelled`. */
  cancel(): void;
}

/** A terminal the agent runs itself and shows to the client (`SessionWriter.agentTerminal`). */
export interface AgentTerminalStart {
  /** The command line, as shown. */
  command: string;
  /** Absolute working directory, as shown. */
  cwd?: string;
  /** Use this id instead of a generated one. */
  terminalId?: string;
  /** Let the client stop it (`terminal/cancel`): the handle's `signal` aborts when it does. */
  cancellable?: boolean;
}

/** An agent-owned terminal: each method writes one update at once. */
export interface AgentTerminalHandle {
  readonly terminalId: string;
  /** A tool call content item that shows this terminal (`toolCall({ content: [terminal.content] })`). */
  readonly content: ToolCallContent;
  /** Aborts when the client cancels the terminal (`cancellable` only) or the turn is cancelled. */
  readonly signal: AbortSignal;
  /** Append output: text (sent as UTF-8) or bytes, base64 on the wire. */
  write(data: string | Uint8Array): void;
  /** The command ended: its exit code or the signal that stopped it. No output after this. */
  exit(status: { exitCode?: number | null; signal?: string | null }): void;
}

/** What `AgentTurn.createTerminal` runs on the client. */
export interface TerminalRequest {
  command: string;
  args?: readonly string[];
  env?: readonly { name: string; value: string }[];
  /** Absolute working directory; the session's when omitted. */
  cwd?: string | null;
  /** Keep at most this many bytes of output (the client drops the oldest). */
  outputByteLimit?: number | null;
}

/** The output of a client terminal so far. */
export interface AgentTerminalOutput {
  output: string;
  /** Output was dropped to honour `outputByteLimit`. */
  truncated: boolean;
  /** Set once the command exited. */
  exitStatus: TerminalExitStatus | null;
}

/** A command running on the client (v1 `terminal/*`). Release it when done; the client frees it then. */
export interface TerminalHandle {
  readonly terminalId: string;
  /** A tool call content item that shows this terminal live (`toolCall({ content: [terminal.content] })`). */
  readonly content: ToolCallContent;
  /** The output so far (`terminal/output`). */
  output(): Promise<AgentTerminalOutput>;
  /** Resolves when the command exits (`terminal/wait_for_exit`). */
  waitForExit(): Promise<TerminalExitStatus>;
  /** Stop the command; output stays readable until `release` (`terminal/kill`). */
  kill(): Promise<void>;
  /** Kill the command if it still runs and free the terminal (`terminal/release`); the id is invalid afterwards. */
  release(): Promise<void>;
}

/** A form elicitation (`AgentTurn.elicit`). */
export interface FormElicitation {
  /** What is asked and why, shown to the user. */
  message: string;
  /** The form: a flat object schema of string, number, integer, boolean and multi-select fields. */
  requestedSchema: ElicitationSchema;
  /** The tool call the question belongs to, if any. */
  toolCallId?: string | null;
}

/** A URL elicitation (`AgentTurn.elicitUrl`): the client opens `url`; the agent calls `completeElicitation` when the flow finished. */
export interface UrlElicitation {
  message: string;
  url: string;
  /** Defaults to a fresh id. */
  elicitationId?: string;
  toolCallId?: string | null;
}

/** One prompt turn, handed to `AgentDefinition.prompt`. */
export interface AgentTurn extends SessionWriter {
  /** The prompt content, as the client sent it. */
  readonly prompt: readonly ContentBlock[];
  /** The `_meta` of the `session/prompt` request. */
  readonly promptMeta: Meta | null | undefined;
  /** Aborted by `session/cancel` (or `$/cancel_request` on the prompt, or the connection closing). */
  readonly signal: AbortSignal;
  /** True once the client cancelled the turn. */
  readonly cancelled: boolean;
  /** Ask the client for permission (`session/request_permission`); resolves `cancelled` when the turn is cancelled. */
  requestPermission(request: AgentPermissionRequest): Promise<PermissionOutcome>;
  /** Read a file through the client (v1 with the client capability only). `path` is absolute and `line` 1-based, else AcpError "InvalidArgument" before anything is sent. */
  readTextFile(request: { path: string; line?: number | null; limit?: number | null }): Promise<string>;
  /** Write a file through the client (v1 with the client capability only). `path` is absolute, else AcpError "InvalidArgument". */
  writeTextFile(request: { path: string; content: string }): Promise<void>;
  /**
   * Run a command on the client (`terminal/create`; v1 with `clientCapabilities.terminal` only,
   * else AcpError "Unsupported"; a `cwd` that is not absolute: "InvalidArgument"). Embed
   * `terminal.content` in a tool call to show it live.
   */
  createTerminal(request: TerminalRequest): Promise<TerminalHandle>;
  /** Ask the user to fill in a form (`elicitation/create`, form mode; v1 and the later v2 draft, with `elicitation.form` advertised). Resolves `cancel` when the turn is cancelled. */
  elicit(request: FormElicitation): Promise<ElicitationResult>;
  /** Send the user to a URL (`elicitation/create`, URL mode; v1 and the later v2 draft, with `elicitation.url` advertised). */
  elicitUrl(request: UrlElicitation): Promise<ElicitationResult & { elicitationId: string }>;
  /** Tell the client a URL elicitation's flow finished (`elicitation/complete`). */
  completeElicitation(elicitationId: string): Promise<void>;
}

/** @deprecated Renamed `AgentTurn` (the client package has a `Turn` of its own); this alias goes in the next release. */
export type Turn = AgentTurn;
/** @deprecated Renamed `AgentPermissionRequest` (the client's `PermissionRequest` is another shape); this alias goes in the next release. */
export type PermissionRequest = AgentPermissionRequest;
/** @deprecated Renamed `AgentTerminalOutput` (the client's `TerminalOutput` is another shape); this alias goes in the next release. */
export type TerminalOutput = AgentTerminalOutput;
