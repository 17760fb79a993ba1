// Putting a new HTTP+SSE connection into service, the same way for the endpoint's own connections
// and a fleet node's: listed in its table until it closes (and only while the table still lists
// this very object), then handed to onConnection; if that throws, the connection ends at once with
// the error, so nothing half-started stays listed.
import type { CloseInfo, Transport } from "@acpkit/core";
import type { ConnectionInfo } from "./types.js";

/** What a hosted connection must offer. */
export interface Hostable extends Transport {
  readonly id: string;
  readonly closed: Promise<CloseInfo>;
  finish(info: CloseInfo): void;
}

export function hostConnection<C extends Hostable>(
  table: Map<string, C>,
  connection: C,
  info: Omit<ConnectionInfo, "connectionId">,
  notify: (transport: Transport, info: ConnectionInfo) => void,
): C {
  table.set(connection.id, connection);
  void connection.closed.then(() => {
    if (table.get(connection.id) === connection) table.delete(connection.id);
  });
  try {
    notify(connection, { ...info, connectionId: connection.id });
  } catch (error) {
    connection.finish({ reason: "onConnection threw", error });
    throw error;
  }
  return connection;
}
