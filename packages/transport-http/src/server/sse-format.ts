// How the endpoint writes events on an SSE stream: one JSON-RPC message per `data:` line; with
// resume on, each with its event id (RT26); a gap notice first when a returning reader asked for
// events no longer kept; a comment line with the close reason last.
import { GAP_EVENT } from "../common.js";
import type { OutboxBatch, OutboxReader } from "./outbox.js";

/** The text of a batch of events. */
export function sseEvents(batch: OutboxBatch, withIds: boolean): string {
  if (!withIds) return batch.texts.length === 1 ? `data: ${batch.texts[0]}\n\n` : `data: ${batch.texts.join("\n\ndata: ")}\n\n`;
  let text = "";
  for (let index = 0; index < batch.texts.length; index++) text += `id: ${batch.firstId + index}\ndata: ${batch.texts[index]}\n\n`;
  return text;
}

/** What a stream starts with: the gap notice, when the reader asked for events no longer kept. */
export function sseOpening(reader: OutboxReader): string {
  return reader.gap === undefined ? "" : `event: ${GAP_EVENT}\ndata: ${JSON.stringify(reader.gap)}\n\n`;
}

/** What a stream ends with: its connection's close reason in a comment line, when it has one. */
export function sseClosing(reader: OutboxReader): string | undefined {
  const reason = reader.endReason;
  return reason === undefined ? undefined : `: closed: ${reason.replace(/[\r\n]+/g, " ")}\n\n`;
}
