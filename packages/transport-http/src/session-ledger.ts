// Which sessions a connection holds, learned from the messages that cross it: a session exists once
// the agent answered session/new or session/fork (the result names it) or session/load or
// session/resume (the request names it), and is gone once session/close or session/delete was
// answered. Kept with the params that made it (cwd, mcpServers), so that a new connection (the
// client's reconnect, RT38) or a new agent process (a fleet's adoption, RT35) can take each one up
// again with session/resume or session/load.
import { idKey, sessionIdOfResult } from "./protocol.js";

/** A session to take up again, and the params (`cwd`, `mcpServers`) it was made with. */
export interface LedgerSession {
  readonly sessionId: string;
  readonly setup: { readonly cwd: unknown; readonly mcpServers: unknown };
}

const TRACKED = new Set(["session/new", "session/fork", "session/load", "session/resume", "session/close", "session/delete"]);

export class SessionLedger {
  private readonly asked = new Map<string, { method: string; params: Record<string, unknown> }>();
  private readonly held = new Map<string, LedgerSession["setup"]>();

  /** `onChange` hears every session made (with its setup) or ended (undefined). */
  constructor(private readonly onChange: (sessionId: string, setup: LedgerSession["setup"] | undefined) => void = () => {}) {}

  /** A request on its way to the agent. */
  request(message: Record<string, unknown>): void {
    if (typeof message.method !== "string" || !TRACKED.has(message.method)) return;
    const key = idKey(message.id);
    if (key === undefined) return;
    const params = typeof message.params === "object" && message.params !== null ? (message.params as Record<string, unknown>) : {};
    this.asked.set(key, { method: message.method, params });
  }

  /** An answer from the agent (to any request: only the tracked ones matter). */
  answer(message: Record<string, unknown>): void {
    const key = idKey(message.id);
    const asked = key === undefined ? undefined : this.asked.get(key);
    if (asked === undefined) return;
    this.asked.delete(key as string);
    if ("error" in message) return;
    const { method, params } = asked;
    const setup = { cwd: params.cwd, mcpServers: params.mcpServers ?? [] };
    const named = typeof params.sessionId === "string" ? params.sessionId : undefined;
    if (method === "session/new" || method === "session/fork") {
      const created = sessionIdOfResult(message);
      if (created !== undefined) this.set(created, setup);
    } else if (method === "session/load" || method === "session/resume") {
      if (named !== undefined) this.set(named, setup);
    } else if (named !== undefined && this.held.delete(named)) this.onChange(named, undefined);
  }

  /** The sessions held now. */
  sessions(): LedgerSession[] {
    return [...this.held].map(([sessionId, setup]) => ({ sessionId, setup }));
  }

  /** Forget the requests in flight (their answers will not come: the connection they were on is gone). */
  forgetRequests(): void {
    this.asked.clear();
  }

  /** Forget one session (it could not be taken up again). */
  drop(sessionId: string): void {
    if (this.held.delete(sessionId)) this.onChange(sessionId, undefined);
  }

  private set(sessionId: string, setup: LedgerSession["setup"]): void {
    this.held.set(sessionId, setup);
    this.onChange(sessionId, setup);
  }
}
