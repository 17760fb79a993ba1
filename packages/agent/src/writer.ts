// The update-sending half of a turn (and of a session/load replay): message, thought, plan,
// tool-call and usage handles over the v2-shaped model. Every call is written in call order
// through the session's wire; once the request's response is due the writer closes, and later
// calls are dropped with a diagnostic (docs/protocol.md O1: nothing of a turn follows its response).
import {
  AcpError,
  AGENT_TERMINAL_UPDATE,
  checkAbsolutePathArgument,
  CURRENT_MODE_UPDATE,
  isJsonObject,
  NOTICE_UPDATE,
  valueKind,
  type MessageKind,
} from "@acpkit/core";
import { AgentTerminalHandleImpl } from "./agent-terminal.js";
import type { CancellableWork } from "./cancellable-work.js";
import type { AgentDiagnostic as Diagnostic } from "./diagnostics.js";
import type { SessionSettings } from "./session-settings.js";
import type { AgentSideConnection, SessionWire } from "./session-wire.js";
import type {
  AvailableCommand,
  ClientInfo,
  CompactionHandle,
  ConfigOption,
  ConfigValue,
  ContentBlock,
  MessageHandle,
  Meta,
  SessionUpdate,
  PermissionOutcome,
  AgentPermissionRequest,
  Notice,
  PlanEntry,
  SessionModes,
  SessionWriter,
  AgentTerminalHandle,
  AgentTerminalStart,
  ToolCallFields,
  ToolCallHandle,
  ToolCallStart,
  UsageReport,
} from "./types.js";
import { DRAIN_BATCH, DRAIN_TEXT_BUDGET, HELD_HIGH_WATER, HOLD_AFTER, HeldUpdates } from "./held-updates.js";
import { WriteTracker } from "./write-tracker.js";
import { MessageHandleImpl, CompactionHandleImpl, ToolCallHandleImpl } from "./writer-handles.js";

/** Per-session id counters. Ids are never reused within a session (docs/protocol.md M1, T8). */
export class SessionIds {
  private messageCounter = 0;
  private toolCallCounter = 0;
  private terminalCounter = 0;
  private readonly toolCallIds = new Set<string>();

  /** The number of the next agent terminal id (`term_<number>`). */
  nextTerminalNumber(): number {
    return ++this.terminalCounter;
  }

  /** The number of the next message id (`msg_<number>`): a handle makes the string only when asked. */
  nextMessageNumber(): number {
    return ++this.messageCounter;
  }

  /** A fresh tool call id, or `requested` after checking it was never used in this session. */
  claimToolCallId(requested: string | undefined): string {
    let id = requested;
    if (id === undefined) {
      do id = `call_${++this.toolCallCounter}`;
      while (this.toolCallIds.has(id));
    } else if (this.toolCallIds.has(id)) {
      throw new AcpError("ProtocolViolation", `Tool call id "${id}" was already used in this session; tool call ids are never reused`);
    }
    this.toolCallIds.add(id);
    return id;
  }
}

/** What a writer needs from its session. */
export interface WriterScope {
  readonly sessionId: string;
  readonly client: ClientInfo;
  readonly connection: AgentSideConnection;
  readonly wire: SessionWire;
  readonly ids: SessionIds;
  readonly settings: SessionSettings;
  /** The session's work the client may cancel on its own (cancellable tool calls, agent terminals). */
  readonly work: CancellableWork;
  /** Where tool calls started `background` live once their turn is over (background-work.ts). */
  readonly background: { toolCall(start: ToolCallStart): ToolCallHandle };
  report(diagnostic: Diagnostic): void;
}

/** The signal of work nothing can cancel (a replay's tool call that is not `cancellable`). */
const NEVER_ABORTED = new AbortController().signal;

let compactionCounter = 0;

