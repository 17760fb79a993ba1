// The sessions of one agent connection, and the limit on them (ServeOptions.maxSessions): a
// session counts from the moment a session/new, load or resume for it is under way, so requests
// that arrive together cannot open more than the limit between them.
import { ErrorCode, RpcError } from "@acpkit/core";
import type { AgentDiagnostic as Diagnostic } from "./diagnostics.js";
import type { AgentSession } from "./agent-session.js";

/** Default of `ServeOptions.maxSessions`: open sessions per connection. */
export const DEFAULT_MAX_SESSIONS = 1024;

const noop = (): void => {};

/** `ServeOptions.maxSessions` checked: a positive integer, or null for no limit. */
export function maxSessionsOption(value: number | null | undefined): number {
  if (value === undefined) return DEFAULT_MAX_SESSIONS;
  if (value === null) return Number.POSITIVE_INFINITY;
  if (!Number.isInteger(value) || value <= 0) throw new TypeError(`serveAgent: options.maxSessions must be a positive integer or null, got ${String(value)}`);
  return value;
}

export class SessionTable {
  readonly #sessions = new Map<string, AgentSession>();
  /** Sessions whose new, load or resume request is under way: they count against the limit too. */
  #starting = 0;
  /** Ids a session/load or session/resume is setting up right now (not in the map yet). */
  readonly #settingUp = new Set<string>();
  readonly #release = (): void => void this.#starting--;

  constructor(
    private readonly limit: number,
    private readonly report: (diagnostic: Diagnostic) => void,
  ) {}

  get(sessionId: string): AgentSession | undefined {
    return this.#sessions.get(sessionId);
  }

  /** The open session `sessionId`, or -32002 naming it. */
  require(sessionId: string): AgentSession {
    const session = this.#sessions.get(sessionId);
    if (!session) throw new RpcError(ErrorCode.ResourceNotFound, `Unknown session "${sessionId}"`, { sessionId });
    return session;
  }

  has(sessionId: string): boolean {
    return this.#sessions.has(sessionId);
  }

  add(session: AgentSession): void {
    this.#sessions.set(session.sessionId, session);
  }

  delete(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  values(): IterableIterator<AgentSession> {
    return this.#sessions.values();
  }

  /**
   * Hold a place for a session `method` is about to open, or refuse with -32603 when the
   * connection already has maxSessions (counting those still being set up). A request for a
   * session that is already open needs no place. Returns the release to call once the request is
   * settled (the session then counts through the map).
   */
  reserve(method: string, existing: AgentSession | undefined): () => void {
    if (existing !== undefined) return noop;
    if (this.#sessions.size + this.#starting >= this.limit) {
      const why = `this connection already has ${this.limit} sessions open (maxSessions); close one with session/close, or open another connection`;
      this.report({ code: "too_many_sessions", message: `Refused ${method}: ${why}`, method });
      throw new RpcError(ErrorCode.InternalError, `Too many sessions: ${why}`, { reason: "too_many_sessions", limit: this.limit });
    }
    this.#starting++;
    return this.#release;
  }

  /**
   * `reserve` for a load or resume of `sessionId`, which must not be under way already: two at
   * once would each run the agent's loadSession/resumeSession for one id and build two session
   * objects, the later replacing the earlier. An open session is guarded by requireIdle (its load
   * marks it busy); this covers an id not open yet.
   */
  reserveSetup(method: string, sessionId: string, existing: AgentSession | undefined): () => void {
    if (existing !== undefined) return noop;
    if (this.#settingUp.has(sessionId)) {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Session ${sessionId} is already being set up by an earlier session/load or session/resume; send ${method} again after its response`,
        { reason: "setup_in_progress" },
      );
    }
    const release = this.reserve(method, existing);
    this.#settingUp.add(sessionId);
    return () => {
      this.#settingUp.delete(sessionId);
      release();
    };
  }
}
