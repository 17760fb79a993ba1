// The client's session model: SessionState, the pure reducer and the contract JSON form.
export {
  MAX_STATE_DIAGNOSTICS,
  SessionState,
  createSessionState,
  sessionStateToJSON,
  type DisplayedToolCallStatus,
  type MessageJSON,
  type MessageKind,
  type PermissionJSON,
  type PlanJSON,
  type SessionStateJSON,
  type StateDiagnostic,
  type ToolCallJSON,
  type TurnJSON,
  type UsageJSON,
} from "./session-state.js";
export { PROMPT_MESSAGE_ID_PREFIX, applyUpdate, beginTurn, markTurnCancelled, recordPermission, recordPermissionOutcome, recordTurnEnd } from "./reducer.js";
