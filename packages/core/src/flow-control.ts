// A Connection's input flow control. Messages waiting behind a slow async notification handler are
// accepted data and cannot be dropped: past a high-water mark the connection stops reading
// instead (E8). Nothing behind the handler runs until it settles anyway, the answers to our
// requests included, so pausing costs no progress. The same while answers are held back for a
// peer that does not read them (reply-outbox.ts). Input runs again once neither holds.
import type { IncomingQueue } from "./incoming-queue.js";
import type { ReplyOutbox } from "./reply-outbox.js";
import type { Transport } from "./transport.js";

/** Pause `transport` while `queue` is backlogged or `outbox` holds answers (a transport that cannot pause is left alone). */
export function pauseInputWhileBacklogged(transport: Transport, queue: IncomingQueue<unknown>, outbox: ReplyOutbox): void {
  if (transport.pause === undefined || transport.resume === undefined) return;
  let backlogged = false;
  let holding = false;
  const flow = (): void => (backlogged || holding ? transport.pause!() : transport.resume!());
  queue.onBacklog = (value) => {
    backlogged = value;
    flow();
  };
  outbox.onHolding = (value) => {
    holding = value;
    flow();
  };
}
