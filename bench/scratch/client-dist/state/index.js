// The client's session model: SessionState, the pure reducer and the contract JSON form.
export { SessionState, createSessionState, sessionStateToJSON, } from "./session-state.js";
export { PROMPT_MESSAGE_ID_PREFIX, applyUpdate, beginTurn, markTurnCancelled, recordPermission, recordPermissionOutcome, recordTurnEnd } from "./reducer.js";
//# sourceMappingURL=index.js.map