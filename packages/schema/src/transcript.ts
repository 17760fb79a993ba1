// Validates a recorded ACP transcript: ndjson, one JSON-RPC message (or v2 batch) per line.
// Every message is checked against its method and the protocol version; responses are matched to
// their requests by id so results are checked against the right method.
//
// The two peers number their requests independently (docs/protocol.md §3.1), so an id alone does not
// say which request a response answers. Lines may carry the direction markers used in
// docs/protocol.md's traces (`→` client to agent, `←` agent to client); with them the id spaces are
// kept apart exactly. Without them a response is matched to the request of that id whose method
// runs in the opposite direction to the response when that is unambiguous, else to any open one.
import { isJsonObject } from "./lazy.js";
// Through the validation entry (not ./registry.js): a module of another entry imports that
// entry, so the lazy entry imports its file instead of carrying a second registry.
import { getMethod, LATER_V2, validateParams, validateResult, type ProtocolVersion, type SchemaVersion } from "./lazy.js";
import type { ValidationError } from "./validation-result.js";

/**
 * The version to check a transcript against (1, 2, or `"v2-later"` for the later v2 draft), or
 * `"auto"` to read it from `initialize`.
 */
export type TranscriptProtocol = SchemaVersion | "auto";

/** One problem in a transcript, by line and JSON path. */
export interface TranscriptProblem {
  /** 1-based line number in the transcript. */
  line: number;
  /** The method the message belongs to ("" when unknown, e.g. unparsable JSON). */
  method: string;
  /** JSON Pointer into the message's params/result/error (`""` for the message itself). */
  path: string;
  message: string;
  /** For legacy pre-1.0 shapes: what arrived and the modern shape to use instead. */
  legacyShape?: string;
  expected?: string;
}

/** The result of `validateTranscript`. */
export interface TranscriptReport {
  /** No problems (with `strict`, no warnings either). */
  valid: boolean;
  protocolVersion: ProtocolVersion;
  /** What the transcript was checked against: `protocolVersion`, or `"v2-later"` when it speaks the later v2 draft. */
  schemaVersion: SchemaVersion;
  /** How the version was chosen: given with --protocol, or read from initialize. */
  versionSource: "option" | "initialize-response" | "initialize-request" | "default";
  messages: number;
  problems: TranscriptProblem[];
  /**
   * What may be fine in a transcript cut short: requests without an answer in it. Problems only
   * with `strict`.
   */
  warnings: TranscriptProblem[];
  /** `_`-prefixed extension messages seen (their params and results are not checked). */
  extensions: number;
}

/** Options of `validateTranscript` and `TranscriptLineValidator`. */
export interface TranscriptOptions {
  /** An unanswered request is a problem, not a warning (a complete transcript). */
  strict?: boolean;
}

/**
 * The most requests a `TranscriptChecker` keeps open at once, unless told otherwise. Each one open costs memory until its
 * answer, so a transcript (or, in the inspector, a live peer) that sends requests without end
 * cannot grow the checker without bound. Past it, later requests are not tracked until some are
 * answered, and an answer that matches no open request is no longer reported (it may answer one
 * that was not tracked); `untrackedFromLine` says where that began. Real sessions keep a handful
 * open.
 */
export const MAX_OPEN_REQUESTS = 1_000_000;

/** Who sent a transcript line: `→` marks the client, `←` the agent. */
export type TranscriptDirection = "client_to_agent" | "agent_to_client";
type Direction = TranscriptDirection;

interface OpenRequest {
  method: string;
  /** Who sent the request, when known (markers or the method's registry direction). */
  sender: Direction | undefined;
  line: number;
}

/** The marker of a line the client sent. */
export const CLIENT_MARK = "→";
/** The marker of a line the agent sent. */
export const AGENT_MARK = "←";

function idKey(id: unknown): string {
  return typeof id === "string" ? `s:${id}` : `n:${String(id)}`;
}

function validId(id: unknown): boolean {
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id));
}

