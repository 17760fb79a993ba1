// A command running on the client (v1 terminal/*), as AgentTurn.createTerminal returns it. Each method
// is one request; `release` is idempotent so cleanup code can call it unconditionally.
import { TERMINAL_CONTENT_TYPE } from "@acpkit/core";
import type { AgentSideConnection } from "./session-wire.js";
import type { TerminalExitStatus, TerminalHandle, AgentTerminalOutput, ToolCallContent } from "./types.js";

export class TerminalHandleImpl implements TerminalHandle {
  readonly content: ToolCallContent;
  private released: Promise<void> | undefined;

  constructor(
    private readonly connection: AgentSideConnection,
    private readonly sessionId: string,
    readonly terminalId: string,
  ) {
    // The model's name for a v1 `terminal` content item (docs/protocol.md B7); the v1 bridge writes `terminal`.
    this.content = { type: TERMINAL_CONTENT_TYPE, terminalId } as unknown as ToolCallContent;
  }

  private get ids() {
    return { sessionId: this.sessionId, terminalId: this.terminalId };
  }

  async output(): Promise<AgentTerminalOutput> {
    const result = await this.connection.request("terminal/output", this.ids);
    return { output: result.output, truncated: result.truncated, exitStatus: result.exitStatus ? exitStatus(result.exitStatus) : null };
  }

  async waitForExit(): Promise<TerminalExitStatus> {
    return exitStatus(await this.connection.request("terminal/wait_for_exit", this.ids));
  }

  async kill(): Promise<void> {
    await this.connection.request("terminal/kill", this.ids);
  }

  release(): Promise<void> {
    this.released ??= this.connection.request("terminal/release", this.ids).then(() => undefined);
    return this.released;
  }
}

function exitStatus(status: { exitCode?: number | null; signal?: string | null }): TerminalExitStatus {
  return { exitCode: status.exitCode ?? null, signal: status.signal ?? null };
}
