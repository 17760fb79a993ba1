// Collects the responses to one incoming batch (pinned v2, docs/protocol.md §8.2) and sends them as one
// array once every entry that needs an answer has one. A batch with nothing to answer (only
// notifications) sends nothing — never `[]`.
import { classifyMessage, isThenable, JsonRpcKind, type JsonRpcResponse } from "./jsonrpc.js";

export class BatchReply {
  private readonly responses: JsonRpcResponse[] = [];

  /**
   * @param expected how many responses the batch will produce (requests + invalid entries)
   * @param send     called once with the full array when the last response arrives
   */
  constructor(
    private readonly expected: number,
    private readonly send: (responses: JsonRpcResponse[]) => void,
  ) {}

  add(response: JsonRpcResponse): void {
    this.responses.push(response);
    if (this.responses.length === this.expected) this.send(this.responses);
  }
}

/**
 * Runs the entries of an accepted batch in order, like single messages (an async notification
 * handler holds the rest back), collecting the answers into one array for `send`.
 */
export function runBatch(
  entries: readonly unknown[],
  processOne: (entry: unknown, batch: BatchReply) => void | PromiseLike<unknown>,
  send: (responses: JsonRpcResponse[]) => void,
): void | PromiseLike<unknown> {
  let expected = 0;
  for (const entry of entries) {
    const kind = classifyMessage(entry);
    if (kind === JsonRpcKind.Request || kind === JsonRpcKind.Invalid) expected++;
  }
  const batch = new BatchReply(expected, send);
  const runFrom = (start: number): void | PromiseLike<unknown> => {
    for (let i = start; i < entries.length; i++) {
      const pending = processOne(entries[i], batch);
      if (isThenable(pending)) return pending.then(() => runFrom(i + 1));
    }
  };
  return runFrom(0);
}