/**
 * The schema an `initialize` request or result names: its version, where version 2 with an `info`
 * object is the later v2 draft (only that draft has `info`; the pinned v2 says `clientInfo` /
 * `agentInfo`). Undefined for a version acpkit does not speak.
 */
function schemaOfInitialize(body: Record<string, unknown>): SchemaVersion | undefined {
  const version = body.protocolVersion;
  if (version === 1) return 1;
  if (version !== 2) return undefined;
  return isJsonObject(body.info) ? LATER_V2 : 2;
}

/**
 * Reads the protocol version out of a transcript's initialize exchange: the version an initialize
 * request offers, or the one the response to such a request accepts (`"v2-later"` for the later v2
 * draft). It remembers the requests' ids, so that only their answers count.
 */
export class InitializeExchange {
  readonly #ids = new Set<string>();

  /** For an initialize request or its answer, the version it names (if acpkit speaks it); otherwise undefined. */
  read(message: Record<string, unknown>): { step: "offered" | "accepted"; version: SchemaVersion } | undefined {
    if (message.method === "initialize" && isJsonObject(message.params)) {
      this.#ids.add(idKey(message.id));
      const offered = schemaOfInitialize(message.params);
      return offered === undefined ? undefined : { step: "offered", version: offered };
    }
    if ("result" in message && this.#ids.has(idKey(message.id)) && isJsonObject(message.result)) {
      const accepted = schemaOfInitialize(message.result);
      return accepted === undefined ? undefined : { step: "accepted", version: accepted };
    }
    return undefined;
  }
}

/**
 * Checks a transcript one message at a time, as it is recorded (the inspector's wire view) or
 * read (`validateTranscript`). It remembers the open requests so each response is checked
 * against its request's method. Given no version, it follows the transcript: the version the
 * initialize request offers, then the one its response accepts (v1 until either is seen).
 */
export class TranscriptChecker {
  /** Messages checked so far (a batch counts each entry). */
  messages = 0;
  /** `_`-prefixed extension messages seen. */
  extensions = 0;
  #version: SchemaVersion;
  readonly #follow: boolean;
  readonly #open = new Map<string, OpenRequest[]>();
  /** Requests in `#open`, all lists together (bounded by MAX_OPEN_REQUESTS). */
  #openCount = 0;
  #untrackedFrom: number | undefined;
  readonly #maxOpen: number;
  readonly #initialize = new InitializeExchange();
  readonly #fromMessage: boolean;
  /** Judge each initialize (request and answer) in the version and dialect it names, not the transcript's. */
  readonly #initializeInOwnVersion: boolean;

  /**
   * `version`: check against it (default: follow the transcript). `pathsFromMessage`: problem
   * paths start at the message (`/params/…`, `/result/…`) instead of at its params or result, as
   * a viewer showing the whole message wants. `maxOpenRequests`: how many requests may be open
   * at once and tracked (default MAX_OPEN_REQUESTS). `initializeInOwnVersion`: judge each
   * `initialize` and its answer in the version and dialect they name (a client may offer again in
   * another on the same connection); default on when following the transcript, off with a version.
   */
  constructor(version?: SchemaVersion, options: { pathsFromMessage?: boolean; maxOpenRequests?: number; initializeInOwnVersion?: boolean } = {}) {
    this.#version = version ?? 1;
    this.#follow = version === undefined;
    this.#initializeInOwnVersion = options.initializeInOwnVersion ?? this.#follow;
    this.#fromMessage = options.pathsFromMessage ?? false;
    this.#maxOpen = options.maxOpenRequests ?? MAX_OPEN_REQUESTS;
  }

  /** The protocol version messages are checked against now (2 for the later v2 draft too). */
  get protocolVersion(): ProtocolVersion {
    return this.#version === LATER_V2 ? 2 : this.#version;
  }

  /** The schema messages are checked against now: `protocolVersion`, or `"v2-later"` for the later v2 draft. */
  get schemaVersion(): SchemaVersion {
    return this.#version;
  }

