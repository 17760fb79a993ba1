// The checker's own minimal client: it starts the agent, writes whatever it is told (malformed
// lines included), and records every byte the agent writes, line by line with the time it came.
// It shares no code path with acpkit's client runtime, so a bug there cannot hide a bug here; the
// one shared piece is the line framing (NdjsonReader, read in its judging mode: every line kept,
// empty ones too, an unframed tail reported and not taken as a line), whose own tests pin it byte by byte.
import { NdjsonReader } from "@acpkit/transport-stdio";
import { RequestCount } from "../answer-count.js";
import { turnUpdateSession } from "./turn-updates.js";

/** One line the agent wrote on stdout. */
export interface RecordedLine {
  at: number;
  text: string;
  /** The parsed value, or undefined when the line is not JSON. */
  value: unknown;
  /** Its place among every line read, kept or not (0 for the first). */
  seq: number;
}

/**
 * How many characters of the agent's lines a connection keeps as they came: 64 Mi. An agent in a
 * loop can write without end while the checker waits (a prompt is given 20 × --timeout); keeping
 * every line grew the checker by about 1 GB a minute. Past the budget only what the checks still
 * need is kept: the answers to the checker's own requests (at most one more per id than were
 * sent, so a second answer still shows), the first line that is not a message, and the first
 * EVIDENCE_PAST_BUDGET lines that a check fails on: answers to no request sent, fs/* and
 * terminal/* requests, and session/update notifications that `judgeUpdate` finds wrong. The rest
 * is read, judged, answered when it is a request, and counted (`unrecorded`); of the
 * session/update notifications among it, the last one per session is remembered, so an update
 * after a response is still found.
 */
export const RECORD_BUDGET_CHARS = 64 * 1024 * 1024;

/** How many lines past the budget are kept as evidence of a failure (see RECORD_BUDGET_CHARS). */
const EVIDENCE_PAST_BUDGET = 64;

/** How many sessions the dropped-update positions are remembered for (an agent may name any number). */
const DROPPED_UPDATE_SESSIONS = 1024;

/** How many transcript lines a RawAgent keeps (the newest), for the evidence in failures. */
const TRANSCRIPT_LINES = 400;

/**
 * The longest line the checker holds: 64 MiB, what acpkit's own transports accept by default.
 * Past it the line's bytes are skipped up to its newline, and the line is reported.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * What the checks need from a connection to the agent: raw writes, every line the agent wrote,
 * and the client's duties answered. The process and WebSocket variants differ only in how bytes
 * move and how the agent is let go.
 */
