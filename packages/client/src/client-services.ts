// What a client serves its agent besides permission answers: fs/* (v1, when the application gave
// file handlers), terminal/* (a TerminalHost) and elicitation (handlers). Each request is checked
// (its session is open, its paths absolute) before the application's code sees it.
import {
  checkAbsolutePathParam,
  type Connection,
  type RequestContext,
  ELICITATION_COMPLETE_METHOD,
  ELICITATION_CREATE_METHOD,
  ErrorCode,
  isJsonObject,
  RpcError,
} from "@acpkit/core";
import type { v1 } from "@acpkit/schema";
import type { SessionController } from "./session-controller.js";
import type { ElicitationHandlers, ElicitationResult, FileSystemHandlers, TerminalHost } from "./types.js";

/** The open session a request names, or -32002. */
export type SessionLookup = (sessionId: string) => SessionController;

const ignore = (): void => {};

/**
 * E4: an agent's file request names an absolute path and 1-based lines. The schema allows any
 * string and line 0, so this answers them -32602 before the application's handler sees them (a
 * handler given "../x" would resolve it against the editor's own directory).
 */
function checkFileParams(method: string, params: { path: string; line?: number | null }): void {
  checkAbsolutePathParam(method, "/path", params.path);
  if (params.line === 0) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: /line must be 1 or more (lines are 1-based)`, {
      path: "/line",
      message: "must be 1 or more (lines are 1-based)",
    });
  }
}

/** fs/* for the sessions of this connection: only the functions the application gave, checked first (E4). */
export function serveFileSystem(connection: Connection, fs: FileSystemHandlers, requireSession: SessionLookup): void {
  if (typeof fs?.readTextFile === "function") {
    const read = fs.readTextFile.bind(fs);
    // A file's text is the one large answer an agent can ask for many times at once, each a
    // string of its own. Reads therefore run one at a time, each once the answers before it
    // went out (Connection.outputReady): 300 reads of a 10 MB file asked in one go then hold
    // about one file's text at a time instead of 300.
    let lastRead: Promise<unknown> = Promise.resolve();
    const readWhenReady = async (params: Parameters<typeof read>[0]): Promise<{ content: string }> => {
      await connection.outputReady();
      return { content: await read(params) };
    };
    connection.onRequest("fs/read_text_file", (params) => {
      requireSession(params.sessionId);
      checkFileParams("fs/read_text_file", params);
      const answer = lastRead.then(() => readWhenReady(params));
      lastRead = answer.then(ignore, ignore);
      return answer;
    });
  }
  if (typeof fs?.writeTextFile === "function") {
    const write = fs.writeTextFile.bind(fs);
    connection.onRequest("fs/write_text_file", async (params) => {
      requireSession(params.sessionId);
      checkFileParams("fs/write_text_file", params);
      await write(params);
      return {};
    });
  }
}

/** terminal/* for the sessions of this connection; a terminal id is only valid in the session that created it. */
export function serveTerminals(connection: Connection, host: TerminalHost, requireSession: SessionLookup): void {
  const owner = (params: { sessionId: string; terminalId: string }): SessionController => {
    const session = requireSession(params.sessionId);
    if (!session.terminals.owns(params.terminalId)) {
      throw new RpcError(ErrorCode.ResourceNotFound, `Unknown terminal "${params.terminalId}" in session ${params.sessionId}`, {
        terminalId: params.terminalId,
      });
    }
    return session;
  };
  connection.onRequest("terminal/create", (params) => {
    const session = requireSession(params.sessionId);
    // E4, for every TerminalHost: the Node host also confines the directory to the session's.
    if (params.cwd != null) checkAbsolutePathParam("terminal/create", "/cwd", params.cwd);
    return session.terminals.create(host, params);
  });
  connection.onRequest("terminal/output", async (params) => {
    const output = await owner(params).terminals.snapshot(host, params.terminalId);
    return output.exitStatus === null ? { output: output.output, truncated: output.truncated } : output;
  });
  connection.onRequest("terminal/wait_for_exit", async (params) => {
    const session = owner(params);
    const status = await host.waitForExit(params.terminalId);
    await session.terminals.snapshot(host, params.terminalId).catch(() => undefined);
    return { exitCode: status.exitCode, signal: status.signal };
  });
  connection.onRequest("terminal/kill", async (params) => {
    const session = owner(params);
    await host.kill(params.terminalId);
    await session.terminals.snapshot(host, params.terminalId).catch(() => undefined);
    return {};
  });
  connection.onRequest("terminal/release", async (params) => {
    await owner(params).terminals.release(host, params.terminalId);
    return {};
  });
}

/**
 * elicitation/create and elicitation/complete: a session's question goes to its session (which a
 * cancel answers), a request-scoped one to the handlers. On a later-v2 connection they arrive as
 * the model's extension methods (the codec maps the draft's own names to them), with the same
 * params and results.
 */
export function serveElicitation(connection: Connection, handlers: ElicitationHandlers, requireSession: SessionLookup, later = false): void {
  const create = (params: v1.CreateElicitationRequest, ctx: RequestContext) => {
    const scoped = params as { sessionId?: string; toolCallId?: string | null };
    const sessionId = typeof scoped.sessionId === "string" ? scoped.sessionId : null;
    const common = { sessionId, toolCallId: scoped.toolCallId ?? null, message: params.message };
    let request: Parameters<SessionController["elicit"]>[0];
    if (params.mode === "form") request = { ...common, mode: "form", requestedSchema: (params as v1.CreateElicitationForm).requestedSchema };
    else if (params.mode === "url")
      request = { ...common, mode: "url", url: (params as v1.CreateElicitationUrl).url, elicitationId: (params as v1.CreateElicitationUrl).elicitationId };
    // A mode this client does not know: decline rather than guess.
    else return { action: "decline" } as ElicitationResult;
    if (sessionId !== null) return requireSession(sessionId).elicit(request, ctx);
    // Request scope (no session): nothing to cancel it with but the request itself.
    const handler = request.mode === "form" ? handlers.form : handlers.url;
    if (handler === undefined) return { action: "decline" } as ElicitationResult;
    return (handler as (r: typeof request, c: { signal: AbortSignal }) => ElicitationResult | Promise<ElicitationResult>)(request, { signal: ctx.signal });
  };
  const complete = (params: { elicitationId: string }) => handlers.complete?.(params.elicitationId);
  if (!later) {
    connection.onRequest("elicitation/create", create);
    connection.onNotification("elicitation/complete", complete);
    return;
  }
  // Extension methods reach their handlers unvalidated, so the parts read above are checked here first.
  connection.onRequest(ELICITATION_CREATE_METHOD, (params, ctx) => {
    if (!isJsonObject(params) || typeof params.message !== "string" || typeof params.mode !== "string") {
      throw new RpcError(ErrorCode.InvalidParams, "Invalid params: elicitation/create needs a string mode and message");
    }
    return create(params as unknown as v1.CreateElicitationRequest, ctx);
  });
  connection.onNotification(ELICITATION_COMPLETE_METHOD, (params) => {
    const id = (params as { elicitationId?: unknown } | undefined)?.elicitationId;
    if (typeof id === "string") complete({ elicitationId: id });
  });
}
