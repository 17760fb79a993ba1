// Tool calls that outlive their turn (the later v2 draft's background work). A `background` tool
// call writes through the session's own writer, which never closes the way a turn's does, so its
// updates after the turn's answer are sent instead of dropped. The session keeps the set of such
// calls still running and reports it as the snapshot the draft asks for: a `STATE_UPDATE` with
// `background` (the later codec puts the last one on the turn's `idle`, docs/protocol.md §12), once
// before a turn's answer and again whenever one of them ends. Invariant: the snapshot lists exactly
// the background calls started and not yet ended with a final status.
import { AcpError, STATE_UPDATE } from "@acpkit/core";
import type { PermissionOutcome, SessionUpdate, ToolCallHandle, ToolCallStart } from "./types.js";
import { UpdateWriter, type WriterScope } from "./writer.js";

/** The session's writer for work outside any turn: it stays open for as long as the session. */
class SessionWriter extends UpdateWriter {
  /** A tool call of this writer whose end runs `onEnd`. */
  backgroundToolCall(start: ToolCallStart, onEnd: () => void): ToolCallHandle {
    return this.startToolCall(start, onEnd);
  }

  protected override askPermission(): Promise<PermissionOutcome> {
    return Promise.reject(
      new AcpError("Unsupported", "A background tool call cannot ask for permission: ask from the turn (turn.requestPermission) before handing the work over"),
    );
  }
}

export class BackgroundWork {
  readonly #running = new Set<string>();
  #writer: SessionWriter | undefined;
  #reportedLoss = false;

  constructor(
    private readonly scope: WriterScope,
    /** Whether a turn of the session is running now (the state the snapshot goes with). */
    private readonly turnRunning: () => boolean,
  ) {}

  /** Start a background tool call; its handle writes through the session's writer. */
  toolCall(start: ToolCallStart): ToolCallHandle {
    this.#writer ??= new SessionWriter(this.scope, false);
    const writer = this.#writer;
    // A call started with a final status ends inside backgroundToolCall, before it was added.
    let ended = false;
    let handle: ToolCallHandle | undefined;
    handle = writer.backgroundToolCall(start, () => {
      ended = true;
      if (handle !== undefined && this.#running.delete(handle.toolCallId)) this.#sendSnapshot(writer);
    });
    if (!ended) this.#running.add(handle.toolCallId);
    this.#reportLossOnce();
    return handle;
  }

  /**
   * Before a turn's answer: the snapshot of what still runs, written by the turn so that it
   * precedes the answer, as the state the answer leaves the session in (`idle`). The later codec
   * keeps it for the turn's own `idle`; other v2 clients get it as acpkit's state update.
   */
  beforeAnswer(turnWriter: UpdateWriter): void {
    if (this.#running.size > 0) this.#sendSnapshot(turnWriter, "idle");
  }

  #sendSnapshot(writer: UpdateWriter, state = this.turnRunning() ? "running" : "idle"): void {
    if (this.scope.client.protocolVersion === 1) return; // v1 has no place for it (reported once)
    const background = [...this.#running].map((toolCallId) => ({ type: "tool_call", toolCallId }));
    writer.send({ sessionUpdate: STATE_UPDATE, state, background } as unknown as SessionUpdate);
  }

  #reportLossOnce(): void {
    if (this.scope.client.protocolVersion !== 1 || this.#reportedLoss) return;
    this.#reportedLoss = true;
    this.scope.report({
      code: "lossy_session_update",
      message: `v1 has no background work: tool calls of session ${this.scope.sessionId} that outlive their turn send their updates after it, without the snapshot of what still runs`,
      sessionId: this.scope.sessionId,
    });
  }
}
