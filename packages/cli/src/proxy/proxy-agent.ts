// proxyAgent: one agent, reached in whatever dialect it speaks, served to an editor in whatever
// dialect that editor speaks (docs/protocol.md A15). The application in the middle sits on the
// model: `connectAgent` reaches the agent (v1, the pinned v2 or the later v2 draft, negotiated as
// the client library does), `serveAgent` serves the editor (all three), and what passes between
// them is model sessions, turns, updates and questions. So a v1 editor can drive a later-v2 agent
// (one that refuses v1, such as claude-agent-acp in v2 mode), and a later-v2 client a v1-only
// agent; each runtime reports what its side's dialect cannot carry, as it does for any peer.
//
// Invariants: every editor request gets exactly one answer (the agent's, or an error naming why
// none came); a question from the agent (permission, elicitation) is asked of the editor inside
// the editor's turn of that session, and answered `cancelled` / `cancel` when there is none.
import type { AgentTurn, ConfigOption, ConfigValue, ServeOptions } from "@acpkit/agent";
import { type AgentDefinition, type AgentServer, serveAgent } from "@acpkit/agent";
import {
  type ClientSession,
  type ConnectedAgent,
  type ConnectOptions,
  connectAgent,
  type ElicitationResult,
  type PermissionOutcome,
  type PermissionRequest,
} from "@acpkit/client";
import { AcpError, isRpcError, RpcError, STATE_UPDATE, type Transport } from "@acpkit/core";
import { coalescedSends } from "./coalesced-sends.js";

/** Options of `proxyAgent`. */
export interface ProxyOptions {
  /** The highest version to offer the agent (default 2: either v2 dialect, else v1). */
  agentProtocol?: 1 | 2;
  /** With `agentProtocol` 2, which v2 draft to offer (as `ConnectOptions.v2Dialect`; default "auto"). */
  agentDialect?: "auto" | "pinned" | "later";
  /** The versions served to the editor (default both). */
  editorVersions?: readonly (1 | 2)[];
  /** How the proxy names itself to the agent. */
  clientInfo?: { name: string; version: string };
  /** Every diagnostic of either side: lossy conversions, dropped input, the agent's protocol violations. */
  onDiagnostic?: (diagnostic: ProxyDiagnostic) => void;
  /**
   * Check what the proxy sends against the schema, on both sides (default off: everything it
   * forwards was validated when it arrived, and checking it again on the way out halves the
   * stream it can carry). Turn it on to debug the proxy itself.
   */
  validateOutgoing?: boolean;
  /** Options of the editor-facing server (limits); its `validateOutgoing` defaults to the one above. */
  serve?: Omit<ServeOptions, "onDiagnostic">;
}

/** A diagnostic of one side of the proxy. */
export interface ProxyDiagnostic {
  /** `editor`: the server the editor talks to; `agent`: the connection to the agent. */
  side: "editor" | "agent";
  /** The runtime's diagnostic code, e.g. `lossy_permission_subject` or `dialect_retry`. */
  code: string;
  /** What happened, in words. */
  message: string;
}

/** A running proxy. */
export interface AgentProxy {
  /** The agent's side: its dialect, capabilities and identity. */
  readonly agent: ConnectedAgent;
  /** The editor's side. */
  readonly server: AgentServer;
  /** Closes both sides. */
  close(): Promise<void>;
}

const PROXY_INFO = { name: "acpkit-proxy", version: "0.1.0" };

/** How many URL elicitations the proxy remembers for their completion; an agent that never completes them cannot grow it. */
const MAX_URL_FLOWS = 256;

/** Everything the proxy knows of one session: the agent's, and the editor's turn running in it. */
interface ProxiedSession {
  session: ClientSession;
  turn: AgentTurn | undefined;
}

/**
 * Reach the agent on `agent`, then serve it to the editor on `editor`. Resolves once the agent
 * answered `initialize` (rejects with its error when it could not be reached); the editor is
 * served from then on, with the agent's identity, capabilities and auth methods.
 */
