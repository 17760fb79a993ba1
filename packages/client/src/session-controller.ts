// One session's runtime, behind the public ClientSession (session.ts): prompt → Turn, cancel with
// the client duties of docs/protocol.md §6.3 (C2 mark tool calls cancelled, C3 answer permission
// requests "cancelled", C4 keep applying updates until the response, C11 an error after cancel
// shows as cancelled), the SessionState kept current by the reducer, and what the agent asks of
// the session (permissions, terminals, elicitation), which the connection routes here.
import { AcpError, isJsonObject, isRpcError, toolCallPathProblem, valueKind, type Connection, type Diagnostic, type RequestContext } from "@acpkit/core";
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
} from "./state/reducer.js";
import { createSessionState, type SessionState } from "./state/session-state.js";
import { ClientSession, type SessionRuntime } from "./session.js";
import { Turn } from "./turn.js";
import type { TerminalJSON } from "./state/session-state.js";
import type {
  AgentCapabilities,
  ConfigValue,
  ContentBlock,
  ElicitationHandlers,
  ElicitationResult,
  FormElicitationRequest,
  ModelUpdate,
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

/** Prompt block types the agent must advertise (`promptCapabilities`) before a client sends them. */
const CAPABILITY_OF_BLOCK: ReadonlyMap<string, string> = new Map([
  ["image", "prompt.image"],
  ["audio", "prompt.audio"],
  ["resource", "prompt.embeddedContext"],
]);

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

/** A terminal this session's agent created. */
interface TerminalEntry {
  record: TerminalJSON;
  released: boolean;
}

/** A permission request waiting for the application's answer; `cancel` answers it "cancelled". */
interface PendingPermission {
  cancel(): void;
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
  private readonly pendingPermissions = new Set<PendingPermission>();
  private readonly listeners = new Set<(update: ModelUpdate) => void>();
  // Bound once: the per-update path allocates no closure.
  private readonly applyModelUpdate = (update: ModelUpdate): void => this.apply(update);

  /** The terminals this session's agent created, by id. */
  private readonly terminals = new Map<string, TerminalEntry>();
  private closed = false;

  /** Created by AgentConnection.newSession / loadSession / resumeSession. */
  constructor(
    private readonly host: SessionHost,
    readonly sessionId: string,
    private readonly wire: ClientSessionWire,
    /** The session's working directory (terminals are confined to it). */
    readonly cwd: string,
  ) {
    this.states = new BatchedState(createSessionState(sessionId, host.protocolVersion));
    this.session = new ClientSession(this);
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
    this.releaseTerminals();
    this.host.forget(this.sessionId);
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
    this.checkPromptBlocks(blocks);
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
    for (const pending of [...this.pendingPermissions]) pending.cancel();
    // A cancelled turn's commands stop too; their output stays readable until the agent releases them.
    this.killTerminals();
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
  onUpdate(listener: (update: ModelUpdate) => void): () => void {
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
    return this.askApplication((signal) => ask(request, { signal }), CANCELLED, ctx).then((outcome) => this.answerPermission(request, outcome));
  }

  /**
   * Put a question of the agent's to the application (a permission request, an elicitation),
   * keeping the client's cancel duty: when the turn is cancelled (C3), the agent withdraws the
   * request or the connection closes, the handler's signal aborts and the answer is `cancelled`.
   */
  private askApplication<T>(handler: (signal: AbortSignal) => T | Promise<T>, cancelled: T, ctx: RequestContext): Promise<T> {
    return new Promise((resolve, reject) => {
      const controller = new AbortController();
      let settled = false;
      const pending: PendingPermission = {
        cancel: () => {
          if (settled) return;
          controller.abort(new AcpError("Cancelled", "The turn was cancelled"));
          finish(cancelled);
        },
      };
      const done = () => {
        settled = true;
        this.pendingPermissions.delete(pending);
        ctx.signal.removeEventListener("abort", pending.cancel);
      };
      const finish = (answer: T) => {
        if (settled) return;
        done();
        resolve(answer);
      };
      this.pendingPermissions.add(pending);
      // The agent withdrew the request ($/cancel_request, v1) or the connection closed.
      ctx.signal.addEventListener("abort", pending.cancel, { once: true });
      Promise.resolve()
        .then(() => handler(controller.signal))
        .then(finish, (error: unknown) => {
          if (settled) return;
          done();
          reject(error);
        });
    });
  }

  /** Record the answer in the state (the request's toolCall is applied like an update) and wrap it. */
  private answerPermission(request: PermissionRequest, outcome: PermissionOutcome): { outcome: PermissionOutcome } {
    this.states.current = recordPermission(this.states.current, { toolCall: request.toolCall, options: request.options, outcome });
    return outcome === CANCELLED ? CANCELLED_RESULT : { outcome };
  }

  /** The connection closed: nothing more will arrive for this session. */
  connectionClosed(): void {
    for (const pending of [...this.pendingPermissions]) pending.cancel();
    this.releaseTerminals();
  }

  // ── terminals (v1 terminal/*) ─────────────────────────────────────────────────────────────

  /** `terminal/create` for this session. */
  async createTerminal(
    host: TerminalHost,
    params: { command: string; args?: string[]; env?: { name: string; value: string }[]; cwd?: string | null; outputByteLimit?: number | null },
  ): Promise<{ terminalId: string }> {
    const args = params.args ?? [];
    const created = await host.create(
      { command: params.command, args, env: params.env ?? [], cwd: params.cwd ?? null, outputByteLimit: params.outputByteLimit ?? null },
      { sessionId: this.sessionId, sessionCwd: this.cwd },
    );
    const record: TerminalJSON = { terminalId: created.terminalId, command: params.command, args: [...args], output: "", truncated: false, exitStatus: null };
    this.terminals.set(created.terminalId, { record, released: false });
    this.states.current = recordTerminal(this.state, record);
    return { terminalId: created.terminalId };
  }

  /** Whether `terminalId` is one of this session's live terminals. */
  ownsTerminal(terminalId: string): boolean {
    const entry = this.terminals.get(terminalId);
    return entry !== undefined && !entry.released;
  }

  /** Record what the host says about a terminal (after output, wait_for_exit, kill, release). */
  async snapshotTerminal(host: TerminalHost, terminalId: string): Promise<{ output: string; truncated: boolean; exitStatus: TerminalJSON["exitStatus"] }> {
    const output = await host.output(terminalId);
    const entry = this.terminals.get(terminalId);
    if (entry !== undefined) {
      entry.record = { ...entry.record, output: output.output, truncated: output.truncated, exitStatus: output.exitStatus };
      this.states.current = recordTerminal(this.state, entry.record);
    }
    return output;
  }

  /** `terminal/release`: the id is invalid afterwards. */
  async releaseTerminal(host: TerminalHost, terminalId: string): Promise<void> {
    const entry = this.terminals.get(terminalId);
    if (entry === undefined || entry.released) return;
    try {
      await this.snapshotTerminal(host, terminalId);
    } catch {
      // The last output is a nicety; releasing is what matters.
    }
    entry.released = true;
    await host.release(terminalId);
  }

  private killTerminals(): void {
    const host = this.host.terminalHost;
    if (host === undefined) return;
    for (const [terminalId, entry] of this.terminals) {
      if (entry.released || entry.record.exitStatus !== null) continue;
      Promise.resolve()
        .then(() => host.kill(terminalId))
        .catch((error: unknown) => this.reportTerminalFailure("kill", terminalId, error));
    }
  }

  private releaseTerminals(): void {
    const host = this.host.terminalHost;
    if (host === undefined) return;
    for (const [terminalId, entry] of this.terminals) {
      if (entry.released) continue;
      entry.released = true;
      Promise.resolve()
        .then(() => host.release(terminalId))
        .catch((error: unknown) => this.reportTerminalFailure("release", terminalId, error));
    }
  }

  private reportTerminalFailure(action: string, terminalId: string, error: unknown): void {
    this.host.report({
      code: "terminal_failed",
      message: `Could not ${action} terminal ${terminalId} of session ${this.sessionId}: ${error instanceof Error ? error.message : String(error)}`,
      sessionId: this.sessionId,
      detail: error,
    });
  }

  // ── elicitation (v1 elicitation/create) ───────────────────────────────────────────────────

  /** An elicitation for this session; like a permission request, a cancelled turn answers it `cancel`. */
  elicit(request: FormElicitationRequest | UrlElicitationRequest, ctx: RequestContext): Promise<ElicitationResult> | ElicitationResult {
    if (this.activeTurnCancelled) return ELICITATION_CANCELLED;
    const handlers = this.host.elicitation;
    const handler = request.mode === "form" ? handlers?.form : handlers?.url;
    if (handler === undefined) return { action: "decline" } as ElicitationResult;
    const ask = handler as (r: typeof request, c: PermissionContext) => ElicitationResult | Promise<ElicitationResult>;
    return this.askApplication((signal) => ask(request, { signal }), ELICITATION_CANCELLED, ctx);
  }

  private apply(update: ModelUpdate): void {
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
  private reportRelativePath(update: ModelUpdate): void {
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

  private checkPromptBlocks(blocks: readonly ContentBlock[]): void {
    const accepted = this.host.acceptedPromptBlocks;
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index] as unknown;
      const type = isJsonObject(block) ? block.type : undefined;
      if (type === "text" || type === "resource_link") continue;
      const capability = typeof type === "string" ? CAPABILITY_OF_BLOCK.get(type) : undefined;
      // Caught here, before anything is sent: on v1 the bridge would drop an unknown block (a
      // lossy diagnostic, the prompt sent without it), on v2 the agent would answer -32602.
      if (capability === undefined) {
        const what = isJsonObject(block) ? `has type ${JSON.stringify(type)}` : `is ${valueKind(block)}`;
        throw new AcpError(
          "InvalidArgument",
          `prompt: block ${index} ${what}; a prompt block is an object of type text, image, audio, resource_link or resource`,
        );
      }
      if (!accepted.has(type as string)) {
        throw new AcpError("Unsupported", `Prompt block ${index} has type "${type}", but the agent did not advertise the ${capability} capability`);
      }
    }
  }
}