export abstract class RawConnection {
  readonly lines: RecordedLine[] = [];
  /** Lines read past RECORD_BUDGET_CHARS and not kept in `lines`. */
  unrecorded = 0;
  /** `→ line` sent / `← line` received, the newest TRANSCRIPT_LINES. */
  readonly transcript: string[] = [];
  /**
   * Whether a session/update's params are wrong (why, or undefined when fine); set by the check
   * that judges updates. Past the record budget it decides which updates are kept as evidence.
   */
  judgeUpdate: ((params: unknown) => string | undefined) | undefined;
  /** Answers the agent's own requests (the checker's client duties); set by the caller. */
  answerRequest: ((method: string, params: unknown) => unknown) | undefined;
  /** The requests sent, by id, so that a second answer can be told from an answer to a reused id. */
  readonly requestsSent = new RequestCount();
  /** Bytes of stdout that were not valid UTF-8, if any. */
  invalidUtf8 = false;
  /** The first line longer than MAX_LINE_BYTES: how many bytes of it had come when it was given up. */
  oversizedLine: { bytesSeen: number } | undefined;
  /**
   * Bytes after the last newline when the agent's output ended on its own (it exited or closed
   * stdout): a message that was never framed. Not set when the checker killed the agent, whose
   * output can then stop in the middle of any line.
   */
  unterminatedTail: { bytes: number; start: string } | undefined;
  /** Set just before the checker kills the agent: an output cut short after that is not its fault. */
  protected killRequested = false;
  stderr = "";
  protected readonly started = Date.now();
  /** Set once the agent is gone (process exit, socket closed). */
  protected gone: { code: number | null; signal: string | null } | undefined;
  /** Frames the agent's output into lines (process connections; a WebSocket moves whole frames). */
  private readonly lineReader = new NdjsonReader(
    MAX_LINE_BYTES,
    {
      onLine: (text) => this.record(text),
      onInvalidUtf8: () => {
        this.invalidUtf8 = true;
      },
      onOversizedLine: (_lineNumber, bytesSeen) => this.giveUpLine(bytesSeen),
      onUnterminatedLine: (_lineNumber, bytes, head) => {
        this.unterminatedTail = { bytes, start: head };
        this.note(`← [${bytes} bytes after the last newline when the output ended]`);
      },
    },
    { keepEmptyLines: true, deliverUnterminatedLine: false },
  );
  /** Lines read so far (the next line's `seq`). */
  private seen = 0;
  private recordedChars = 0;
  /** Past the budget: answers kept per request id (as JSON), and whether a non-message line was kept. */
  private readonly answersPastBudget = new Map<string, number>();
  private keptBadLinePastBudget = false;
  /** Past the budget: lines kept as evidence of a failure (at most EVIDENCE_PAST_BUDGET). */
  private evidencePastBudget = 0;
  /** Past the budget: the `seq` of the last turn update dropped, per session id. */
  private readonly lastDroppedUpdate = new Map<unknown, number>();
  private waiters: (() => void)[] = [];
  /** Resolves with why the agent could not be reached, or undefined once it is. */
  abstract readonly spawnError: Promise<Error | undefined>;
  /**
   * How bytes reach the agent: a process's pipes (the only kind with a stdin to close), a WebSocket,
   * or a transport that moves messages, not text: in-process, or an endpoint's HTTP+SSE profile.
   */
  abstract readonly kind: "process" | "websocket" | "in-process" | "http";

  /** Whether this connection moves whole messages (no lines or frames of text to break). */
  get movesMessages(): boolean {
    return this.kind === "in-process" || this.kind === "http";
  }

  /** How the connection is named in a not_applicable note about text-level checks. */
  get messageChannel(): string {
    return this.kind === "http"
      ? "the HTTP+SSE profile (one message per POST; the endpoint answers malformed bodies and batches itself)"
      : "an in-process transport";
  }

  /** Write one line of text as is. */
  protected abstract writeRaw(text: string): void;
  /** End the agent's input; resolve with its exit status if it exits within `ms`. */
  abstract closeStdin(ms: number): Promise<{ code: number | null; signal: string | null } | undefined>;
  /** Let the agent go for good. */
  abstract kill(): Promise<void>;

  /** A text frame (WebSocket): one whole message. */
  protected onFrame(text: string): void {
    this.record(text);
    this.wake();
  }

  /** The agent went away; `reason` says why when the channel knows (a transport's close reason). */
  protected onGone(status: { code: number | null; signal: string | null }, reason?: string): void {
    this.gone = status;
    this.goneReason ??= reason;
    this.wake();
  }

  /** Why the channel closed, when it said (the endpoint refused, could not be reached, …). */
  goneReason: string | undefined;

  protected onData(chunk: Buffer): void {
    this.lineReader.push(chunk);
    this.wake();
  }

  /** The agent's output ended; what is left after the last newline was never a whole line. */
  protected onOutputEnd(): void {
    // Killed by the checker, the output may stop inside any line: that is not the agent's fault.
    if (!this.killRequested) this.lineReader.end();
  }

  private giveUpLine(bytesSeen: number): void {
    this.oversizedLine ??= { bytesSeen };
    this.note(`← [a line of more than ${MAX_LINE_BYTES} bytes (${bytesSeen} seen without a newline): not held, its bytes skipped up to its newline]`);
  }

  private record(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const seq = this.seen++;
    if (this.keeps(text, value, seq)) this.lines.push({ at: Date.now() - this.started, text, value, seq });
    else this.unrecorded++;
    this.note(`← ${text}`);
    this.autoAnswer(value);
  }

