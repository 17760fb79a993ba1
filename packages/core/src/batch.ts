// Collects the responses to one incoming batch (pinned v2, docs/protocol.md §8.2) and sends them as one
// array once every entry that needs an answer has one. A batch with nothing to answer (only
// notifications) sends nothing — never `[]`.
import type { IncomingRequest } from "./incoming-request.js";
import { classifyMessage, isThenable, JsonRpcKind, type JsonRpcResponse } from "./jsonrpc.js";

/** Sends a batch's answers; `answered` are the requests answered successfully, whose afterResponse listeners run once it was handed over. */
export type SendBatchReply = (responses: JsonRpcResponse[], answered: IncomingRequest[] | undefined) => void;

export class BatchReply {
  private readonly responses: JsonRpcResponse[] = [];
  private answered: IncomingRequest[] | undefined;

  /**
   * @param expected how many responses the batch will produce (requests + invalid entries)
   * @param send     called once with the full array when the last response arrives
   */
  constructor(
    private readonly expected: number,
    private readonly send: SendBatchReply,
  ) {}

  /**
   * One entry's answer. A request answered successfully comes along: messages that must follow
   * its response (a new session's first updates) wait until the whole array went out, since the
   * peer learns the answer only from that array.
   */
  add(response: JsonRpcResponse, request?: IncomingRequest): void {
    this.responses.push(response);
    if (request !== undefined) (this.answered ??= []).push(request);
    if (this.responses.length === this.expected) this.send(this.responses, this.answered);
  }
}

/**
 * Runs the entries of an accepted batch in order, like single messages (an async notification
 * handler holds the rest back), collecting the answers into one array for `send`.
 */
export function runBatch(
  entries: readonly unknown[],
  processOne: (entry: unknown, batch: BatchReply) => void | PromiseLike<unknown>,
  send: SendBatchReply,
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

/**
 * Why a batch is refused as a whole (docs/protocol.md §8.2 and N8): batches exist only on v2
 * connections, and only after initialize; an empty one is invalid. Undefined when it is taken.
 */
export function batchRefusal(initialized: boolean, version: 1 | 2 | undefined, size: number): string | undefined {
  if (!initialized) return "connection not initialized";
  if (version !== 2) return `batches are only accepted on protocol v2 connections${version === undefined ? "" : ` (this one is v${version})`}`;
  if (size === 0) return "empty batch";
  return undefined;
}
