// One session's runtime, behind the public ClientSession (session.ts): prompt → Turn, cancel with
// the client duties of docs/protocol.md §6.3 (C2 mark tool calls cancelled, C3 answer permission
// requests "cancelled", C4 keep applying updates until the response, C11 an error after cancel
// shows as cancelled), the SessionState kept current by the reducer, and what the agent asks of
// the session (permissions, terminals, elicitation), which the connection routes here.
import { AcpError, isRpcError, toolCallPathProblem, valueKind, type Connection, type RequestContext } from "@acpkit/core";
import type { ClientDiagnostic as Diagnostic } from "./diagnostics.js";
import type { ProtocolVersion } from "@acpkit/schema";
import type { ClientSessionWire, WirePermissionRequest, WirePromptResponse, WireUpdate } from "./session-wire.js";
import { BatchedState } from "./state/batched-state.js";
import {
  applySessionSetup,
  beginTurn,
  markTurnCancelled,
  recordModeChange,
  recordPermission,
  recordTerminal,
  recordTurnEnd,
  type SessionSetupFields,
} from "./state/client-actions.js";
import { createSessionState, type SessionState } from "./state/session-state.js";
import { ClientSession, type SessionRuntime } from "./session.js";
import { SessionTerminals } from "./session-terminals.js";
import { PendingQuestions } from "./pending-questions.js";
import { checkPromptBlocks } from "./prompt-blocks.js";
import { Turn } from "./turn.js";
import { type CancellableWork, cancelWork } from "./session-work.js";
import type {
  AgentCapabilities,
  ConfigValue,
  ContentBlock,
  ElicitationHandlers,
  ElicitationResult,
  FormElicitationRequest,
  SessionUpdate,
  PermissionContext,
  PermissionOutcome,
  PermissionRequest,
  PromptOptions,
  StopReason,
  TerminalHost,
  UrlElicitationRequest,
} from "./types.js";

const CANCELLED: PermissionOutcome = Object.freeze({ outcome: "cancelled" }) as PermissionOutcome;
const CANCELLED_RESULT = Object.freeze({ outcome: CANCELLED });
const ELICITATION_CANCELLED: ElicitationResult = Object.freeze({ action: "cancel" }) as ElicitationResult;

/** What a session needs from its connection. */
export interface SessionHost {
  readonly connection: Connection;
  readonly protocolVersion: ProtocolVersion;
  readonly acceptedPromptBlocks: ReadonlySet<string>;
  readonly requestPermission: ((request: PermissionRequest, context: PermissionContext) => PermissionOutcome | Promise<PermissionOutcome>) | undefined;
  readonly agentCapabilities: AgentCapabilities;
  /** The terminal host, when the client advertised terminals to this agent. */
  readonly terminalHost: TerminalHost | undefined;
  readonly elicitation: ElicitationHandlers | undefined;
  /** Model update tags the client did not advertise (v1 notices, compaction): dropped with a diagnostic. */
  readonly unadvertisedUpdates: ReadonlySet<string>;
  report(diagnostic: Diagnostic): void;
  /** The session was closed or deleted: stop routing to it. */
  forget(sessionId: string): void;
}

/** The runtime of one session; the application holds its `session` (a ClientSession). */
export class SessionController implements SessionRuntime {
  /** What the application holds: the public face of this session. */
  readonly session: ClientSession;
  /** The session's state; model updates are applied to it in batches (state/batched-state.ts). */
  private readonly states: BatchedState;
  /** The turn whose `session/prompt` response has not arrived yet. */
  private activeTurn: Turn | undefined;
  private activeTurnCancelled = false;
  /** The running turn's `options.signal`, whose abort cancels it. */
  private activeSignal: AbortSignal | undefined;
  /** The agent's questions (permission requests, elicitations) the application has not answered yet. */
  private readonly questions = new PendingQuestions();
  private readonly listeners = new Set<(update: SessionUpdate) => void>();
  // Bound once: the per-update path allocates no closure.
  private readonly applyModelUpdate = (update: SessionUpdate): void => this.apply(update);

  /** The terminals this session's agent created (v1 terminal/*). */
  readonly terminals: SessionTerminals;
  private closed = false;

