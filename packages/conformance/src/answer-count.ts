// "No request is answered twice" (ACPKIT-RPC-009, ACPKIT-CLIENT-RPC-003; docs/protocol.md E9), for
// both checks: the checker counts the requests it sent per id, so that an id it used twice may be
// answered twice, and finds the first response that answers an id once more than that.
import { isJsonObject } from "@acpkit/core";

/** A parsed line of the peer's output (a message, a batch array, or undefined when not JSON). */
interface AnsweringLine {
  text: string;
  value: unknown;
}

/** A response that answers its id more often than requests were sent with it. */
export interface RepeatedAnswer {
  /** The id, as JSON. */
  id: string;
  answers: number;
  sent: number;
  /** The line that holds the extra answer. */
  text: string;
}

/** The messages of one parsed line: a batch's entries, or the value itself. */
const messagesOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** Requests sent, counted by id (as JSON). */
export class RequestCount {
  private readonly byId = new Map<string, number>();

  /** Counts the requests in `value`, one parsed line we wrote (a message or a batch); anything else counts nothing. */
  add(value: unknown): void {
    for (const message of messagesOf(value)) {
      if (!isJsonObject(message) || typeof message.method !== "string" || !("id" in message)) continue;
      const id = JSON.stringify(message.id);
      this.byId.set(id, (this.byId.get(id) ?? 0) + 1);
    }
  }

  /** How many requests were sent with this id (as JSON). */
  sent(id: string): number {
    return this.byId.get(id) ?? 0;
  }

  /** The first response in `lines` (the peer's output, in order) that answers an id more often than requests were sent with it. */
  firstRepeatedAnswer(lines: Iterable<AnsweringLine>): RepeatedAnswer | undefined {
    const answers = new Map<string, number>();
    for (const line of lines) {
      for (const message of messagesOf(line.value)) {
        // A response; one with id null answers what could not be read, not a request.
        if (!isJsonObject(message) || "method" in message || !("id" in message) || message.id === null) continue;
        const id = JSON.stringify(message.id);
        const count = (answers.get(id) ?? 0) + 1;
        answers.set(id, count);
        const sent = this.byId.get(id) ?? 0;
        // An answer to an id never sent is another requirement's finding (ids echoed, answers to notifications).
        if (sent > 0 && count > sent) return { id, answers: count, sent, text: line.text };
      }
    }
    return undefined;
  }
}
