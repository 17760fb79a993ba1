// The session methods besides setup and prompt: set_mode, set_config_option, close, list, delete,
// and logout. Each checks what it can, calls the agent's hook (its failure is the client's error),
// and only then changes the session.
import { checkAbsolutePathParam } from "@acpkit/core";
import type { v1, v2 } from "@acpkit/schema";
import { callHook } from "./hooks.js";
import type { RuntimeScope } from "./runtime-scope.js";
import { TurnImpl } from "./turn.js";
import type { ConfigOption } from "./types.js";

type Empty = Record<string, never>;

export async function setMode(scope: RuntimeScope, params: v1.SetSessionModeRequest): Promise<Empty> {
  const session = scope.sessions.require(params.sessionId);
  session.settings.checkModeRequest(params.modeId);
  await callHook(() => scope.agent.setMode?.({ sessionId: session.sessionId, modeId: params.modeId, client: scope.client }));
  session.settings.setMode(params.modeId);
  return {};
}

export async function setConfigOption(
  scope: RuntimeScope,
  params: v1.SetSessionConfigOptionRequest | v2.SetSessionConfigOptionRequest,
): Promise<{ configOptions: ConfigOption[] }> {
  const session = scope.sessions.require(params.sessionId);
  const value = session.configValueOf(params);
  const updated = session.settings.withValueForRequest(params.configId, value);
  const replaced = await callHook(() =>
    scope.agent.setConfigOption?.({ sessionId: session.sessionId, configId: params.configId, value, configOptions: updated, client: scope.client }),
  );
  session.settings.configOptions = replaced ? [...replaced] : updated;
  return { configOptions: [...session.settings.configOptions] };
}

export async function closeSession(scope: RuntimeScope, sessionId: string): Promise<Empty> {
  const session = scope.sessions.require(sessionId);
  // Closing ends whatever the session was doing: its turn is cancelled like session/cancel (it
  // answers "cancelled"), and the session is forgotten once the handler agreed.
  if (session.busy instanceof TurnImpl) session.busy.cancel("The client closed the session");
  session.work.cancelAll("The client closed the session");
  await callHook(() => scope.agent.closeSession?.({ sessionId, client: scope.client }));
  scope.sessions.delete(sessionId);
  return {};
}

export async function listSessions(scope: RuntimeScope, params: v1.ListSessionsRequest | v2.ListSessionsRequest): Promise<v1.ListSessionsResponse> {
  // The filter is optional; when given, it is a directory like any session's cwd.
  if (params.cwd != null) checkAbsolutePathParam("session/list", "/cwd", params.cwd);
  scope.requireAuthenticated();
  // Reading the page is inside the hook call too: a page that is not one is the agent's error.
  return callHook(async () => {
    const page = await scope.agent.listSessions!({ cwd: params.cwd ?? null, cursor: params.cursor ?? null, client: scope.client });
    const result: v1.ListSessionsResponse = { sessions: [...page.sessions] };
    if (page.nextCursor != null) result.nextCursor = page.nextCursor;
    return result;
  });
}

export async function deleteSession(scope: RuntimeScope, sessionId: string): Promise<Empty> {
  scope.requireAuthenticated();
  const session = scope.sessions.get(sessionId);
  if (session?.busy instanceof TurnImpl) session.busy.cancel("The client deleted the session");
  await callHook(() => scope.agent.deleteSession!({ sessionId, client: scope.client }));
  scope.sessions.delete(sessionId);
  return {};
}

export async function logout(scope: RuntimeScope): Promise<Empty> {
  await callHook(() => scope.agent.logout!(scope.client));
  scope.signOut();
  return {};
}
