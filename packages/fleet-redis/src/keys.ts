// Where the fleet keeps what in Redis, under one prefix (the scripts in scripts.ts build the same
// names from the prefix, so the two must change together):
//   node:ID            a node's heartbeat (expires)          inbox:ID        a node's inbox (stream)
//   conns              every open connection id (set)        conn:CID        owner, epoch, init (hash)
//   sessions:CID       session id → params (hash)            pending:CID     request key → JSON (hash)
//   adopted:CID        the last adoption's result, for a minute (so a resent ADOPT gets it again)
//   streams:CID        the stream names of a connection      s:CID:NAME      a stream's events
//   m:CID:NAME         a stream's meta (hash)                r:CID:NAME      its reader lease
//   z:CID:NAME         "first:count:chars" of each entry of the stream, oldest first (list)
//   w:CID:NAME         the pub/sub channel that wakes its readers
// NAME is the session id, or "" for the connection stream.
import type { StreamRef } from "@acpkit/transport-http";

export class FleetKeys {
  constructor(readonly prefix: string) {}

  node(nodeId: string): string {
    return `${this.prefix}node:${nodeId}`;
  }
  inbox(nodeId: string): string {
    return `${this.prefix}inbox:${nodeId}`;
  }
  get conns(): string {
    return `${this.prefix}conns`;
  }
  conn(connectionId: string): string {
    return `${this.prefix}conn:${connectionId}`;
  }
  sessions(connectionId: string): string {
    return `${this.prefix}sessions:${connectionId}`;
  }
  pending(connectionId: string): string {
    return `${this.prefix}pending:${connectionId}`;
  }
  adopted(connectionId: string): string {
    return `${this.prefix}adopted:${connectionId}`;
  }
  streams(connectionId: string): string {
    return `${this.prefix}streams:${connectionId}`;
  }
  /** The name of a stream within its connection: the session id, or "" for the connection stream. */
  name(ref: StreamRef): string {
    return ref.sessionId ?? "";
  }
  stream(ref: StreamRef): string {
    return `${this.prefix}s:${ref.connectionId}:${this.name(ref)}`;
  }
  sizes(ref: StreamRef): string {
    return `${this.prefix}z:${ref.connectionId}:${this.name(ref)}`;
  }
  meta(ref: StreamRef): string {
    return `${this.prefix}m:${ref.connectionId}:${this.name(ref)}`;
  }
  reader(ref: StreamRef): string {
    return `${this.prefix}r:${ref.connectionId}:${this.name(ref)}`;
  }
  channel(ref: StreamRef): string {
    return `${this.prefix}w:${ref.connectionId}:${this.name(ref)}`;
  }
}
