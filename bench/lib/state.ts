// The application state the official-SDK and raw clients keep. Neither has a session model, so
// the benchmark gives them the cheapest honest one an app would write: text parts per message id,
// joined only when read. acpkit clients use acpkit's own SessionState instead.

/** Any session update; only text message chunks carry text to keep. */
interface UpdateLike {
  sessionUpdate: string;
  messageId?: string | null;
  content?: unknown;
}

export class AppTextState {
  readonly messages = new Map<string, string[]>();
  applied = 0;

  apply(update: UpdateLike): void {
    this.applied++;
    if (update.sessionUpdate !== "agent_message_chunk") return;
    const content = update.content as { type?: string; text?: string } | undefined;
    if (content?.type !== "text") return;
    const id = update.messageId ?? "";
    let parts = this.messages.get(id);
    if (parts === undefined) {
      parts = [];
      this.messages.set(id, parts);
    }
    parts.push(content.text ?? "");
  }

  text(messageId: string): string {
    return (this.messages.get(messageId) ?? []).join("");
  }
}
