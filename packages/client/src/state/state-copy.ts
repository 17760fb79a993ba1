// How the reducer builds each new state: one constructor call naming every hot field once, so
// every state shares one hidden class and a copy is a plain store of its fields, never V8's generic
// property-copy path that a spread (`{ ...state.data, messages }`) takes. The reducer benchmarks
// (docs/performance.md) hold it.
//
// Invariant: a field of StateData is named here once (in `withHotFields`) and in
// `createSessionState`; a field of ColdStateData only in `createSessionState`. Cold fields change
// once per turn or less, so `withColdFields` copies their object with a spread: its keys come in
// `createSessionState`'s order every time, so cold objects share a hidden class too.
import { SessionState, MAX_STATE_DIAGNOSTICS, type ColdStateData, type StateData, type StateDiagnostic } from "./session-state.js";

// The per-chunk and per-turn paths (turn start and end run once per prompt) change only these
// fields: they pass them positionally (no `changes` object, no presence checks).
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
    turns,
    turnInProgress,
    turnFirstToolCall,
    promptsSent,
    promptMessage,
    cold: d.cold,
  });
}

/** A state with some cold fields replaced; a key present in `changes` wins, even when its value is `undefined`. */
export function withColdFields(state: SessionState, changes: Partial<ColdStateData>): SessionState {
  const d = state.data;
  return new SessionState({
    sessionId: d.sessionId,
    protocolVersion: d.protocolVersion,
    messages: d.messages,
    toolCalls: d.toolCalls,
    turns: d.turns,
    turnInProgress: d.turnInProgress,
    turnFirstToolCall: d.turnFirstToolCall,
    promptsSent: d.promptsSent,
    promptMessage: d.promptMessage,
    cold: { ...d.cold, ...changes },
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
  const kept = state.data.cold.diagnostics;
  const full = kept.length >= MAX_STATE_DIAGNOSTICS;
  const diagnostics = [...(full ? kept.slice(kept.length - MAX_STATE_DIAGNOSTICS + 1) : kept), { code, message, update }];
  return withColdFields(state, { diagnostics, diagnosticsDropped: state.data.cold.diagnosticsDropped + (full ? 1 : 0) });
}
