// The application state the official-SDK and raw clients keep. Neither has a session model, so
// the benchmark gives them the cheapest honest one an app would write: text parts per message id,
// joined only when read. acpkit clients use acpkit's own SessionState instead.

interface ChunkLike {
  sessionUpdate: string;
  messageId?: string | null;
  content?: { type: string; text?: string };
}

export class AppTextState {
  readonly messages = new Map<string, string[]>();
  applied = 0;

  apply(update: ChunkLike): void {
    this.applied++;
    if (update.sessionUpdate !== "agent_message_chunk" || update.content?.type !== "text") return;
    const id = update.messageId ?? "";
    let parts = this.messages.get(id);
    if (parts === undefined) {
      parts = [];
      this.messages.set(id, parts);
    }
    parts.push(update.content.text ?? "");
  }

  text(messageId: string): string {
    return (this.messages.get(messageId) ?? []).join("");
  }
}