/** Sends the updates of one request (a turn or a replay) for one session. */
export class UpdateWriter implements SessionWriter {
  protected isOpen = true;
  // Made on the first write: a turn that sends nothing (a quick answer) never needs one.
  private writes: WriteTracker | undefined;
  /** Updates handed to the transport in the current tick (reset by a microtask). */
  private burst = 0;
  /** Updates held back while the transport catches up (held-updates.ts); undefined when none are. */
  private held: HeldUpdates | undefined;
  /** Settles when the held updates were all handed to the transport. */
  private draining: Promise<void> | undefined;
  private warnedBacklog = false;
  private readonly endBurst = (): void => {
    this.burst = 0;
  };

  constructor(
    protected readonly scope: WriterScope,
    /** session/load replay: user messages are forwarded to v1 clients too (bridge B3.5). */
    private readonly replay: boolean,
  ) {}

  /** Tracks this request's writes, so the response waits for them (docs/protocol.md O1, C6). */
  get tracker(): WriteTracker {
    return (this.writes ??= new WriteTracker((error) => this.writeFailed(error)));
  }

  /** The first write of this request that failed, if any. */
  get writeFailure(): unknown {
    return this.writes?.failure;
  }

  get sessionId(): string {
    return this.scope.sessionId;
  }
  get client(): ClientInfo {
    return this.scope.client;
  }

  /** Send one model update, or drop it with a diagnostic once the response is due. */
  send(update: SessionUpdate): void {
    if (!this.isOpen) {
      this.scope.report({
        code: "turn_closed",
        message: `Dropped a "${(update as { sessionUpdate: string }).sessionUpdate}" update: the ${this.replay ? "session/load" : "session/prompt"} response was already sent for session ${this.sessionId}`,
        sessionId: this.sessionId,
        detail: update,
      });
      return;
    }
    if (this.held !== undefined) return this.hold(update);
    if (this.burst === 0) {
      // The first update of a tick: if the transport has not accepted the previous tick's yet,
      // it is congested, and this one waits with the rest instead of queuing as a line.
      if (this.writes !== undefined && !this.writes.isIdle) return this.hold(update);
      queueMicrotask(this.endBurst);
    }
    if (++this.burst > HOLD_AFTER) return this.hold(update);
    this.scope.wire.sendUpdate(update, this.replay, this.tracker);
  }

  /** A plain text append joined straight into the held updates, if they are being held and it fits (held-updates.ts). */
  joinHeldText(sessionUpdate: string, messageId: string, text: string): boolean {
    return this.isOpen && this.held?.joinText(sessionUpdate, messageId, text) === true;
  }

  /** A whole plain text message held without building its update, if updates are being held. */
  holdWholeText(kind: string, messageNumber: number, text: string): boolean {
    if (!this.isOpen || this.held === undefined) return false;
    this.held.pushNumberedWholeText(kind, messageNumber, text);
    this.warnIfBacklogged();
    return true;
  }

  private hold(update: SessionUpdate): void {
    if (this.held === undefined) {
      this.held = new HeldUpdates();
      this.draining = this.drainHeld();
    }
    this.held.push(update);
    this.warnIfBacklogged();
  }

  private warnIfBacklogged(): void {
    if (!this.warnedBacklog && this.held!.size > HELD_HIGH_WATER) {
      this.warnedBacklog = true;
      this.scope.report({
        code: "updates_backlog",
        message: `More than ${HELD_HIGH_WATER} updates of session ${this.sessionId} are waiting to be written: the turn sends faster than the client reads. Await turn.flush() every few hundred updates so the agent waits for the client instead of holding them in memory.`,
        sessionId: this.sessionId,
      });
    }
  }

  /** Hand the held updates to the transport a batch at a time, each batch once the previous one was accepted. */
  private async drainHeld(): Promise<void> {
    const tracker = this.tracker;
    // Let the burst that started holding finish first.
    await Promise.resolve();
    while (this.held !== undefined && this.held.size > 0) {
      await tracker.idle();
      for (const update of this.held.take(DRAIN_BATCH, DRAIN_TEXT_BUDGET)) this.scope.wire.sendUpdate(update, this.replay, tracker);
    }
    this.held = undefined;
    this.draining = undefined;
  }