export async function proxyAgent(editor: Transport, agent: Transport, options: ProxyOptions = {}): Promise<AgentProxy> {
  const sessions = new Map<string, ProxiedSession>();
  /** The editor's turn each open URL elicitation was asked in, for the agent's `elicitation/complete` (bounded: the oldest go first). */
  const urlFlows = new Map<string, AgentTurn>();
  const report = (side: ProxyDiagnostic["side"]) => (diagnostic: { code: string; message: string }) =>
    options.onDiagnostic?.({ side, code: diagnostic.code, message: diagnostic.message });
  const connectOptions: ConnectOptions = {
    protocolVersion: options.agentProtocol ?? 2,
    v2Dialect: options.agentDialect ?? "auto",
    clientInfo: options.clientInfo ?? PROXY_INFO,
    onDiagnostic: report("agent"),
    validateOutgoing: options.validateOutgoing ?? false,
    requestPermission: (request) => askEditor(sessions, request),
    elicitation: {
      form: (request) =>
        elicitFromEditor(sessions, request.sessionId, (turn) => turn.elicit({ message: request.message, requestedSchema: request.requestedSchema as never })),
      url: (request) =>
        elicitFromEditor(sessions, request.sessionId, (turn) => {
          urlFlows.set(request.elicitationId, turn);
          if (urlFlows.size > MAX_URL_FLOWS) urlFlows.delete(urlFlows.keys().next().value!);
          return turn.elicitUrl({ message: request.message, url: request.url, elicitationId: request.elicitationId });
        }),
      // The flow may end after its turn did: the editor is told through the turn it was asked in.
      complete: (elicitationId) => {
        const turn = urlFlows.get(elicitationId);
        urlFlows.delete(elicitationId);
        turn
          ?.completeElicitation(elicitationId)
          .catch((error: unknown) =>
            options.onDiagnostic?.({ side: "editor", code: "elicitation_complete_failed", message: error instanceof Error ? error.message : String(error) }),
          );
      },
    },
  };
  const downstream = await connectAgent(agent, connectOptions);
  const server = serveAgent(coalescedSends(editor), definitionFor(downstream, sessions, options), {
    validateOutgoing: options.validateOutgoing ?? false,
    ...options.serve,
    onDiagnostic: report("editor"),
  });
  // When one side goes, the other has nothing left to do.
  void downstream.closed.then(() => server.close());
  void server.closed.then(() => downstream.close());
  return {
    agent: downstream,
    server,
    async close() {
      await Promise.allSettled([server.close(), downstream.close()]);
    },
  };
}

