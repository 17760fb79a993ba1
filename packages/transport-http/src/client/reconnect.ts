// The HTTP+SSE client's way back after its connection is lost (docs/remote.md RT38), for endpoints
// that do not offer streams that resume: the RFD's reconnect-and-resume. A new connection is opened
// with the client's own initialize params, and every session the old one held is taken up again
// with session/resume (or session/load, whose replayed history the application already has, so
// it is withheld). These requests are the transport's own: their answers never reach the
// application. A session that cannot be taken up again is reported, not retried.
import { AcpError, __transportKit } from "@acpkit/core";
import { CONNECTION_HEADER, idKey, SESSION_HEADER } from "../protocol.js";
import type { LedgerSession } from "../session-ledger.js";
import { ERROR_BODY_CHARS, errorBody } from "./http-errors.js";

const { encodeMessage } = __transportKit;

/** The `error.data` key of the answer a request gets when its connection was lost and opened again (RT38). */
export const RECONNECTED_DATA_KEY = "acpkit.dev/reconnected";
/** HTTP statuses a new connection cannot cure: the client is not allowed in. */
export const NOT_ALLOWED: ReadonlySet<number> = new Set([401, 403]);

/** How many times in a row opening a new connection is tried, and the first wait (doubling) between tries. */
const ATTEMPTS = 5;
const FIRST_WAIT_MS = 100;
/** How long one session/resume or session/load may take. */
const TAKE_UP_LIMIT_MS = 30_000;
/** The prefix of the ids of the transport's own requests. */
const OWN_ID_PREFIX = "acpkit.dev/reconnect#";

/** What the reconnect needs from its transport. */
export interface ReconnectHost {
  /** The current connection's id (set by `attach`). */
  readonly connectionId: string | undefined;
  /** One request to the endpoint, with the transport's headers and cookies. */
  request(method: string, headers: Record<string, string>, body: string): Promise<Response>;
  /** Take the new connection: its id, whether its streams resume, its connection stream. */
  attach(connectionId: string, answer: Record<string, unknown>): void;
  /** Open the stream of a session taken up again. */
  openSessionStream(sessionId: string): void;
  /** Tell the application something it should know (a session that did not come back). */
  report(error: AcpError): void;
}

export class Reconnector {
  private ownIds = 0;
  private readonly own = new Map<string, (answer: Record<string, unknown>) => void>();
  /** Sessions being loaded again: the history their agent replays is not delivered twice. */
  readonly replaying = new Set<string>();

  constructor(private readonly host: ReconnectHost) {}

  /** Whether `message` answers one of the transport's own requests (then it is taken here). */
  take(message: Record<string, unknown>): boolean {
    const key = idKey(message.id);
    const waiting = key === undefined ? undefined : this.own.get(key);
    if (waiting === undefined) return false;
    this.own.delete(key as string);
    waiting(message);
    return true;
  }

