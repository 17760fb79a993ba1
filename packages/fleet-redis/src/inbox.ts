// A node's inbox: the messages other nodes forward to the connections it owns, read in order from
// one Redis stream with blocking reads on a connection of its own. What was read is trimmed from the
// stream, so a node that starts again under the same id reads only what came since (messages for
// connections it no longer owns, which it ignores). Across a Redis outage it keeps its position, so
// nothing is skipped and nothing is read twice.
import type { Redis } from "ioredis";

/** How long one blocking read waits before it is issued again (so stop() is noticed). */
const BLOCK_MS = 1000;
/** The pause after a failed read (the server unreachable) before the next. */
const RETRY_MS = 200;

/** Read `key` until the returned stop() is called; resolves stop() once the loop ended. */
export function readInbox(connection: Redis, key: string, onMessage: (connectionId: string, message: string) => void): () => Promise<void> {
  let stopped = false;
  const loop = (async () => {
    let position = "0-0";
    while (!stopped) {
      try {
        const reply = (await connection.xread("COUNT", 256, "BLOCK", BLOCK_MS, "STREAMS", key, position)) as Array<[string, Array<[string, string[]]>]> | null;
        for (const [id, fields] of reply?.[0]?.[1] ?? []) {
          position = id;
          const values = fieldMap(fields);
          if (values.c !== undefined && values.m !== undefined) onMessage(values.c, values.m);
        }
        if (reply !== null) await connection.xtrim(key, "MINID", following(position));
      } catch {
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  })();
  return async () => {
    stopped = true;
    await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, BLOCK_MS * 2).unref?.())]);
  };
}

/** The stream id right after `id` ("ms-seq"), so MINID keeps only what came after it. */
function following(id: string): string {
  const [ms, seq] = id.split("-");
  return `${ms}-${Number(seq) + 1}`;
}

function fieldMap(fields: string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (let index = 0; index + 1 < fields.length; index += 2) map[fields[index]!] = fields[index + 1]!;
  return map;
}