/** The agent definition the editor is served: each handler forwards to the agent. */
function definitionFor(downstream: ConnectedAgent, sessions: Map<string, ProxiedSession>, options: ProxyOptions): AgentDefinition {
  const caps = downstream.agentCapabilities;
  const adopt = (session: ClientSession): ClientSession => {
    sessions.set(session.sessionId, { session, turn: undefined });
    return session;
  };
  const lookup = (sessionId: string): ProxiedSession => {
    const found = sessions.get(sessionId);
    if (found === undefined) throw new RpcError(-32002, `Unknown session "${sessionId}"`, { sessionId });
    return found;
  };
  const setup = (session: ClientSession) => ({ configOptions: session.state.configOptions as readonly ConfigOption[] });
  /**
   * The editor loads or resumes a session this connection holds open: the agent's side is closed
   * first, since the client library holds a session open once. (An agent without `session/close`
   * keeps it open, and the load is answered with the client library's error saying so.)
   */
  const release = async (sessionId: string): Promise<void> => {
    const found = sessions.get(sessionId);
    if (found === undefined || !caps.session.close) return;
    sessions.delete(sessionId);
    await found.session.close();
  };
  const definition: AgentDefinition = {
    info: downstream.agentInfo ?? PROXY_INFO,
    versions: options.editorVersions ?? [1, 2],
    features: {
      loadSession: caps.loadSession,
      prompt: { ...caps.prompt },
      mcp: { http: caps.mcp.http, sse: caps.mcp.sse },
    },
    authMethods: downstream.authMethods.map((method) => ({ id: method.id, name: method.name, description: method.description ?? null })),
    authenticate: (methodId) => forward(() => downstream.authenticate(methodId)),
    newSession: (request) =>
      forward(async () => {
        const session = adopt(await downstream.newSession({ cwd: request.cwd, mcpServers: request.mcpServers, ...meta(request._meta) }));
        return { sessionId: session.sessionId, ...setup(session) };
      }),
    prompt: (turn) => runTurn(lookup(turn.sessionId), turn),
    setConfigOption: (request) =>
      forward(async () => {
        const { session } = lookup(request.sessionId);
        await session.setConfigOption(request.configId, request.value as ConfigValue);
        return session.state.configOptions as readonly ConfigOption[];
      }),
    // The editor's tool_call/cancel and terminal/cancel (the later draft) of the agent's work.
    cancelWork: ({ sessionId, kind, id }) =>
      forward(async () => {
        const { session } = lookup(sessionId);
        await (kind === "tool_call" ? session.cancelToolCall(id) : session.cancelTerminal(id));
      }),
    closeSession: (request) =>
      forward(async () => {
        const found = sessions.get(request.sessionId);
        sessions.delete(request.sessionId);
        if (found !== undefined && caps.session.close) await found.session.close();
      }),
  };
  if (caps.loadSession) {
    definition.loadSession = (request, replay) =>
      forward(async () => {
        await release(request.sessionId);
        // The agent replays before it answers; each replayed update goes on to the editor as it comes.
        const session = await downstream.loadSession({
          sessionId: request.sessionId,
          cwd: request.cwd,
          mcpServers: request.mcpServers,
          ...meta(request._meta),
          // The agent's state snapshot after its replay is its own; the editor's runtime reports its own state.
          onReplay: (update) => {
            if ((update as { sessionUpdate: string }).sessionUpdate !== STATE_UPDATE) replay.update(update as never);
          },
        });
        return setup(adopt(session));
      });
  }
  if (caps.session.list) {
    definition.listSessions = (request) =>
      forward(async () => {
        const page = await downstream.listSessions({ ...(request.cwd ? { cwd: request.cwd } : {}), ...(request.cursor ? { cursor: request.cursor } : {}) });
        return { sessions: page.sessions, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
      });
  }
  if (caps.session.resume) {
    definition.resumeSession = (request) =>
      forward(async () => {
        await release(request.sessionId);
        return setup(adopt(await downstream.resumeSession({ sessionId: request.sessionId, cwd: request.cwd, mcpServers: request.mcpServers })));
      });
  }
  if (caps.session.delete) definition.deleteSession = (request) => forward(() => downstream.deleteSession(request.sessionId));
  if (caps.logout) definition.logout = () => forward(() => downstream.logout());
  return definition;
}

/** `_meta` as an option, when there is one. */
function meta(value: unknown): { _meta?: Record<string, unknown> | null } {
  return value === undefined ? {} : { _meta: value as Record<string, unknown> | null };
}

/**
 * Runs the editor's turn as a turn of the agent's session: every model update of the session goes
 * on to the editor (the echo of the prompt and the agent's turn-state reports excepted: the
 * editor's runtime makes its own), and the agent's stop reason ends the editor's turn.
 */
async function runTurn(proxied: ProxiedSession, turn: AgentTurn): Promise<Awaited<ReturnType<AgentDefinition["prompt"]>>> {
  proxied.turn = turn;
  const unsubscribe = proxied.session.onUpdate((update) => {
    const tag = (update as { sessionUpdate: string }).sessionUpdate;
    if (tag === "user_message" || tag === "user_message_chunk" || tag === STATE_UPDATE) return;
    turn.update(update as never);
  });
  try {
    const outcome = await proxied.session.prompt(turn.prompt, { signal: turn.signal, ...meta(turn.promptMeta) });
    return outcome._meta === undefined ? outcome.stopReason : { stopReason: outcome.stopReason, _meta: outcome._meta };
  } catch (error) {
    // The agent ended the turn with a JSON-RPC error: the editor's turn ends with the same one.
    if (isRpcError(error)) return { stopReason: "error", error: { code: error.code, message: error.message, data: error.data } };
    throw error;
  } finally {
    unsubscribe();
    if (proxied.turn === turn) proxied.turn = undefined;
  }
}

/** The agent's permission question, asked of the editor in its running turn of that session; `cancelled` without one. */
async function askEditor(sessions: Map<string, ProxiedSession>, request: PermissionRequest): Promise<PermissionOutcome> {
  const turn = sessions.get(request.sessionId)?.turn;
  if (turn === undefined) return { outcome: "cancelled" };
  const subject = request.subject?.type === "command" ? (request.subject as { type: "command"; command: string; cwd: string }) : undefined;
  const outcome = await turn.requestPermission({
    toolCall: request.toolCall as never,
    options: request.options,
    ...(subject === undefined ? {} : { subject }),
    ...meta(request._meta),
  });
  return outcome as PermissionOutcome;
}

/** An elicitation of the agent, put to the editor in its running turn; `cancel` without one, `decline` when the editor cannot answer it. */
async function elicitFromEditor(
  sessions: Map<string, ProxiedSession>,
  sessionId: string | null,
  ask: (turn: AgentTurn) => Promise<unknown>,
): Promise<ElicitationResult> {
  const turn = sessionId === null ? undefined : sessions.get(sessionId)?.turn;
  if (turn === undefined) return { action: "cancel" };
  try {
    // The same shape on both sides (v1's `{action, content?}`), only typed by each package.
    return (await ask(turn)) as ElicitationResult;
  } catch (error) {
    if (error instanceof AcpError && error.code === "Unsupported") return { action: "decline" };
    throw error;
  }
}

/** Runs a call to the agent; its JSON-RPC error becomes the editor's answer as it is, anything else an internal error naming it. */
async function forward<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isRpcError(error)) throw error;
    // The client library refused the call itself (an id it knows is not cancellable, a bad path): the editor's params were wrong.
    if (error instanceof AcpError && error.code === "InvalidArgument") throw new RpcError(-32602, `Invalid params: ${error.message}`);
    throw new RpcError(-32603, `Internal error: the agent could not be asked (${error instanceof Error ? error.message : String(error)})`);
  }
}