  /**
   * Open a new connection and take every session up again; resolves with undefined once done, or
   * with why it could not open a connection at all.
   */
  async run(initializeParams: unknown, sessions: readonly LedgerSession[], drop: (sessionId: string) => void): Promise<string | undefined> {
    let opened: { answer: Record<string, unknown>; connectionId: string } | undefined;
    let lastProblem = "";
    for (let attempt = 0; attempt < ATTEMPTS && opened === undefined; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, FIRST_WAIT_MS * 2 ** (attempt - 1)));
      try {
        const result = await this.openConnection(initializeParams, this.nextId());
        if ("fatal" in result) return result.fatal;
        opened = result;
      } catch (error) {
        lastProblem = (error as Error).message;
      }
    }
    if (opened === undefined) return `a new connection could not be opened after ${ATTEMPTS} attempts: ${lastProblem}`;
    const capabilities = ((opened.answer.result as { agentCapabilities?: Capabilities } | undefined)?.agentCapabilities ?? {}) as Capabilities;
    const resume = typeof capabilities.sessionCapabilities?.resume === "object" && capabilities.sessionCapabilities.resume !== null;
    const load = capabilities.loadSession === true;
    for (const session of sessions) {
      const problem =
        resume || load ? await this.takeUp(session, resume ? "session/resume" : "session/load") : "the agent can neither resume nor load sessions";
      if (problem === undefined) continue;
      drop(session.sessionId);
      this.host.report(
        new AcpError("ConnectionClosed", `session ${session.sessionId} did not come back after the connection to the endpoint was opened again: ${problem}`, {
          data: { sessionId: session.sessionId },
        }),
      );
    }
    return undefined;
  }

  /** One session taken up again; why not, or undefined when it was. */
  private async takeUp(session: LedgerSession, method: "session/resume" | "session/load"): Promise<string | undefined> {
    const id = this.nextId();
    const answered = new Promise<Record<string, unknown> | undefined>((resolve) => {
      this.own.set(idKey(id) as string, resolve);
      const timer = setTimeout(() => resolve(undefined), TAKE_UP_LIMIT_MS) as { unref?: () => void };
      timer.unref?.();
    });
    if (method === "session/load") this.replaying.add(session.sessionId);
    try {
      this.host.openSessionStream(session.sessionId);
      await this.post({ jsonrpc: "2.0", id, method, params: { ...session.setup, sessionId: session.sessionId } }, session.sessionId);
      const answer = await answered;
      if (answer === undefined) return `no answer to ${method} within ${TAKE_UP_LIMIT_MS} ms`;
      return "error" in answer ? `the agent refused ${method}: ${JSON.stringify(answer.error)}` : undefined;
    } catch (error) {
      return `${method} could not be sent: ${(error as Error).message}`;
    } finally {
      this.own.delete(idKey(id) as string);
      this.replaying.delete(session.sessionId);
    }
  }

  /** POST initialize for the new connection; its answer stays here. */
  private async openConnection(params: unknown, id: string): Promise<{ answer: Record<string, unknown>; connectionId: string } | { fatal: string }> {
    const response = await this.host.request(
      "POST",
      { "Content-Type": "application/json" },
      encodeMessage({ jsonrpc: "2.0", id, method: "initialize", params } as never),
    );
    const text = await response.text();
    if (NOT_ALLOWED.has(response.status)) return { fatal: `the endpoint answered HTTP ${response.status}: ${text.slice(0, ERROR_BODY_CHARS)}` };
    const connectionId = response.headers.get(CONNECTION_HEADER);
    const answer = response.ok ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    if (answer === undefined || connectionId === null || !("result" in answer))
      throw new Error(`initialize answered HTTP ${response.status}: ${text.slice(0, 200)}`);
    this.host.attach(connectionId, answer);
    return { answer, connectionId };
  }

  /** POST one of the transport's own requests for a session. */
  private async post(message: Record<string, unknown>, sessionId: string): Promise<void> {
    const headers = { "Content-Type": "application/json", [CONNECTION_HEADER]: this.host.connectionId as string, [SESSION_HEADER]: sessionId };
    const response = await this.host.request("POST", headers, encodeMessage(message as never));
    if (!response.ok) throw new Error(`the endpoint answered HTTP ${response.status}: ${await errorBody(response)}`);
    void response.body?.cancel().catch(() => {});
  }

  private nextId(): string {
    return `${OWN_ID_PREFIX}${++this.ownIds}`;
  }
}

interface Capabilities {
  loadSession?: unknown;
  sessionCapabilities?: { resume?: unknown };
}

/** The answer a request in flight gets when its connection was lost (RT38). */
export function lostAnswer(id: unknown, why: string): Record<string, unknown> {
  const message = `the connection to the endpoint was lost (${why}); a new one was opened, but this request's answer was lost`;
  return { jsonrpc: "2.0", id, error: { code: -32603, message, data: { [RECONNECTED_DATA_KEY]: true } } };
}
