// The GET streams of one HTTP+SSE client connection (docs/remote.md RT20, RT27, RT28): the
// connection stream and one per session, each read in the background into the transport. A stream
// the endpoint ended says why in its last comment line (`: closed: <reason>`); one that broke
// without it is opened again from its last event id when the endpoint offers resume, up to
// MAX_RESUME_ATTEMPTS times in a row, and otherwise reported as broken. `reset()` drops every stream
// at once (the connection was lost): what those streams still report afterwards is ignored.
import { AcpError } from "@acpkit/core";
import { CONNECTION_HEADER, EVENT_STREAM, GAP_EVENT, SESSION_HEADER } from "../protocol.js";
import { errorBody } from "./http-errors.js";
import { readSse } from "./sse-reader.js";

/** How often in a row a broken stream of a resumable connection is opened again before it counts as broken (RT28). */
const MAX_RESUME_ATTEMPTS = 5;
/** The first wait before opening a broken stream again; it doubles with each attempt. */
const RESUME_BACKOFF_MS = 50;

/** What the streams need from their transport, and what they tell it. */
export interface StreamHost {
  /** The connection the streams belong to. */
  readonly connectionId: string | undefined;
  /** Whether the endpoint advertised streams that resume (RT26). */
  readonly resumable: boolean;
  readonly maxMessageSize: number;
  readonly isClosed: boolean;
  request(method: string, headers: Record<string, string>, body: undefined, signal: AbortSignal): Promise<Response>;
  /** One message's text, read on the stream of `sessionId` (undefined: the connection stream). */
  onData(data: string, sessionId: string | undefined): void;
  /** The endpoint refused to open a stream. */
  onRefused(sessionId: string | undefined, status: number, body: string): void;
  /** The endpoint ended a stream (`closed:` line), or it could not be opened. */
  onEnded(sessionId: string | undefined, why: string): void;
  /** A stream broke and will not be opened again by resuming. */
  onBroken(sessionId: string | undefined, why: string): void;
  /** The endpoint could not be reached to open a stream. */
  onUnreachable(sessionId: string | undefined, error: Error): void;
  /** Something the application should hear of (a gap notice, RT27). */
  report(error: AcpError): void;
}

export class StreamSet {
  private readonly streams = new Map<string, Promise<void>>();
  /** The id of the last event read on each stream, by stream key. */
  private readonly lastEventIds = new Map<string, number>();
  /** Attempts in a row to open each broken stream again, by stream key. */
  private readonly resumeAttempts = new Map<string, number>();
  private abort = new AbortController();
  private generation = 0;

  constructor(private readonly host: StreamHost) {}

  /** Aborts every request of the current connection. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Whether no stream but the connection stream is open (or none). */
  get onlyConnectionStream(): boolean {
    for (const key of this.streams.keys()) if (key !== "") return false;
    return true;
  }

  openConnectionStream(): void {
    this.streams.set("", this.read(undefined));
  }

  /** Open a session's stream unless it is open; resolves once the endpoint accepted it (or refused it). */
  openSession(sessionId: string): Promise<void> {
    const key = `s:${sessionId}`;
    const existing = this.streams.get(key);
    if (existing !== undefined) return existing;
    const opened = this.read(sessionId);
    this.streams.set(key, opened);
    return opened;
  }

  /** Forget a stream that ended (the next message for its session opens it again). */
  forget(sessionId: string | undefined): void {
    const key = sessionId === undefined ? "" : `s:${sessionId}`;
    this.streams.delete(key);
    this.resumeAttempts.delete(key);
  }

  /** Drop every stream and abort every request of this connection; what they report later is ignored. */
  reset(): void {
    this.generation++;
    const old = this.abort;
    this.abort = new AbortController();
    old.abort();
    this.streams.clear();
    this.lastEventIds.clear();
    this.resumeAttempts.clear();
  }

  /** Abort everything for good (the transport closed). */
  stop(): void {
    this.abort.abort();
  }

