// SessionState: what a client knows about one session, built by the reducer (reducer.ts) from
// model updates (pinned-v2 shape) and the client's own actions (prompt, cancel, permission, turn end).
//
// A state is immutable to its holder. Internally it is a handful of persistent collections
// (persistent.ts) so that each update costs O(1) amortized (O(log32 n) to replace one record);
// the plain-array views (`state.messages`, `sessionStateToJSON`) are built on first read and
// cached on that state object.
import type { ProtocolVersion, v2 } from "@acpkit/schema";
import {
  type AppendList,
  type Keyed,
  type PVector,
  emptyKeyed,
  emptyList,
  emptyVector,
  keyedFind,
  listToArray,
  vectorForEach,
  vectorGet,
} from "./persistent.js";

import { messageIdOf, toolCallIdOf, type MessageRecord, type PlanRecord, type ToolCallRecord } from "./records.js";
import { collect, messageView, planView, toolCallView } from "./state-views.js";

/** Which kind of message (the variant of the updates that built it). */
export type { MessageKind } from "@acpkit/core";

// The contract JSON types live in state-json.ts; importers of this module keep finding them here.
export type * from "./state-json.js";
import type {
  MessageJSON,
  ToolCallJSON,
  PlanJSON,
  UsageJSON,
  PermissionJSON,
  ModesJSON,
  SessionInfoJSON,
  TerminalJSON,
  NoticeJSON,
  CompactionJSON,
  TurnJSON,
  SessionStateJSON,
  ActivityJSON,
  AgentTerminalJSON,
  BackgroundWorkJSON,
} from "./state-json.js";

/** How many reducer diagnostics a state keeps (the most recent ones); older ones are only counted. */
export const MAX_STATE_DIAGNOSTICS = 100;

/** How many notices a state keeps (the most recent ones): a peer decides how many it sends. */
export const MAX_STATE_NOTICES = 100;

/** How many compactions a state keeps (the most recent ones). */
export const MAX_STATE_COMPACTIONS = 100;

/** Something the reducer ignored, and why (not part of the JSON contract). */
export interface StateDiagnostic {
  code: "unknown_update" | "message_kind_mismatch" | "invalid_update" | "unadvertised_update";
  message: string;
  update: unknown;
}

/**
 * @internal Everything a state holds. Replaced, never mutated, by the reducer. The fields a
 * streamed chunk or a turn's start and end change are its own ("hot": state-copy.ts's
 * `withHotFields` names each once); the rest sit in `cold`, copied as one object when one of them
 * changes.
 */
export interface StateData {
  readonly sessionId: string;
  readonly protocolVersion: ProtocolVersion;
  readonly messages: Keyed<MessageRecord>;
  readonly toolCalls: Keyed<ToolCallRecord>;
  readonly turns: AppendList<TurnJSON>;
  readonly turnInProgress: boolean;
  /** Index of the first tool call created in the current (or last) turn. */
  readonly turnFirstToolCall: number;
  /** How many prompts `beginTurn` recorded: numbers the prompt messages (`acpkit-prompt-<n>`). */
  readonly promptsSent: number;
  /** Position of the current turn's prompt message while an echo may still attach to it (M11). */
  readonly promptMessage: number | undefined;
  /** The fields that change once per turn or less. */
  readonly cold: ColdStateData;
}

/** @internal The fields of a state that change once per turn or less. */
export interface ColdStateData {
  readonly plans: Keyed<PlanRecord>;
  readonly usage: UsageJSON | null;
  readonly permissions: PVector<PermissionJSON>;
  /** The most recent MAX_STATE_DIAGNOSTICS diagnostics, oldest first. */
  readonly diagnostics: readonly StateDiagnostic[];
  /** How many older diagnostics were let go to keep the list bounded. */
  readonly diagnosticsDropped: number;
  /** Undefined until the first `session_info_update`. */
  readonly sessionInfo: SessionInfoJSON | undefined;
  readonly currentModeId: string | undefined;
  /** From the session/new, load or resume result (v1), undefined when the agent sent none. */
  readonly availableModes: readonly ModesJSON["availableModes"][number][] | undefined;
  readonly availableCommands: readonly v2.AvailableCommand[];
  readonly configOptions: readonly v2.SessionConfigOption[];
  readonly terminals: readonly TerminalJSON[];
  readonly notices: readonly NoticeJSON[];
  readonly compactions: readonly CompactionJSON[];
  /** What a later-v2 agent reported of its activity (turn state, background work, its terminals); undefined until it reports any. */
  readonly activity: ActivityJSON | undefined;
}