  /** Created by ConnectedAgent.newSession / loadSession / resumeSession. */
  constructor(
    private readonly host: SessionHost,
    readonly sessionId: string,
    private readonly wire: ClientSessionWire,
    /** The session's working directory (terminals are confined to it). */
    readonly cwd: string,
  ) {
    this.states = new BatchedState(createSessionState(sessionId, host.protocolVersion));
    this.session = new ClientSession(this);
    this.terminals = new SessionTerminals(
      sessionId,
      cwd,
      host.terminalHost,
      (record) => {
        this.states.current = recordTerminal(this.states.current, record);
      },
      host.report.bind(host),
    );
  }

  /** The session/new, load or resume result: seeds modes and config options. */
  applySetup(setup: SessionSetupFields): void {
    this.states.current = applySessionSetup(this.states.current, setup);
  }

  /**
   * Switch the session's mode (`session/set_mode`, v1 only: pinned v2 has no modes). Rejects
   * with AcpError "InvalidArgument" for a mode the agent did not offer, "Unsupported" on v2.
   */
  async setMode(modeId: string): Promise<void> {
    this.requireOpen("setMode");
    if (this.host.protocolVersion !== 1) throw new AcpError("Unsupported", `setMode: protocol v${this.host.protocolVersion} has no session modes`);
    const modes = this.state.modes;
    if (modes && modes.availableModes.length > 0 && !modes.availableModes.some((mode) => mode.id === modeId)) {
      throw new AcpError(
        "InvalidArgument",
        `setMode: the agent offers no mode "${modeId}" (modes: ${modes.availableModes.map((mode) => `"${mode.id}"`).join(", ")})`,
      );
    }
    await this.host.connection.request("session/set_mode", { sessionId: this.sessionId, modeId });
    this.states.current = recordModeChange(this.state, modeId);
  }

  /**
   * Set a config option (`session/set_config_option`): a value id for a select option, a boolean
   * for a boolean option. The agent answers with every option; the state takes them.
   */
  async setConfigOption(configId: string, value: ConfigValue): Promise<void> {
    this.requireOpen("setConfigOption");
    let params: Record<string, unknown>;
    if (typeof value === "boolean") {
      // v1 carries booleans as {type: "boolean", value}; pinned v2 has value ids only ("true"/"false").
      params =
        this.host.protocolVersion === 1
          ? { sessionId: this.sessionId, configId, type: "boolean", value }
          : { sessionId: this.sessionId, configId, value: String(value) };
    } else {
      params = { sessionId: this.sessionId, configId, value };
    }
    const result = await this.host.connection.request("session/set_config_option", params as never);
    this.states.current = applySessionSetup(this.state, { configOptions: (result as { configOptions: SessionSetupFields["configOptions"] }).configOptions });
  }

