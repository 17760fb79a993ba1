// Collects the responses to one incoming batch (pinned v2, docs/protocol.md §8.2) and sends them as one
// array once every entry that needs an answer has one. A batch with nothing to answer (only
// notifications) sends nothing — never `[]`.
import type { JsonRpcResponse } from "./jsonrpc.js";

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