/**
 * One session as the client knows it. Immutable: the reducer functions (`applyUpdate`, …)
 * return a new state. Read it through the properties below or `sessionStateToJSON`.
 */
export class SessionState {
  /** @internal */
  readonly data: StateData;
  private messagesCache: readonly MessageJSON[] | undefined;
  private toolCallsCache: readonly ToolCallJSON[] | undefined;

  /** @internal Use `createSessionState`. */
  constructor(data: StateData) {
    this.data = data;
  }

  get sessionId(): string {
    return this.data.sessionId;
  }

  get protocolVersion(): ProtocolVersion {
    return this.data.protocolVersion;
  }

  /** Messages in first-appearance order. */
  get messages(): readonly MessageJSON[] {
    return (this.messagesCache ??= Object.freeze(collect(this.data.messages, messageView)));
  }

  /** Tool calls in first-appearance order. */
  get toolCalls(): readonly ToolCallJSON[] {
    return (this.toolCallsCache ??= Object.freeze(collect(this.data.toolCalls, toolCallView)));
  }

  get plans(): readonly PlanJSON[] {
    return collect(this.data.cold.plans, planView);
  }

  /** `null` until the first `usage_update`. */
  get usage(): UsageJSON | null {
    return this.data.cold.usage;
  }

  /** Permission requests in arrival order. */
  get permissions(): readonly PermissionJSON[] {
    const out: PermissionJSON[] = [];
    vectorForEach(this.data.cold.permissions, (entry) => out.push(entry));
    return out;
  }

  /** Finished turns, oldest first. */
  get turns(): readonly TurnJSON[] {
    return listToArray(this.data.turns);
  }

  /** True between `beginTurn` and `recordTurnEnd`. */
  get turnInProgress(): boolean {
    return this.data.turnInProgress;
  }

  /**
   * The most recent updates the reducer ignored (unknown variants, kind mismatches), oldest first:
   * at most MAX_STATE_DIAGNOSTICS, since a peer controls how many there are.
   */
  get diagnostics(): readonly StateDiagnostic[] {
    return this.data.cold.diagnostics;
  }

  /** How many diagnostics older than `diagnostics` were let go. */
  get diagnosticsDropped(): number {
    return this.data.cold.diagnosticsDropped;
  }

  /** From `session_info_update` (patch semantics: `null` clears); `{}` until the first one. */
  get sessionInfo(): { readonly title?: string; readonly updatedAt?: string } {
    return this.data.cold.sessionInfo ?? NO_SESSION_INFO;
  }

  /** The current mode: from the session/new, load or resume result, then `session/set_mode` and `current_mode_update` (v1). */
  get currentModeId(): string | undefined {
    return this.data.cold.currentModeId;
  }

  /** The modes, or undefined when the agent reported none. */
  get modes(): ModesJSON | undefined {
    const d = this.data;
    if (d.cold.currentModeId === undefined && d.cold.availableModes === undefined) return undefined;
    return { currentModeId: d.cold.currentModeId ?? "", availableModes: [...(d.cold.availableModes ?? [])] };
  }

  /** Commands the agent ran in this client's terminals, in creation order. */
  get terminals(): readonly TerminalJSON[] {
    return this.data.cold.terminals;
  }

  /** The most recent notices (at most MAX_STATE_NOTICES), oldest first. */
  get notices(): readonly NoticeJSON[] {
    return this.data.cold.notices;
  }

  /** The most recent compactions (at most MAX_STATE_COMPACTIONS), by first appearance. */
  get compactions(): readonly CompactionJSON[] {
    return this.data.cold.compactions;
  }

  /**
   * The foreground state a later-v2 agent last reported (`running`, `requires_action`, `idle`), or
   * undefined when it reported none (v1 and pinned-v2 agents never do: their turn is the prompt).
   */
  get turnState(): string | undefined {
    return this.data.cold.activity?.state;
  }

  /** The background work of the agent's latest state report; `null` when it did not report any (or is not a later-v2 agent). */
  get background(): readonly BackgroundWorkJSON[] | null {
    return this.data.cold.activity?.background ?? null;
  }

