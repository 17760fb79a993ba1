// The wire view's model: every JSON-RPC message in both directions, in order, each parsed once,
// named (method, for a response the method of its request; update kind for session/update) and
// checked against the schema as it arrives (TranscriptChecker, the checker behind
// `acpkit validate`). Notes (diagnostics, tap status) sit in between. Bounded: the oldest entries
// are let go past MAX_WIRE_ENTRIES, and the count of those is shown.
import { AGENT_MARK, CLIENT_MARK, isJsonObject as isObject, TranscriptChecker, type TranscriptProblem } from "@acpkit/schema";
import type { WireDirection } from "../common/protocol.js";

/** How many entries the page keeps. */
export const MAX_WIRE_ENTRIES = 20_000;

export type MessageShape = "request" | "notification" | "response" | "error" | "batch" | "invalid";

/** One message on the wire. */
export interface WireMessage {
  type: "message";
  seq: number;
  time: number;
  direction: WireDirection;
  /** The message's exact text; absent when it was too long to show (the tap saw only its size). */
  text: string | undefined;
  bytes: number;
  /** The method (a response: its request's; "" when unknown). */
  method: string;
  shape: MessageShape;
  /** `session/update`'s `update.sessionUpdate`. */
  updateKind?: string;
  id?: string | number;
  problems: TranscriptProblem[];
}

/** Something that is not a message: a diagnostic, a lossy conversion, a tap status. */
export interface WireNote {
  type: "note";
  seq: number;
  time: number;
  level: "info" | "warning";
  text: string;
}

export type WireEntry = WireMessage | WireNote;

export class WireLog {
  entries: WireEntry[] = [];
  /** Entries let go to stay within MAX_WIRE_ENTRIES (or missed by a slow page, in tap mode). */
  dropped = 0;
  #seq = 0;
  #checker = new TranscriptChecker(undefined, { pathsFromMessage: true });
  /** Methods of open requests, by sender and id, so responses can be named. */
  readonly #open = new Map<string, string>();
  /** Bumped on every change; views compare it to know when to redraw. */
  revision = 0;

  /** Forget everything (a new connection, or an imported transcript). */
  clear(): void {
    this.entries = [];
    this.dropped = 0;
    this.#checker = new TranscriptChecker(undefined, { pathsFromMessage: true });
    this.#open.clear();
    this.revision++;
  }

  /** Record one message as sent or received; `text` undefined for one too long to show. */
  message(direction: WireDirection, text: string | undefined, bytes: number, time = Date.now()): WireMessage {
    const entry: WireMessage = { type: "message", seq: ++this.#seq, time, direction, text, bytes, method: "", shape: "invalid", problems: [] };
    if (text === undefined) {
      entry.problems.push({ line: entry.seq, method: "", path: "", message: `a ${bytes}-byte message, too long to show` });
      return this.#push(entry);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      entry.problems.push({ line: entry.seq, method: "", path: "", message: `not valid JSON (${(error as Error).message})` });
      return this.#push(entry);
    }
    this.#describe(entry, value);
    entry.problems = this.#checker.check(entry.seq, direction, value);
    return this.#push(entry);
  }

  /** Record a note between the messages. */
  note(text: string, level: WireNote["level"] = "info", time = Date.now()): void {
    this.#push({ type: "note", seq: ++this.#seq, time, level, text });
  }

  /** The messages as an ndjson transcript with `→`/`←` markers: what `acpkit validate` reads. */
  toTranscript(): string {
    let out = "";
    for (const entry of this.entries) {
      if (entry.type !== "message" || entry.text === undefined) continue;
      out += `${entry.direction === "client_to_agent" ? CLIENT_MARK : AGENT_MARK} ${entry.text}\n`;
    }
    return out;
  }

  #describe(entry: WireMessage, value: unknown): void {
    if (Array.isArray(value)) {
      entry.shape = "batch";
      entry.method = value.map((item) => (isObject(item) && typeof item.method === "string" ? item.method : "response")).join(", ");
      return;
    }
    if (!isObject(value)) return;
    const id = value.id;
    if (typeof id === "string" || typeof id === "number") entry.id = id;
    if (typeof value.method === "string") {
      entry.method = value.method;
      entry.shape = "id" in value ? "request" : "notification";
      if (entry.shape === "request") this.#open.set(`${entry.direction}:${String(id)}`, value.method);
      if (value.method === "session/update" && isObject(value.params) && isObject(value.params.update)) {
        const kind = value.params.update.sessionUpdate;
        if (typeof kind === "string") entry.updateKind = kind;
      }
      return;
    }
    if ("result" in value || "error" in value) {
      entry.shape = "error" in value ? "error" : "response";
      const askedBy = entry.direction === "client_to_agent" ? "agent_to_client" : "client_to_agent";
      const key = `${askedBy}:${String(id)}`;
      entry.method = this.#open.get(key) ?? "";
      this.#open.delete(key);
    }
  }

  #push<E extends WireEntry>(entry: E): E {
    this.entries.push(entry);
    if (this.entries.length > MAX_WIRE_ENTRIES) {
      const excess = this.entries.length - MAX_WIRE_ENTRIES;
      this.entries.splice(0, excess);
      this.dropped += excess;
    }
    this.revision++;
    return entry;
  }
}
