// The methods whose name differs between the model and the later v2 draft, one table per sender.
// Each codec renames by these tables in both directions (the inverse is derived), so a renamed
// method is added in one place.
import { CANCEL_TERMINAL_METHOD, CANCEL_TOOL_CALL_METHOD, ELICITATION_COMPLETE_METHOD, ELICITATION_CREATE_METHOD } from "../index.js";

type Json = Record<string, unknown>;
type Names = Readonly<Record<string, string>>;

/** Methods the client sends: model name → later name. */
export const CLIENT_METHODS_TO_LATER: Names = {
  authenticate: "auth/login",
  logout: "auth/logout",
  [CANCEL_TOOL_CALL_METHOD]: "tool_call/cancel",
  [CANCEL_TERMINAL_METHOD]: "terminal/cancel",
};

/** Methods the agent sends: model name → later name (elicitation has v1's params and results). */
export const AGENT_METHODS_TO_LATER: Names = {
  [ELICITATION_CREATE_METHOD]: "elicitation/create",
  [ELICITATION_COMPLETE_METHOD]: "elicitation/complete",
};

function inverse(names: Names): Names {
  return Object.fromEntries(Object.entries(names).map(([model, later]) => [later, model]));
}

/** Methods the client sends: later name → model name. */
export const CLIENT_METHODS_FROM_LATER: Names = inverse(CLIENT_METHODS_TO_LATER);

/** Methods the agent sends: later name → model name. */
export const AGENT_METHODS_FROM_LATER: Names = inverse(AGENT_METHODS_TO_LATER);

/** `message` under the name `names` gives its method, or `message` itself when the name is the same. */
export function renamed(message: Json, method: string, names: Names): Json {
  return Object.hasOwn(names, method) ? { ...message, method: names[method] } : message;
}
