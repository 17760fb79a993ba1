// Cancelling one piece of an agent's work: a tool call or an agent-owned terminal that advertises
// `capabilities.cancel` (the later v2 draft's `tool_call/cancel` and `terminal/cancel`, sent as the
// model's `_acpkit/…` requests that the later-v2 codec renames; docs/protocol.md A10). The answer
// only means the cancel was accepted: the agent confirms it with the call's final status or the
// terminal's exit status, which reach `state` as usual.
import { AcpError, CANCEL_TERMINAL_METHOD, CANCEL_TOOL_CALL_METHOD, type Connection } from "@acpkit/core";
import type { SessionState } from "./state/session-state.js";

/** What is cancelled: a tool call or an agent terminal, by id. */
export type CancellableWork = { toolCallId: string } | { terminalId: string };

/**
 * Ask the agent to cancel `work` in session `sessionId`. Rejects with AcpError "InvalidArgument"
 * (sending nothing) when the state knows no such tool call or terminal, or it does not advertise
 * `capabilities.cancel` now (v1 and pinned-v2 agents other than acpkit's never do).
 */
export async function cancelWork(connection: Connection, sessionId: string, state: SessionState, work: CancellableWork): Promise<void> {
  if ("toolCallId" in work) {
    const call = state.toolCall(work.toolCallId);
    if (call === undefined) throw new AcpError("InvalidArgument", `cancelToolCall: session ${sessionId} has no tool call "${work.toolCallId}"`);
    if (call.capabilities?.cancel == null) {
      throw new AcpError("InvalidArgument", `cancelToolCall: tool call "${work.toolCallId}" does not advertise capabilities.cancel`);
    }
    await connection.request(CANCEL_TOOL_CALL_METHOD as never, { sessionId, toolCallId: work.toolCallId } as never);
    return;
  }
  const terminal = state.agentTerminal(work.terminalId);
  if (terminal === undefined) throw new AcpError("InvalidArgument", `cancelTerminal: session ${sessionId} has no agent terminal "${work.terminalId}"`);
  if (terminal.capabilities?.cancel == null) {
    throw new AcpError("InvalidArgument", `cancelTerminal: terminal "${work.terminalId}" does not advertise capabilities.cancel`);
  }
  await connection.request(CANCEL_TERMINAL_METHOD as never, { sessionId, terminalId: work.terminalId } as never);
}
