// @acpkit/client: drive an ACP agent (v1 or v2) with one session model.
export { connectAgent } from "./connect.js";
export { ClientSession } from "./session.js";
export { Turn } from "./turn.js";
// The session model (written by the state module): SessionState and its reducer.
export * from "./state/index.js";
//# sourceMappingURL=index.js.map