  /**
   * The line of the first request that was not tracked because MAX_OPEN_REQUESTS were open, or
   * undefined. From there on, an answer that matches no open request is not reported.
   */
  get untrackedFromLine(): number | undefined {
    return this.#untrackedFrom;
  }

  /** Requests sent and not answered so far, one problem each. */
  unanswered(): TranscriptProblem[] {
    const problems: TranscriptProblem[] = [];
    for (const list of this.#open.values()) {
      for (const request of list) problems.push({ line: request.line, method: request.method, path: "", message: "request never answered in this transcript" });
    }
    return problems;
  }

  /** Check one parsed line (a message or a v2 batch) sent by `sender`; returns its problems. */
  check(lineNo: number, sender: TranscriptDirection | undefined, value: unknown): TranscriptProblem[] {
    const problems: TranscriptProblem[] = [];
    if (Array.isArray(value)) {
      if (this.#version === 1) problems.push({ line: lineNo, method: "", path: "", message: "batch arrays do not exist in protocol v1" });
      else if (this.#version === LATER_V2) problems.push({ line: lineNo, method: "", path: "", message: "batch arrays do not exist in the later v2 draft" });
      else if (value.length === 0) problems.push({ line: lineNo, method: "", path: "", message: "an empty batch is invalid" });
      else for (const entry of value) this.#checkMessage(problems, lineNo, sender, entry);
    } else {
      this.#checkMessage(problems, lineNo, sender, value);
    }
    return problems;
  }

  #followVersion(message: Record<string, unknown>): void {
    if (!this.#follow) return;
    const seen = this.#initialize.read(message);
    if (seen !== undefined) this.#version = seen.version;
  }

  #checkMessage(problems: TranscriptProblem[], lineNo: number, sender: Direction | undefined, message: unknown): void {
    this.messages++;
    const report = (method: string, errors: readonly ValidationError[], member: "params" | "result") => {
      const prefix = this.#fromMessage ? `/${member}` : "";
      for (const e of errors) {
        const problem: TranscriptProblem = { line: lineNo, method, path: prefix + e.path, message: e.message };
        if (e.legacyShape !== undefined) problem.legacyShape = e.legacyShape;
        if (e.expected !== undefined) problem.expected = e.expected;
        problems.push(problem);
      }
    };
    if (!isJsonObject(message)) {
      problems.push({ line: lineNo, method: "", path: "", message: "not a JSON-RPC message object" });
      return;
    }
    this.#followVersion(message);
    const version = this.#version;
    if (message.jsonrpc !== "2.0") {
      problems.push({ line: lineNo, method: typeof message.method === "string" ? message.method : "", path: "/jsonrpc", message: 'must be "2.0"' });
    }
    if (typeof message.method === "string") {
      const method = message.method;
      const isRequest = "id" in message;
      if (isRequest && !validId(message.id)) {
        problems.push({ line: lineNo, method, path: "/id", message: "a request id must be a string or an integer (never null)" });
      }
      // An initialize is judged by the version and dialect it names itself: a client may offer again
      // on the same connection in another one (the later draft's -32022 retry, acpkit's dialect retry).
      const ownVersion =
        this.#initializeInOwnVersion && method === "initialize" && isJsonObject(message.params) ? (schemaOfInitialize(message.params) ?? version) : version;
      const info = getMethod(ownVersion, method);
      if (!info && method.startsWith("_")) {
        // An extension: its params are the extension's business; its answer is matched (so it is
        // not reported unanswered) but not checked either.
        this.extensions++;
        if (isRequest && validId(message.id)) this.#addOpen(message.id, { method, sender, line: lineNo });
        return;
      }
      if (!info) {
        // validateParams words the unknown-method message (with a legacy hint when one applies).
        report(method, invalidOf(validateParams(version, method, message.params)), "params");
        return;
      }
      if (isRequest !== (info.kind === "request")) {
        problems.push({
          line: lineNo,
          method,
          path: isRequest ? "/id" : "",
          message: `${method} is a ${info.kind}; ${isRequest ? "a notification has no id" : "a request needs an id"}`,
        });
      }
      if (sender && info.direction !== "both" && info.direction !== sender) {
        problems.push({ line: lineNo, method, path: "", message: `${method} is sent ${info.direction.replace(/_/g, " ")}, not ${sender.replace(/_/g, " ")}` });
      }
      report(method, invalidOf(info.validateParams(message.params ?? undefined)), "params");
      if (isRequest && validId(message.id)) {
        const requestSender = sender ?? (info.direction === "both" ? undefined : info.direction);
        this.#addOpen(message.id, { method, sender: requestSender, line: lineNo });
      }
      return;
    }
    const hasResult = "result" in message;
    const hasError = "error" in message;
    if (hasResult === hasError || !("id" in message)) {
      problems.push({
        line: lineNo,
        method: "",
        path: "",
        message: "not a request, notification or response (a response has an id and exactly one of result/error)",
      });
      return;
    }
    if (hasError) {
      const error = message.error;
      if (!isJsonObject(error)) problems.push({ line: lineNo, method: "", path: "/error", message: "must be an object with code and message" });
      else {
        if (typeof error.code !== "number" || !Number.isInteger(error.code))
          problems.push({ line: lineNo, method: "", path: "/error/code", message: "must be an integer" });
        if (typeof error.message !== "string") problems.push({ line: lineNo, method: "", path: "/error/message", message: "must be a string" });
      }
    }
    if (message.id === null) return; // an error about an unparsable/invalid message answers no request
    const request = this.#takeOpen(message.id, sender);
    if (!request) {
      if (this.#untrackedFrom !== undefined) return; // it may answer a request that was not tracked
      problems.push({ line: lineNo, method: "", path: "/id", message: `response to id ${JSON.stringify(message.id)} matches no open request` });
      return;
    }
    if (hasResult && !request.method.startsWith("_")) {
      // An initialize answer, like its request, is judged in the version it names.
      const ownVersion =
        this.#initializeInOwnVersion && request.method === "initialize" && isJsonObject(message.result)
          ? (schemaOfInitialize(message.result) ?? version)
          : version;
      report(request.method, invalidOf(validateResult(ownVersion, request.method, message.result)), "result");
    }
  }

  #addOpen(id: unknown, entry: OpenRequest): void {
    if (this.#openCount >= this.#maxOpen) {
      this.#untrackedFrom ??= entry.line;
      return;
    }
    const key = idKey(id);
    const list = this.#open.get(key);
    if (list) list.push(entry);
    else this.#open.set(key, [entry]);
    this.#openCount++;
  }

  #takeOpen(id: unknown, responder: Direction | undefined): OpenRequest | undefined {
    const key = idKey(id);
    const list = this.#open.get(key);
    if (!list || list.length === 0) return undefined;
    // The response travels opposite to its request: prefer a request sent by the other side.
    let index = 0;
    if (responder) {
      const found = list.findIndex((r) => r.sender !== undefined && r.sender !== responder);
      if (found !== -1) index = found;
    }
    const [request] = list.splice(index, 1);
    if (list.length === 0) this.#open.delete(key);
    this.#openCount--;
    return request;
  }
}

/** Split a transcript line into its direction marker (if any) and its JSON text. */
export function parseTranscriptLine(text: string): { sender: TranscriptDirection | undefined; json: string } {
  let json = text.replace(/\r$/, "").trim();
  let sender: Direction | undefined;
  if (json.startsWith(CLIENT_MARK)) sender = "client_to_agent";
  else if (json.startsWith(AGENT_MARK)) sender = "agent_to_client";
  if (sender) json = json.slice(1).trim();
  return { sender, json };
}

function invalidOf(result: { valid: true } | { valid: false; errors: ValidationError[] }): readonly ValidationError[] {
  return result.valid ? [] : result.errors;
}

/** `line N: method path: message` — the human line format of `acpkit validate`. */
export function formatProblem(problem: TranscriptProblem): string {
  const where = [problem.method, problem.path].filter((part) => part !== "").join(" ");
  return `line ${problem.line}: ${where === "" ? "" : `${where}: `}${problem.message}`;
}