  /**
   * Close the session (`session/close`): the agent cancels its turn and frees it; this client
   * releases the session's terminals and stops routing its updates. Needs the agent's `session.close`.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    if (!this.host.agentCapabilities.session.close)
      throw new AcpError("Unsupported", "close: the agent did not advertise session close (sessionCapabilities.close / session.close)");
    await this.host.connection.request("session/close", { sessionId: this.sessionId });
    this.markClosed();
  }

  /** Closed or deleted: release terminals, stop routing. */
  markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.terminals.releaseAll();
    this.host.forget(this.sessionId);
  }

  /** `ClientSession.cancelToolCall` / `cancelTerminal` (session-work.ts). */
  cancelWork(work: CancellableWork): Promise<void> {
    this.requireOpen("toolCallId" in work ? "cancelToolCall" : "cancelTerminal");
    return cancelWork(this.host.connection, this.sessionId, this.state, work);
  }

  private requireOpen(call: string): void {
    if (this.closed) throw new AcpError("ProtocolViolation", `${call}: session ${this.sessionId} was closed`);
  }

  /** The session's current state (messages, tool calls, plans, usage, turns), kept by the reducer. */
  get state(): SessionState {
    return this.states.current;
  }

  /** The running turn, if a prompt is in flight. */
  get turn(): Turn | undefined {
    return this.activeTurn;
  }

  /**
   * Send a prompt. A string becomes one text block. Returns at once with the Turn: iterate it for
   * the turn's updates, await it for the stop reason. One turn at a time (docs/protocol.md O4).
   */
  prompt(content: string | readonly ContentBlock[], options?: PromptOptions): Turn {
    this.requireOpen("prompt");
    if (this.activeTurn) {
      throw new AcpError(
        "ProtocolViolation",
        `Session ${this.sessionId} already has a prompt turn in progress; wait for its stop reason (or cancel it) before prompting again`,
      );
    }
    if (typeof content !== "string" && !Array.isArray(content))
      throw new TypeError(`prompt: content must be a string or a list of content blocks, got ${valueKind(content)}`);
    const blocks: ContentBlock[] = typeof content === "string" ? [{ type: "text", text: content } as ContentBlock] : [...content];
    checkPromptBlocks(blocks, this.host.acceptedPromptBlocks);
    const signal = options?.signal;
    if (signal?.aborted) throw new AcpError("Cancelled", "The prompt's signal was already aborted");

    const turn = new Turn(blocks, this.cancelTurn);
    this.activeTurn = turn;
    this.activeTurnCancelled = false;
    this.states.current = beginTurn(this.states.current, blocks);
    this.wire.boundary?.("prompt_start");
    if (signal !== undefined) {
      this.activeSignal = signal;
      signal.addEventListener("abort", this.cancelTurn, { once: true });
    }
    // Bound once: a prompt allocates no closure for its outcome (one turn at a time, O4, so the
    // handlers find their turn in `activeTurn`).
    this.host.connection.request("session/prompt", this.wire.promptParams(blocks, options?._meta)).then(this.onPromptResult, this.onPromptError);
    return turn;
  }

  private readonly cancelTurn = (): Promise<void> => this.cancel();

  private readonly onPromptResult = (result: WirePromptResponse): void => {
    const turn = this.activeTurn!;
    this.detachSignal();
    const outcome = this.wire.promptOutcome(result);
    this.finishTurn(outcome.stopReason);
    turn.resolve(outcome);
  };

  private readonly onPromptError = (error: unknown): void => {
    const turn = this.activeTurn!;
    this.detachSignal();
    if (this.activeTurnCancelled && isRpcError(error)) {
      // C11: after a cancel, an error response still shows as a cancelled turn.
      this.host.report({
        code: "error_after_cancel",
        message: `The agent answered the cancelled prompt of session ${this.sessionId} with error ${error.code} (${error.message}); shown as cancelled`,
        sessionId: this.sessionId,
        detail: error,
      });
      this.finishTurn("cancelled");
      turn.resolve({ stopReason: "cancelled" });
      return;
    }
    this.finishTurn(undefined);
    turn.reject(error);
  };

  /** The running turn's prompt signal no longer cancels anything. */
  private detachSignal(): void {
    const signal = this.activeSignal;
    if (signal === undefined) return;
    this.activeSignal = undefined;
    signal.removeEventListener("abort", this.cancelTurn);
  }

  /**
   * Cancel the running turn (no-op without one, or when already cancelled): sends
   * `session/cancel`, answers pending permission requests "cancelled" and marks unfinished tool
   * calls cancelled. The turn keeps receiving updates until the agent's response.
   */
  async cancel(): Promise<void> {
    if (!this.activeTurn || this.activeTurnCancelled) return;
    this.activeTurnCancelled = true;
    this.states.current = markTurnCancelled(this.states.current);
    const sent = this.host.connection.notify("session/cancel", { sessionId: this.sessionId });
    this.questions.cancelAll();
    // A cancelled turn's commands stop too; their output stays readable until the agent releases them.
    this.terminals.killAll();
    try {
      await sent;
    } catch (error) {
      // A closed connection ends the turn anyway (its request rejects); report, don't throw.
      this.host.report({
        code: "cancel_not_sent",
        message: `session/cancel for session ${this.sessionId} could not be sent: ${error instanceof Error ? error.message : String(error)}`,
        sessionId: this.sessionId,
        detail: error,
      });
    }
  }

  /** Observe every model update of this session (turns, replays and session-level updates). */
  onUpdate(listener: (update: SessionUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A `session/update` for this session arrived (wire shape). */
  receiveUpdate(update: WireUpdate): void {
    this.wire.receiveUpdate(update, this.applyModelUpdate);
  }

  /** A `session/load` is about to replay history into this session. */
  beginLoad(): void {
    this.wire.boundary?.("load_start");
  }

  /** A `session/request_permission` for this session arrived. */
  handlePermission(params: WirePermissionRequest, ctx: RequestContext): { outcome: PermissionOutcome } | Promise<{ outcome: PermissionOutcome }> {
    const request = this.wire.permissionFromWire(params);
    // C3: after a cancel, every permission request until the response is answered "cancelled".
    if (this.activeTurnCancelled) return this.answerPermission(request, CANCELLED);
    const ask = this.host.requestPermission;
    if (!ask) {
      this.host.report({
        code: "permission_unhandled",
        message: `No requestPermission handler: answered "cancelled" to a permission request of session ${this.sessionId}`,
        sessionId: this.sessionId,
        detail: request,
      });
      return this.answerPermission(request, CANCELLED);
    }
    return this.questions.ask((signal) => ask(request, { signal }), CANCELLED, ctx).then((outcome) => this.answerPermission(request, outcome));
  }

  /** Record the answer in the state (the request's toolCall is applied like an update) and wrap it. */
  private answerPermission(request: PermissionRequest, outcome: PermissionOutcome): { outcome: PermissionOutcome } {
    this.states.current = recordPermission(this.states.current, { toolCall: request.toolCall, options: request.options, outcome });
    return outcome === CANCELLED ? CANCELLED_RESULT : { outcome };
  }

  /** The connection closed: nothing more will arrive for this session. */
  connectionClosed(): void {
    this.questions.cancelAll();
    this.terminals.releaseAll();
  }

  // ── elicitation (v1 elicitation/create) ───────────────────────────────────────────────────

  /** An elicitation for this session; like a permission request, a cancelled turn answers it `cancel`. */
  elicit(request: FormElicitationRequest | UrlElicitationRequest, ctx: RequestContext): Promise<ElicitationResult> | ElicitationResult {
    if (this.activeTurnCancelled) return ELICITATION_CANCELLED;
    const handlers = this.host.elicitation;
    const handler = request.mode === "form" ? handlers?.form : handlers?.url;
    if (handler === undefined) return { action: "decline" } as ElicitationResult;
    const ask = handler as (r: typeof request, c: PermissionContext) => ElicitationResult | Promise<ElicitationResult>;
    return this.questions.ask((signal) => ask(request, { signal }), ELICITATION_CANCELLED, ctx);
  }

  private apply(update: SessionUpdate): void {
    const tag = update.sessionUpdate as string;
    if (this.host.unadvertisedUpdates.size > 0 && this.host.unadvertisedUpdates.has(tag)) {
      this.host.report({
        code: "unadvertised_update",
        message: `Dropped a ${tag.replace("_acpkit/", "")} update for session ${this.sessionId}: this client did not advertise it`,
        sessionId: this.sessionId,
        detail: update,
      });
      return;
    }
    // Two comparisons per update; only tool-call updates carry paths.
    if (tag === "tool_call_update" || tag === "tool_call_content_chunk") this.reportRelativePath(update);
    this.states.add(update);
    this.activeTurn?.push(update);
    if (this.listeners.size === 0) return; // the common case; skips making an iterator per update
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch (error) {
        this.host.report({
          code: "listener_error",
          message: `An onUpdate listener of session ${this.sessionId} threw: ${error instanceof Error ? error.message : String(error)}`,
          sessionId: this.sessionId,
          detail: error,
        });
      }
    }
  }

  /**
   * E4 on the receiving side: an update cannot be answered, and dropping one would lose what the
   * agent did, so a tool call naming a relative path is applied as sent and reported; an editor
   * that opens locations can then tell why a link leads nowhere.
   */
  private reportRelativePath(update: SessionUpdate): void {
    const found = toolCallPathProblem(update as { locations?: unknown; content?: unknown });
    if (found === undefined) return;
    this.host.report({
      code: "relative_path",
      message: `Tool call ${(update as { toolCallId: string }).toolCallId} of session ${this.sessionId}: ${found.pointer.slice(1)} ${found.problem}; applied as sent (docs/protocol.md E4)`,
      sessionId: this.sessionId,
      detail: update,
    });
  }

  private finishTurn(stopReason: string | undefined): void {
    this.wire.boundary?.("prompt_end");
    if (stopReason !== undefined) this.states.current = recordTurnEnd(this.states.current, stopReason as StopReason);
    this.activeTurn = undefined;
    this.activeTurnCancelled = false;
  }
}
