// Which timeline item came first. SessionState keeps messages, tool calls and plans in separate
// lists; the page shows them interleaved in arrival order, so each item gets a number the first
// time it is seen. Callers stamp right after every change, which makes the numbers follow arrival.
import type { SessionState } from "@acpkit/client";

/** Numbers items by first appearance; one per session view. */
export class TimelineOrder {
  static #next = 0;
  readonly #order = new Map<string, number>();

  /** The item's place (0 if never stamped). */
  of(key: string): number {
    return this.#order.get(key) ?? 0;
  }

  /** Give each item of `state` that has no place yet the next one. */
  stamp(state: SessionState): void {
    for (const message of state.messages) this.#add(`m:${message.messageId}`);
    for (const toolCall of state.toolCalls) this.#add(`t:${toolCall.toolCallId}`);
    for (const plan of state.plans) this.#add(`p:${plan.id}`);
  }

  #add(key: string): void {
    if (!this.#order.has(key)) this.#order.set(key, ++TimelineOrder.#next);
  }
}
