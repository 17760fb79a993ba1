// How the reducer builds each new state: one constructor call naming every field, so every state
// shares one hidden class and a copy is a plain store of its fields. Invariant: these functions
// name the fields in the order createSessionState does; a field added to StateData is added to
// all of them (the type checker flags a missing one).
import { SessionState, MAX_STATE_DIAGNOSTICS, type StateData, type StateDiagnostic } from "./session-state.js";

// Every StateData is built by one of the four functions below as an object literal naming all
// fields in the same order as `createSessionState`, so every state shares one hidden class and
// the copy is a plain store of its fields, never V8's generic property-copy path that a spread
// (`{ ...state.data, messages }`) takes. The reducer benchmarks (docs/performance.md) hold it.

export function next(state: SessionState, changes: Partial<StateData>): SessionState {
  const d = state.data;
  return new SessionState({
    sessionId: d.sessionId,
    protocolVersion: d.protocolVersion,
    messages: changes.messages ?? d.messages,
    toolCalls: changes.toolCalls ?? d.toolCalls,
    plans: changes.plans ?? d.plans,
    // `null` and `undefined` are meaningful values of these three, so presence decides.
    usage: "usage" in changes ? changes.usage! : d.usage,
    permissions: changes.permissions ?? d.permissions,
    turns: changes.turns ?? d.turns,
    diagnostics: changes.diagnostics ?? d.diagnostics,
    diagnosticsDropped: changes.diagnosticsDropped ?? d.diagnosticsDropped,
    turnInProgress: changes.turnInProgress ?? d.turnInProgress,
    turnFirstToolCall: changes.turnFirstToolCall ?? d.turnFirstToolCall,
    promptsSent: changes.promptsSent ?? d.promptsSent,
    promptMessage: "promptMessage" in changes ? changes.promptMessage : d.promptMessage,
    sessionInfo: changes.sessionInfo ?? d.sessionInfo,
    currentModeId: "currentModeId" in changes ? changes.currentModeId : d.currentModeId,
    availableModes: "availableModes" in changes ? changes.availableModes : d.availableModes,
    availableCommands: changes.availableCommands ?? d.availableCommands,
    configOptions: changes.configOptions ?? d.configOptions,
    terminals: changes.terminals ?? d.terminals,
    notices: changes.notices ?? d.notices,
    compactions: changes.compactions ?? d.compactions,
    activity: changes.activity ?? d.activity,
  });
}

// The per-chunk and per-turn paths (turn start and end run once per prompt) change only these "hot" fields: they pass them positionally to
// one constructor call (no `changes` object, no presence checks); the rest is carried over as is.
export function withHotFields(
  state: SessionState,
  messages: StateData["messages"],
  toolCalls: StateData["toolCalls"],
  turns: StateData["turns"],
  turnInProgress: boolean,
  turnFirstToolCall: number,
  promptsSent: number,
  promptMessage: number | undefined,
): SessionState {
  const d = state.data;
  return new SessionState({
    sessionId: d.sessionId,
    protocolVersion: d.protocolVersion,
    messages,
    toolCalls,
    plans: d.plans,
    usage: d.usage,
    permissions: d.permissions,
    turns,
    diagnostics: d.diagnostics,
    diagnosticsDropped: d.diagnosticsDropped,
    turnInProgress,
    turnFirstToolCall,
    promptsSent,
    promptMessage,
    sessionInfo: d.sessionInfo,
    currentModeId: d.currentModeId,
    availableModes: d.availableModes,
    availableCommands: d.availableCommands,
    configOptions: d.configOptions,
    terminals: d.terminals,
    notices: d.notices,
    compactions: d.compactions,
    activity: d.activity,
  });
}

export function withMessages(state: SessionState, messages: StateData["messages"]): SessionState {
  const d = state.data;
  return withHotFields(state, messages, d.toolCalls, d.turns, d.turnInProgress, d.turnFirstToolCall, d.promptsSent, d.promptMessage);
}

export function withToolCalls(state: SessionState, toolCalls: StateData["toolCalls"]): SessionState {
  const d = state.data;
  return withHotFields(state, d.messages, toolCalls, d.turns, d.turnInProgress, d.turnFirstToolCall, d.promptsSent, d.promptMessage);
}

// Bounded: a peer decides how many updates are ignored (10^6 custom updates must not mean 10^6
// kept payloads). The newest MAX_STATE_DIAGNOSTICS are kept, older ones only counted.
export function withDiagnostic(state: SessionState, code: StateDiagnostic["code"], message: string, update: unknown): SessionState {
  const kept = state.data.diagnostics;
  const full = kept.length >= MAX_STATE_DIAGNOSTICS;
  const diagnostics = [...(full ? kept.slice(kept.length - MAX_STATE_DIAGNOSTICS + 1) : kept), { code, message, update }];
  return next(state, { diagnostics, diagnosticsDropped: state.data.diagnosticsDropped + (full ? 1 : 0) });
}