  /**
   * Hand every held update to the transport now, ignoring backpressure: a request or the response
   * of this turn must not overtake them (docs/protocol.md O1, O3).
   */
  protected releaseHeld(): void {
    const held = this.held;
    if (held === undefined) return;
    for (const update of held.take(held.size)) this.scope.wire.sendUpdate(update, this.replay, this.tracker);
  }

  message(content?: readonly ContentBlock[] | string): MessageHandle {
    return this.startMessage("agent_message", content);
  }
  thought(content?: readonly ContentBlock[] | string): MessageHandle {
    return this.startMessage("agent_thought", content);
  }
  userMessage(content: readonly ContentBlock[] | string): MessageHandle {
    return this.startMessage("user_message", content);
  }

  private startMessage(kind: MessageKind, content: readonly ContentBlock[] | string | undefined): MessageHandle {
    const handle = new MessageHandleImpl(this, this.scope.ids.nextMessageNumber(), kind);
    if (content !== undefined) handle.replace(content);
    return handle;
  }

  plan(entries: readonly PlanEntry[], options?: { id?: string; _meta?: Meta | null }): string {
    const id = options?.id ?? "main";
    const update: Record<string, unknown> = { sessionUpdate: "plan_update", plan: { type: "items", id, entries: [...entries] } };
    if (options?._meta !== undefined) update._meta = options._meta;
    this.send(update as SessionUpdate);
    return id;
  }

  toolCall(start: ToolCallStart): ToolCallHandle {
    if (!isJsonObject(start)) throw new TypeError(`turn.toolCall: start must be an object with the tool call's title and fields, got ${valueKind(start)}`);
    if (start.background === true) return this.scope.background.toolCall(start);
    return this.startToolCall(start, undefined);
  }

  /** A tool call written by this writer; `onEnd` runs once it reaches a final status. */
  protected startToolCall(start: ToolCallStart, onEnd: (() => void) | undefined): ToolCallHandle {
    const { toolCallId: requested, cancellable, background: _background, ...fields } = start;
    const toolCallId = this.scope.ids.claimToolCallId(requested);
    const work = cancellable === true ? this.scope.work : undefined;
    const own = work?.add("tool_call", toolCallId);
    const handle = new ToolCallHandleImpl(this, toolCallId, (request) => this.askPermission(request), {
      signal: () => this.workSignal(own),
      laterDialect: this.scope.client.dialect === "v2-later",
      work,
      ...(onEnd === undefined ? {} : { onEnd }),
    });
    handle.update({ status: "pending", ...fields, ...(work === undefined ? {} : { capabilities: { cancel: {} } }) } as ToolCallFields);
    return handle;
  }

  agentTerminal(start: AgentTerminalStart): AgentTerminalHandle {
    if (!isJsonObject(start) || typeof start.command !== "string") {
      throw new TypeError(`turn.agentTerminal: start must be an object with the command line as a string, got ${valueKind(start)}`);
    }
    if (start.cwd !== undefined) checkAbsolutePathArgument("turn.agentTerminal", "cwd", start.cwd);
    const terminalId = start.terminalId ?? `term_${this.scope.ids.nextTerminalNumber()}`;
    const work = start.cancellable === true ? this.scope.work : undefined;
    const own = work?.add("terminal", terminalId);
    const handle = new AgentTerminalHandleImpl((update) => this.send(update), terminalId, this.workSignal(own), work);
    const update: Record<string, unknown> = { sessionUpdate: AGENT_TERMINAL_UPDATE, terminalId, command: start.command };
    if (start.cwd !== undefined) update.cwd = start.cwd;
    if (work !== undefined) update.capabilities = { cancel: {} };
    this.send(update as unknown as SessionUpdate);
    return handle;
  }

  /** The signal of a piece of work: its own cancel (if any) and the turn's, whichever comes first. */
  protected workSignal(own: AbortSignal | undefined): AbortSignal {
    const turn = this.turnSignal();
    if (own === undefined) return turn ?? NEVER_ABORTED;
    return turn === undefined ? own : AbortSignal.any([own, turn]);
  }

