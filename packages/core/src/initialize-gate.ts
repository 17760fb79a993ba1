// The initialize gate (docs/protocol.md N8), for the agent side: until `initialize` succeeded, every
// other request is refused with -32600, notifications are dropped and batches are refused; a second
// `initialize` is refused too. A connection without the gate admits everything.
import type { JsonRpcResponse } from "./jsonrpc.js";

const State = { None: 0, InProgress: 1, Done: 2 } as const;
type State = (typeof State)[keyof typeof State];

export class InitializeGate {
  private state: State = State.None;

  constructor(private readonly enabled: boolean) {}

  /** Why the request `method` may not run now, or undefined when it may. Starting `initialize` moves the gate on. */
  admitRequest(method: string): string | undefined {
    if (!this.enabled) return undefined;
    if (method === "initialize") {
      if (this.state === State.Done) return "connection already initialized";
      if (this.state === State.InProgress) return "initialize is already in progress";
      this.state = State.InProgress;
      return undefined;
    }
    return this.state === State.Done ? undefined : "connection not initialized";
  }

  /** Whether notifications (and batches) are accepted. */
  get open(): boolean {
    return !this.enabled || this.state === State.Done;
  }

  /** Every answer to an admitted request passes here: the answer to `initialize` opens (or resets) the gate. */
  answered(method: string, response: JsonRpcResponse): void {
    if (this.enabled && method === "initialize" && this.state === State.InProgress) {
      this.state = "error" in response ? State.None : State.Done;
    }
  }
}