  /** Whether line `seq` goes into `lines` (see RECORD_BUDGET_CHARS); remembers what a dropped update was for. */
  private keeps(text: string, value: unknown, seq: number): boolean {
    if (this.recordedChars + text.length <= RECORD_BUDGET_CHARS) {
      this.recordedChars += text.length;
      return true;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      // A batch array is a message too; only the first line of anything else is evidence enough.
      if (Array.isArray(value) || this.keptBadLinePastBudget) return false;
      this.keptBadLinePastBudget = true;
      return true;
    }
    const message = value as { id?: unknown; method?: unknown; params?: unknown };
    if (message.method === undefined && "id" in message) {
      const id = JSON.stringify(message.id);
      const sent = this.requestsSent.sent(id);
      if (sent === 0) return this.keepEvidence(); // an answer to no request: what RPC-003 looks for
      const kept = this.answersPastBudget.get(id) ?? 0;
      if (kept > sent) return false;
      this.answersPastBudget.set(id, kept + 1);
      return true;
    }
    if (typeof message.method === "string" && /^(fs|terminal)\//.test(message.method)) return this.keepEvidence(); // CAP-001
    if (message.method === "session/update" && this.judgeUpdate?.(message.params) !== undefined) return this.keepEvidence(); // UPDATE-001
    const sessionId = turnUpdateSession(value);
    if (sessionId !== undefined && (this.lastDroppedUpdate.has(sessionId) || this.lastDroppedUpdate.size < DROPPED_UPDATE_SESSIONS)) {
      this.lastDroppedUpdate.set(sessionId, seq);
    }
    return false;
  }

  /** Keep a line past the budget as evidence, while fewer than EVIDENCE_PAST_BUDGET were. */
  private keepEvidence(): boolean {
    if (this.evidencePastBudget >= EVIDENCE_PAST_BUDGET) return false;
    this.evidencePastBudget++;
    return true;
  }

  /** Whether a session/update for `sessionId` came after line `seq` and was read but not kept (past the budget). */
  droppedUpdateAfter(sessionId: unknown, seq: number): boolean {
    return (this.lastDroppedUpdate.get(sessionId) ?? -1) > seq;
  }

  private note(line: string): void {
    this.transcript.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
    if (this.transcript.length > TRANSCRIPT_LINES) this.transcript.shift();
  }

  /** A request from the agent: answered by `answerRequest`, or -32601 when it gives nothing. */
  private autoAnswer(value: unknown): void {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return;
    const message = value as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof message.method !== "string" || !("id" in message)) return;
    const result = this.answerRequest?.(message.method, message.params);
    if (result === undefined) this.send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
    else this.send({ jsonrpc: "2.0", id: message.id, result });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  get exitStatus(): { code: number | null; signal: string | null } | undefined {
    return this.gone;
  }

  /** Write text as one line (one frame over WebSocket), malformed or not. */
  writeLine(text: string): void {
    this.note(`→ ${text}`);
    this.countRequests(text);
    this.writeRaw(text);
  }

  /** Counts the requests in a line we write; a malformed line (on purpose) holds none. */
  private countRequests(text: string): void {
    try {
      this.requestsSent.add(JSON.parse(text));
    } catch {
      // not JSON: no request
    }
  }

  send(message: unknown): void {
    this.writeLine(JSON.stringify(message));
  }

  /** The first recorded line from `from` on whose value matches, waiting up to `ms`. */
  async waitFor(predicate: (value: Record<string, unknown>) => boolean, ms: number, from = 0): Promise<RecordedLine | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      for (let i = from; i < this.lines.length; i++) {
        const value = this.lines[i]!.value;
        if (typeof value === "object" && value !== null && !Array.isArray(value) && predicate(value as Record<string, unknown>)) return this.lines[i];
      }
      const left = deadline - Date.now();
      if (left <= 0 || this.gone !== undefined) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Send a request and wait for the response with the same id. */
  async request(id: string | number, method: string, params: unknown, ms: number): Promise<Record<string, unknown> | undefined> {
    const from = this.lines.length;
    this.send({ jsonrpc: "2.0", id, method, params });
    const line = await this.waitFor((value) => value.id === id && !("method" in value), ms, from);
    return line?.value as Record<string, unknown> | undefined;
  }
}
