// Taking up a connection whose node died (docs/remote.md RT34–RT36): the requests the old node never
// answered end with an error, a new agent process is initialized as the client initialized the old
// one, and each session is re-attached with session/resume (or session/load, whose replayed history
// the client already has); a session the agent cannot take up again has its stream ended with a
// reason. Client messages that arrive meanwhile wait, then reach the new agent in order.
import type { Adoption } from "./backend.js";
import type { OwnedConnection } from "./owned-connection.js";

/** The JSON-RPC code of the error a request gets when its node died before answering it. */
export const NODE_LOST_CODE = -32603;
/** The `error.data` key that marks that error, so a client can tell it from the agent's own. */
export const NODE_LOST_DATA_KEY = "acpkit.dev/nodeLost";

export async function reattach(connection: OwnedConnection, adoption: Adoption): Promise<void> {
  const { record, sessions, pending } = adoption;
  for (const request of pending) {
    const ref = request.sessionId === undefined ? { connectionId: record.connectionId } : { connectionId: record.connectionId, sessionId: request.sessionId };
    connection.write(
      ref,
      {
        jsonrpc: "2.0",
        id: request.id,
        error: {
          code: NODE_LOST_CODE,
          message:
            "the server node that ran this request stopped before answering it; the connection continues on another node, but this request was not completed",
          data: { [NODE_LOST_DATA_KEY]: true },
        },
      },
      request.key,
    );
  }
  let capabilities: { loadSession?: unknown; sessionCapabilities?: { resume?: unknown } } = {};
  try {
    const params = (JSON.parse(record.initialize) as { params?: unknown }).params;
    const answer = await connection.request("initialize", params);
    if ("error" in answer) throw new Error(`the new agent process refused initialize: ${JSON.stringify(answer.error)}`);
    capabilities = ((answer.result as { agentCapabilities?: typeof capabilities } | undefined)?.agentCapabilities ?? {}) as typeof capabilities;
  } catch (error) {
    connection.finish({ reason: `the connection could not move to another node: ${(error as Error).message}` });
    return;
  }
  const resume = typeof capabilities.sessionCapabilities?.resume === "object" && capabilities.sessionCapabilities.resume !== null;
  const load = capabilities.loadSession === true;
  for (const session of sessions) {
    if (!resume && !load) {
      connection.endSession(session.sessionId, "the server node that held this session stopped, and the agent can neither resume nor load sessions");
      continue;
    }
    const method = resume ? "session/resume" : "session/load";
    if (!resume) connection.replaying.add(session.sessionId);
    try {
      const answer = await connection.request(method, { ...(JSON.parse(session.params) as object), sessionId: session.sessionId });
      if ("error" in answer) connection.endSession(session.sessionId, `the agent refused ${method} after its node stopped: ${JSON.stringify(answer.error)}`);
    } catch (error) {
      connection.endSession(session.sessionId, `the agent did not take the session up again: ${(error as Error).message}`);
    } finally {
      connection.replaying.delete(session.sessionId);
    }
  }
  connection.release();
}
