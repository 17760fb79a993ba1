// An agent-owned terminal (the later v2 draft's `terminal_update` / `terminal_output_chunk`): the
// agent runs the command itself and shows it. Each call writes one model update through the
// writer that made the handle (`_acpkit/terminal_update`, `_acpkit/terminal_output_chunk`; the
// later-v2 codec renames them, docs/protocol.md A12).
import { AcpError, AGENT_TERMINAL_CONTENT_TYPE, AGENT_TERMINAL_OUTPUT, AGENT_TERMINAL_UPDATE } from "@acpkit/core";
import type { CancellableWork } from "./cancellable-work.js";
import type { AgentTerminalHandle, SessionUpdate, ToolCallContent } from "./types.js";

const utf8 = new TextEncoder();

/** Base64 of `bytes` (btoa over a binary string: the platform's own, in Node and browsers). */
function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export class AgentTerminalHandleImpl implements AgentTerminalHandle {
  #exited = false;
  readonly content: ToolCallContent;

  constructor(
    private readonly send: (update: SessionUpdate) => void,
    readonly terminalId: string,
    readonly signal: AbortSignal,
    private readonly work: CancellableWork | undefined,
  ) {
    this.content = { type: AGENT_TERMINAL_CONTENT_TYPE, terminalId } as unknown as ToolCallContent;
  }

  write(data: string | Uint8Array): void {
    if (this.#exited) throw new AcpError("InvalidArgument", `agent terminal ${this.terminalId}: write after exit`);
    const bytes = typeof data === "string" ? utf8.encode(data) : data;
    if (bytes.length === 0) return;
    this.send({ sessionUpdate: AGENT_TERMINAL_OUTPUT, terminalId: this.terminalId, data: base64Of(bytes) } as unknown as SessionUpdate);
  }

  exit(status: { exitCode?: number | null; signal?: string | null }): void {
    if (this.#exited) return;
    this.#exited = true;
    this.work?.end("terminal", this.terminalId);
    const exitStatus = { exitCode: status.exitCode ?? null, signal: status.signal ?? null };
    this.send({ sessionUpdate: AGENT_TERMINAL_UPDATE, terminalId: this.terminalId, exitStatus, capabilities: null } as unknown as SessionUpdate);
  }
}