  /** GET one stream; resolves when its response arrived, and reads it in the background. */
  private read(sessionId: string | undefined): Promise<void> {
    const generation = this.generation;
    const current = () => generation === this.generation;
    const headers: Record<string, string> = { Accept: EVENT_STREAM, [CONNECTION_HEADER]: this.host.connectionId as string };
    if (sessionId !== undefined) headers[SESSION_HEADER] = sessionId;
    const key = sessionId === undefined ? "" : `s:${sessionId}`;
    // Opening a broken stream again: from the last event read, or from the start (0) when none was.
    const lastEventId = this.host.resumable ? (this.lastEventIds.get(key) ?? (this.resumeAttempts.has(key) ? 0 : undefined)) : undefined;
    if (lastEventId !== undefined) headers["Last-Event-ID"] = String(lastEventId);
    return this.host.request("GET", headers, undefined, this.abort.signal).then(
      async (response) => {
        if (!current()) return void response.body?.cancel().catch(() => {});
        if (!response.ok || response.body === null) {
          this.host.onRefused(sessionId, response.status, await errorBody(response));
          if (current()) this.ended(sessionId, `refused with HTTP ${response.status}`);
          return;
        }
        // The endpoint names why it ends a stream in a last comment line (`: closed: <reason>`).
        let closedBecause: string | undefined;
        const events = {
          onData: (data: string, id: string | undefined) => {
            if (id !== undefined && this.host.resumable && /^\d+$/.test(id)) {
              this.lastEventIds.set(key, Number(id));
              this.resumeAttempts.delete(key);
            }
            this.host.onData(data, sessionId);
          },
          onComment: (comment: string) => {
            if (comment.startsWith("closed: ")) closedBecause = comment.slice("closed: ".length);
          },
          onEvent: (type: string, data: string) => {
            if (type === GAP_EVENT) this.host.report(gapError(data, sessionId));
          },
        };
        void readSse(response.body, this.host.maxMessageSize, this.abort.signal, events).then(
          () => {
            if (!current()) return;
            if (closedBecause !== undefined) this.ended(sessionId, closedBecause);
            else this.broke(key, sessionId, "the endpoint ended it");
          },
          (error: unknown) => current() && this.broke(key, sessionId, (error as Error).message),
        );
      },
      (error: unknown) => {
        if (!current()) return;
        // Opening a broken stream again may meet the endpoint briefly away: that is one more attempt.
        if (this.host.resumable && this.resumeAttempts.has(key)) return this.broke(key, sessionId, (error as Error).message);
        this.host.onUnreachable(sessionId, error as Error);
        if (current()) this.ended(sessionId, (error as Error).message);
      },
    );
  }

  private ended(sessionId: string | undefined, why: string): void {
    this.forget(sessionId);
    this.host.onEnded(sessionId, why);
  }

  /**
   * A stream ended without the endpoint saying why (a network failure, a proxy that cut it). With
   * resume (RT28) it is opened again from its last event id, a few times in a row with a growing
   * wait; otherwise, or after the last attempt, it is broken.
   */
  private broke(key: string, sessionId: string | undefined, why: string): void {
    const attempts = this.resumeAttempts.get(key) ?? 0;
    if (this.host.isClosed || !this.host.resumable || attempts >= MAX_RESUME_ATTEMPTS) {
      this.forget(sessionId);
      this.host.onBroken(sessionId, attempts >= MAX_RESUME_ATTEMPTS ? `${why} (after ${attempts} attempts to resume it)` : why);
      return;
    }
    this.resumeAttempts.set(key, attempts + 1);
    const generation = this.generation;
    const again = new Promise<void>((resolve) => setTimeout(resolve, RESUME_BACKOFF_MS * 2 ** attempts)).then(() =>
      this.host.isClosed || generation !== this.generation ? undefined : this.read(sessionId),
    );
    this.streams.set(key, again);
  }
}

/** A gap notice (RT27) as the error the application hears: events the endpoint no longer holds. */
function gapError(data: string, sessionId: string | undefined): AcpError {
  let gap: { from?: unknown; to?: unknown } = {};
  try {
    gap = JSON.parse(data) as typeof gap;
  } catch {}
  const stream = sessionId === undefined ? "the connection stream" : `the stream of session ${sessionId}`;
  return new AcpError(
    "UpdatesDropped",
    `the endpoint no longer holds events ${String(gap.from)}–${String(gap.to)} of ${stream}: they were sent while this client was away and are lost`,
    { data: gap },
  );
}
