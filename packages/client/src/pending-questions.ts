// The agent's questions to the application that are still open (permission requests,
// elicitations). The client's cancel duty (docs/protocol.md C3) is kept here: when the turn is
// cancelled, the agent withdraws a request or the connection closes, each open question's handler
// sees its signal abort and the agent is answered "cancelled".
import { AcpError, type RequestContext } from "@acpkit/core";

/** A question waiting for the application's answer; `cancel` answers it "cancelled". */
interface PendingQuestion {
  cancel(): void;
}

export class PendingQuestions {
  private readonly pending = new Set<PendingQuestion>();

  /**
   * Put a question of the agent's to the application (a permission request, an elicitation),
   * keeping the client's cancel duty: when the turn is cancelled (C3), the agent withdraws the
   * request or the connection closes, the handler's signal aborts and the answer is `cancelled`.
   */
  ask<T>(handler: (signal: AbortSignal) => T | Promise<T>, cancelled: T, ctx: RequestContext): Promise<T> {
    return new Promise((resolve, reject) => {
      const controller = new AbortController();
      let settled = false;
      const pending: PendingQuestion = {
        cancel: () => {
          if (settled) return;
          controller.abort(new AcpError("Cancelled", "The turn was cancelled"));
          finish(cancelled);
        },
      };
      const done = () => {
        settled = true;
        this.pending.delete(pending);
        ctx.signal.removeEventListener("abort", pending.cancel);
      };
      const finish = (answer: T) => {
        if (settled) return;
        done();
        resolve(answer);
      };
      this.pending.add(pending);
      // The agent withdrew the request ($/cancel_request, v1) or the connection closed.
      ctx.signal.addEventListener("abort", pending.cancel, { once: true });
      Promise.resolve()
        .then(() => handler(controller.signal))
        .then(finish, (error: unknown) => {
          if (settled) return;
          done();
          reject(error);
        });
    });
  }

  /** Answer every open question "cancelled" (a cancelled turn, a closed connection). */
  cancelAll(): void {
    for (const pending of [...this.pending]) pending.cancel();
  }
}
