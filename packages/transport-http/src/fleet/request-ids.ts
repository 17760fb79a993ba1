// Request ids the agent sends to the client, made unique across the agent processes one connection
// has had (docs/remote.md RT33). After an adoption a new agent process starts counting its ids again,
// while the client may still hold requests of the old one; the epoch (0 for the first process, one
// more at each adoption) is folded into every id the client sees, and taken out of its answers.
//
// Epoch 0 leaves ids untouched, so a connection that never moved shows the agent's own ids.

/** Numeric ids below this are folded as `epoch * SPAN + id`; larger ones become strings. */
const SPAN = 2 ** 32;

/** The id the client sees for the agent's request `id` in `epoch`. */
export function toClientId(id: string | number, epoch: number): string | number {
  if (epoch === 0) return id;
  if (typeof id === "number" && Number.isInteger(id) && id >= 0 && id < SPAN && epoch < 2 ** 20) return epoch * SPAN + id;
  // Strings get "~", numbers that do not fold get "#", so the answer's id converts back exactly.
  return typeof id === "number" ? `${epoch}#${id}` : `${epoch}~${id}`;
}

/** The agent's id for an answer the client sent with `id`, or undefined when it answers another epoch's request. */
export function toAgentId(id: unknown, epoch: number): string | number | undefined {
  if (epoch === 0) return typeof id === "string" || typeof id === "number" ? id : undefined;
  if (typeof id === "number") {
    if (!Number.isInteger(id) || Math.floor(id / SPAN) !== epoch) return undefined;
    return id - epoch * SPAN;
  }
  if (typeof id !== "string") return undefined;
  if (id.startsWith(`${epoch}~`)) return id.slice(String(epoch).length + 1);
  if (id.startsWith(`${epoch}#`)) {
    const number = Number(id.slice(String(epoch).length + 1));
    return Number.isFinite(number) ? number : undefined;
  }
  return undefined;
}
