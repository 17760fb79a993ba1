// session/new, session/load and session/resume: one way to set up a session. The three differ in
// where the session comes from (a new id, or the client's) and in whether the agent replays its
// history (load writes it through an UpdateWriter first); the checks, the session limit, adopting
// the setup's modes and options and announcing its commands are one path.
import { checkAbsolutePathParam, ErrorCode, type RequestContext, RpcError } from "@acpkit/core";
import type { AgentDiagnostic as Diagnostic } from "./diagnostics.js";
import type { ProtocolVersion, v1, v2 } from "@acpkit/schema";
import type { AgentSession } from "./agent-session.js";
import { callHook } from "./hooks.js";
import type { RuntimeScope } from "./runtime-scope.js";
import { v1Bridge } from "./v1-bridge.js";
import type { LoadSessionRequest, McpServer, SessionSetup, SessionSetupResult } from "./types.js";
import { UpdateWriter } from "./writer.js";

let fallbackSessionCounter = 0;
function newSessionId(): string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return `sess_${uuid ?? `${Date.now().toString(36)}_${++fallbackSessionCounter}`}`;
}

/** MCP servers in the model (v2) shape; v1 stdio servers get `type: "stdio"`, SSE is reported (§7.1). */
function modelMcpServers(version: ProtocolVersion, servers: v1.McpServer[] | v2.McpServer[], report: (diagnostic: Diagnostic) => void): McpServer[] {
  // The connection validated the params against `version`'s schema, so the servers are that version's shape.
  if (version === 2) return servers as v2.McpServer[];
  return v1Bridge().mcpServersFromV1(servers as v1.McpServer[], {
    onLossy: (event) => report({ code: `lossy_${event.code}`, message: event.detail, detail: event.update }),
  });
}

/** A setup's `availableCommands` go out right after the response, once the client knows the session. */
function announceCommands(session: AgentSession, setup: SessionSetup | undefined, ctx: RequestContext): void {
  const commands = setup?.availableCommands;
  if (commands === undefined) return;
  ctx.afterResponse(() => {
    const writer = new UpdateWriter(session, false);
    writer.availableCommands(commands);
    void writer.close();
  });
}

/** The result of a setup: the session's modes (v1) and config options, and any `_meta`. */
function setupResponse(session: AgentSession, setup: SessionSetup | undefined): v1.LoadSessionResponse & v2.LoadSessionResponse {
  const response: Record<string, unknown> = session.setupFields();
  if (setup?._meta !== undefined) response._meta = setup._meta;
  return response as v1.LoadSessionResponse & v2.LoadSessionResponse;
}

/** session/new: the agent's newSession hook (optional) may name the session; otherwise acpkit does. */
export async function newSession(
  scope: RuntimeScope,
  params: v1.NewSessionRequest | v2.NewSessionRequest,
  ctx: RequestContext,
): Promise<v1.NewSessionResponse | v2.NewSessionResponse> {
  // H10: the schema lets any string through as a cwd; the agent's code only ever sees absolute ones.
  checkAbsolutePathParam("session/new", "/cwd", params.cwd);
  scope.requireAuthenticated();
  const release = scope.sessions.reserve("session/new", undefined);
  let result: (SessionSetup & { sessionId?: string }) | undefined;
  try {
    // Not through callHook: the connection answers a failure of newSession itself (its RpcError,
    // or -32603 with its message), without the "Agent error:" prefix the other hooks get.
    result = (await scope.agent.newSession?.({
      cwd: params.cwd,
      mcpServers: modelMcpServers(scope.version, params.mcpServers, scope.report),
      _meta: params._meta,
      client: scope.client,
    })) as (SessionSetup & { sessionId?: string }) | undefined;
  } finally {
    release();
  }
  const sessionId = result?.sessionId ?? newSessionId();
  if (scope.sessions.has(sessionId)) {
    throw new RpcError(ErrorCode.InternalError, `Agent error: newSession returned session id "${sessionId}", which already exists on this connection`);
  }
  const session = scope.createSession(sessionId);
  session.adopt(result);
  scope.sessions.add(session);
  announceCommands(session, result, ctx);
  const response = { sessionId, ...session.setupFields() };
  return result?._meta === undefined ? response : { ...response, _meta: result._meta };
}

type ExistingSessionRequest = { sessionId: string; cwd: string; mcpServers?: v1.McpServer[] | v2.McpServer[]; _meta?: unknown };

/**
 * session/load (`replay`: the agent writes the session's history first, through a writer that
 * marks the session busy meanwhile) or session/resume (no replay): a session the client names.
 */
export async function openSession(
  scope: RuntimeScope,
  method: "session/load" | "session/resume",
  params: ExistingSessionRequest,
  ctx: RequestContext,
): Promise<v1.LoadSessionResponse & v2.LoadSessionResponse> {
  checkAbsolutePathParam(method, "/cwd", params.cwd);
  scope.requireAuthenticated();
  const existing = scope.sessions.get(params.sessionId);
  existing?.requireIdle();
  const release = scope.sessions.reserveSetup(method, params.sessionId, existing);
  const session = existing ?? scope.createSession(params.sessionId);
  const request: LoadSessionRequest = {
    sessionId: params.sessionId,
    cwd: params.cwd,
    mcpServers: modelMcpServers(scope.version, params.mcpServers ?? [], scope.report),
    _meta: params._meta as LoadSessionRequest["_meta"],
    client: scope.client,
  };
  let setup: SessionSetupResult;
  try {
    setup = method === "session/load" ? await replayInto(scope, session, request) : await callHook(() => scope.agent.resumeSession!(request));
    session.adopt(setup ?? undefined);
    scope.sessions.add(session);
  } finally {
    // Released once the session is in the table (or failed): it counts through one or the other throughout.
    release();
  }
  announceCommands(session, setup ?? undefined, ctx);
  return setupResponse(session, setup ?? undefined);
}

/** Run the agent's loadSession with a replay writer; every replayed update is written before the response. */
async function replayInto(scope: RuntimeScope, session: AgentSession, request: LoadSessionRequest): Promise<SessionSetupResult> {
  session.wire.beginRequest?.("load");
  const replay = new UpdateWriter(session, true);
  session.busy = replay;
  try {
    return await callHook(() => scope.agent.loadSession!(request, replay));
  } finally {
    await replay.close();
    session.busy = undefined;
  }
}