  /** The terminals a later-v2 agent runs itself and shows (at most MAX_STATE_AGENT_TERMINALS, by first appearance). */
  get agentTerminals(): readonly AgentTerminalJSON[] {
    return this.data.cold.activity?.agentTerminals ?? NO_AGENT_TERMINALS;
  }

  /** One agent terminal by id. */
  agentTerminal(terminalId: string): AgentTerminalJSON | undefined {
    return this.data.cold.activity?.agentTerminals.find((terminal) => terminal.terminalId === terminalId);
  }

  get availableCommands(): readonly v2.AvailableCommand[] {
    return this.data.cold.availableCommands;
  }

  get configOptions(): readonly v2.SessionConfigOption[] {
    return this.data.cold.configOptions;
  }

  /** One message by id. */
  message(messageId: string): MessageJSON | undefined {
    const position = keyedFind(this.data.messages, messageId, messageIdOf);
    return position === undefined ? undefined : messageView(vectorGet(this.data.messages.records, position)!);
  }

  /** One tool call by id. */
  toolCall(toolCallId: string): ToolCallJSON | undefined {
    const position = keyedFind(this.data.toolCalls, toolCallId, toolCallIdOf);
    return position === undefined ? undefined : toolCallView(vectorGet(this.data.toolCalls.records, position)!);
  }

  /** The contract JSON (same as `sessionStateToJSON(this)`), so `JSON.stringify(state)` works. */
  toJSON(): SessionStateJSON {
    return sessionStateToJSON(this);
  }
}

const NO_SESSION_INFO: SessionInfoJSON = Object.freeze({});
const NO_AGENT_TERMINALS: readonly AgentTerminalJSON[] = Object.freeze([]);

/** How many agent terminals a state keeps (the oldest ended ones go first). */
export const MAX_STATE_AGENT_TERMINALS = 256;
/** How many characters of one agent terminal's output a state keeps (the newest). */
export const MAX_AGENT_TERMINAL_OUTPUT = 1 << 20;

/** A state for a session that has seen nothing yet. */
export function createSessionState(sessionId: string, protocolVersion: ProtocolVersion): SessionState {
  return new SessionState({
    sessionId,
    protocolVersion,
    messages: emptyKeyed(),
    toolCalls: emptyKeyed(),
    turns: emptyList(),
    turnInProgress: false,
    turnFirstToolCall: 0,
    promptsSent: 0,
    promptMessage: undefined,
    cold: {
      plans: emptyKeyed(),
      usage: null,
      permissions: emptyVector(),
      diagnostics: [],
      diagnosticsDropped: 0,
      sessionInfo: undefined,
      currentModeId: undefined,
      availableModes: undefined,
      availableCommands: [],
      configOptions: [],
      terminals: [],
      notices: [],
      compactions: [],
      activity: undefined,
    },
  });
}

/**
 * The public JSON form of a state: `{ sessionId, protocolVersion, messages, toolCalls, plans,
 * usage, permissions, turns, modes?, configOptions, availableCommands, sessionInfo?, terminals,
 * notices, compactions }`. Lists keep first-appearance order; a field never set, or cleared with
 * `null`, is absent; `content` is always an array. Blocks are shared with the updates that
 * carried them (not deep-copied); the message and tool-call objects are frozen.
 */
export function sessionStateToJSON(state: SessionState): SessionStateJSON {
  const d = state.data;
  const json: SessionStateJSON = {
    sessionId: state.sessionId,
    protocolVersion: state.protocolVersion,
    messages: state.messages.slice(),
    toolCalls: state.toolCalls.slice(),
    plans: state.plans.slice(),
    usage: state.usage,
    permissions: state.permissions.slice(),
    turns: state.turns.slice(),
    configOptions: d.cold.configOptions.slice(),
    availableCommands: d.cold.availableCommands.slice(),
    terminals: d.cold.terminals.slice(),
    notices: d.cold.notices.slice(),
    compactions: d.cold.compactions.slice(),
  };
  const modes = state.modes;
  if (modes !== undefined) json.modes = modes;
  if (d.cold.activity !== undefined) json.activity = d.cold.activity;
  if (d.cold.sessionInfo !== undefined) json.sessionInfo = d.cold.sessionInfo;
  return json;
}