  /** The turn's signal; a replay has none. */
  protected turnSignal(): AbortSignal | undefined {
    return undefined;
  }

  usage(report: UsageReport): void {
    this.send({ ...report, sessionUpdate: "usage_update" } as SessionUpdate);
  }

  update(update: SessionUpdate): void {
    this.send(update);
  }

  get modes(): SessionModes | undefined {
    return this.scope.settings.modes;
  }

  get configOptions(): readonly ConfigOption[] {
    return this.scope.settings.configOptions;
  }

  setMode(modeId: string): void {
    this.requireV1("setMode", "session modes");
    this.scope.settings.checkModeCall(modeId);
    this.scope.settings.setMode(modeId);
    this.send({ sessionUpdate: CURRENT_MODE_UPDATE, currentModeId: modeId } as unknown as SessionUpdate);
  }

  setConfigOptions(options: readonly ConfigOption[]): void {
    this.scope.settings.configOptions = [...options];
    this.send({ sessionUpdate: "config_option_update", configOptions: [...options] } as SessionUpdate);
  }

  setConfigValue(configId: string, value: ConfigValue): void {
    this.setConfigOptions(this.scope.settings.withValueForCall(configId, value));
  }

  availableCommands(commands: readonly AvailableCommand[]): void {
    this.send({ sessionUpdate: "available_commands_update", availableCommands: [...commands] } as SessionUpdate);
  }

  sessionInfo(info: { title?: string | null; updatedAt?: string | null; _meta?: Meta | null }): void {
    this.send({ ...info, sessionUpdate: "session_info_update" } as SessionUpdate);
  }

  notice(notice: Notice): void {
    this.requireV1("notice", "notices");
    if (!this.scope.client.supportsNotices) {
      throw new AcpError("Unsupported", "notice: the client did not advertise clientCapabilities.session.notices, so it would not understand a notice");
    }
    const update: Record<string, unknown> = { sessionUpdate: NOTICE_UPDATE, severity: notice.severity, title: notice.title };
    if (notice.message != null) update.message = notice.message;
    this.send(update as unknown as SessionUpdate);
  }

  compaction(options?: { compactionId?: string }): CompactionHandle {
    this.requireV1("compaction", "compaction updates");
    if (!this.scope.client.supportsCompaction) {
      throw new AcpError("Unsupported", "compaction: the client did not advertise clientCapabilities.session.compaction");
    }
    const handle = new CompactionHandleImpl(this, options?.compactionId ?? `compaction_${++compactionCounter}`);
    handle.status("in_progress", {});
    return handle;
  }

  /** Features that exist only in v1 fail loudly on v2 instead of being dropped (never a silent drop). */
  protected requireV1(call: string, feature: string): void {
    if (this.scope.client.protocolVersion !== 1) {
      throw new AcpError("Unsupported", `${call}: ${feature} exist only in protocol v1; this connection speaks v${this.scope.client.protocolVersion}`);
    }
  }

  flush(): Promise<void> {
    if (this.draining !== undefined) return this.draining.then(() => this.flush());
    return this.writes === undefined ? Promise.resolve() : this.writes.idle();
  }

  /**
   * Stop accepting updates. Returns a promise that settles once every accepted one was written,
   * or undefined when nothing is in flight (most quick answers), so the response need not wait a
   * microtask for nothing.
   */
  close(): Promise<void> | undefined {
    this.isOpen = false;
    // Held updates still drain with backpressure; the response waits for them.
    if (this.draining !== undefined) return this.flush();
    const writes = this.writes;
    return writes === undefined || writes.isIdle ? undefined : writes.idle();
  }

  protected askPermission(_request: AgentPermissionRequest): Promise<PermissionOutcome> {
    return Promise.reject(new AcpError("Unsupported", "Permission requests are only possible during a prompt turn, not during session/load replay"));
  }

  private writeFailed(error: unknown): void {
    this.scope.report({
      code: "write_failed",
      message: `An update for session ${this.sessionId} could not be sent: ${error instanceof Error ? error.message : String(error)}`,
      sessionId: this.sessionId,
      detail: error,
    });
  }
}
