// The session state as `acpkit run --json` prints it: the SessionState contract JSON with acpkit's
// internal model names replaced by the protocol's own (a v1 terminal item travels through the
// model as `_acpkit/terminal`; on paper it is a `terminal` item).
import type { SessionStateJSON } from "@acpkit/client";
import { TERMINAL_CONTENT_TYPE } from "@acpkit/core";

export function publicStateJSON(state: SessionStateJSON): SessionStateJSON {
  let changed = false;
  const toolCalls = state.toolCalls.map((toolCall) => {
    if (!toolCall.content.some((item) => (item as { type: string }).type === TERMINAL_CONTENT_TYPE)) return toolCall;
    changed = true;
    return {
      ...toolCall,
      content: toolCall.content.map((item) =>
        (item as { type: string }).type === TERMINAL_CONTENT_TYPE ? { ...item, type: "terminal" } : item,
      ) as typeof toolCall.content,
    };
  });
  return changed ? { ...state, toolCalls } : state;
}
