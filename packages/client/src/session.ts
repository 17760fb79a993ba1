// ClientSession: one session with the agent as the application drives it. A small public face:
// every member here is for the application; the runtime behind it (what the connection routes
// the agent's messages to) is session-controller.ts.
import type { SessionState } from "./state/session-state.js";
import type { CancellableWork } from "./session-work.js";
import type { Turn } from "./turn.js";
import type { ConfigValue, ContentBlock, SessionUpdate, PromptOptions } from "./types.js";

/** What a ClientSession asks of the runtime behind it (session-controller.ts implements it). */
export interface SessionRuntime {
  readonly sessionId: string;
  readonly cwd: string;
  readonly state: SessionState;
  readonly turn: Turn | undefined;
  prompt(content: string | readonly ContentBlock[], options?: PromptOptions): Turn;
  cancel(): Promise<void>;
  setMode(modeId: string): Promise<void>;
  setConfigOption(configId: string, value: ConfigValue): Promise<void>;
  cancelWork(work: CancellableWork): Promise<void>;
  close(): Promise<void>;
  onUpdate(listener: (update: SessionUpdate) => void): () => void;
}

/**
 * One session with the agent (from `ConnectedAgent.newSession` / `loadSession` /
 * `resumeSession`): sends prompts, keeps `state` current, answers permission requests and cancels
 * turns.
 */
export class ClientSession {
  readonly #controller: SessionRuntime;

  /** @internal Created by the session's controller. */
  constructor(controller: SessionRuntime) {
    this.#controller = controller;
  }

  /** The session's id, as the agent named it. */
  get sessionId(): string {
    return this.#controller.sessionId;
  }

  /** The session's working directory (terminals are confined to it). */
  get cwd(): string {
    return this.#controller.cwd;
  }

  /** The session's current state (messages, tool calls, plans, usage, turns), kept by the reducer. */
  get state(): SessionState {
    return this.#controller.state;
  }

  /** The running turn, if a prompt is in flight. */
  get turn(): Turn | undefined {
    return this.#controller.turn;
  }

  /**
   * Send a prompt. A string becomes one text block. Returns at once with the Turn: iterate it for
   * the turn's updates, await it for the stop reason. One turn at a time (docs/protocol.md O4).
   */
  prompt(content: string | readonly ContentBlock[], options?: PromptOptions): Turn {
    return this.#controller.prompt(content, options);
  }

  /**
   * Cancel the running turn (no-op without one, or when already cancelled): sends
   * `session/cancel`, answers pending permission requests "cancelled" and marks unfinished tool
   * calls cancelled. The turn keeps receiving updates until the agent's response.
   */
  cancel(): Promise<void> {
    return this.#controller.cancel();
  }

  /**
   * Switch the session's mode (`session/set_mode`, v1 only: pinned v2 has no modes). Rejects
   * with AcpError "InvalidArgument" for a mode the agent did not offer, "Unsupported" on v2.
   */
  setMode(modeId: string): Promise<void> {
    return this.#controller.setMode(modeId);
  }

  /**
   * Set a config option (`session/set_config_option`): a value id for a select option, a boolean
   * for a boolean option. The agent answers with every option; the state takes them.
   */
  setConfigOption(configId: string, value: ConfigValue): Promise<void> {
    return this.#controller.setConfigOption(configId, value);
  }

  /**
   * Cancel one tool call that advertises `capabilities.cancel` (a later-v2 agent's `tool_call/cancel`,
   * or acpkit's agent on any v2). Resolves when the agent accepted; its final status arrives in
   * `state` as an update. Rejects with AcpError "InvalidArgument" for an unknown or non-cancellable call.
   */
  cancelToolCall(toolCallId: string): Promise<void> {
    return this.#controller.cancelWork({ toolCallId });
  }

  /** Cancel one agent-owned terminal that advertises `capabilities.cancel` (`terminal/cancel`); its exit status arrives in `state.agentTerminals`. */
  cancelTerminal(terminalId: string): Promise<void> {
    return this.#controller.cancelWork({ terminalId });
  }

  /**
   * Close the session (`session/close`): the agent cancels its turn and frees it; this client
   * releases the session's terminals and stops routing its updates. Needs the agent's `session.close`.
   */
  close(): Promise<void> {
    return this.#controller.close();
  }

  /** Observe every model update of this session (turns, replays and session-level updates). */
  onUpdate(listener: (update: SessionUpdate) => void): () => void {
    return this.#controller.onUpdate(listener);
  }
}
