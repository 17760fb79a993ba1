/** What a codec made of one message from the peer: the model messages to hand to the runtime, in order, and answers it sends back to the peer itself. */
export interface Inbound {
  deliver: Record<string, unknown>[];
  replies: Record<string, unknown>[];
}
