// Validates a recorded ACP transcript: ndjson, one JSON-RPC message (or v2 batch) per line.
// Every message is checked against its method and the protocol version; responses are matched to
// their requests by id so results are checked against the right method.
//
// The two peers number their requests independently (docs/protocol.md §3.1), so an id alone does not
// say which request a response answers. Lines may carry the direction markers used in
// docs/protocol.md's traces (`→` client to agent, `←` agent to client); with them the id spaces are
// kept apart exactly. Without them a response is matched to the request of that id whose method
// runs in the opposite direction to the response when that is unambiguous, else to any open one.
import { isJsonObject } from "@acpkit/core";
import { getMethod, validateParams, validateResult, type ProtocolVersion, type ValidationError } from "@acpkit/schema";

/** The version to check a transcript against, or `"auto"` to read it from `initialize`. */
export type TranscriptProtocol = ProtocolVersion | "auto";

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

/** Options of `validateTranscript`. */
export interface TranscriptOptions {
  /** An unanswered request is a problem, not a warning (a complete transcript). */
  strict?: boolean;
}

type Direction = "client_to_agent" | "agent_to_client";

interface OpenRequest {
  method: string;
  /** Who sent the request, when known (markers or the method's registry direction). */
  sender: Direction | undefined;
  line: number;
}

const CLIENT_MARK = "→";
const AGENT_MARK = "←";

interface Line {
  number: number;
  sender: Direction | undefined;
  json: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const raw = text.split("\n");
  for (let i = 0; i < raw.length; i++) {
    let json = raw[i]!.replace(/\r$/, "").trim();
    if (json === "") continue;
    let sender: Direction | undefined;
    if (json.startsWith(CLIENT_MARK)) sender = "client_to_agent";
    else if (json.startsWith(AGENT_MARK)) sender = "agent_to_client";
    if (sender) json = json.slice(1).trim();
    lines.push({ number: i + 1, sender, json });
  }
  return lines;
}

/** Reads the negotiated version from the transcript: the initialize response, else the request. */
function detectVersion(messages: { value: unknown }[]): { version: ProtocolVersion; source: TranscriptReport["versionSource"] } {
  let requested: ProtocolVersion | undefined;
  const initIds = new Set<unknown>();
  for (const { value } of messages) {
    for (const message of Array.isArray(value) ? value : [value]) {
      if (!isJsonObject(message)) continue;
      if (message.method === "initialize" && isJsonObject(message.params)) {
        initIds.add(message.id);
        const v = message.params.protocolVersion;
        if (requested === undefined && (v === 1 || v === 2)) requested = v;
      } else if ("result" in message && initIds.has(message.id) && isJsonObject(message.result)) {
        const v = message.result.protocolVersion;
        if (v === 1 || v === 2) return { version: v, source: "initialize-response" };
      }
    }
  }
  if (requested !== undefined) return { version: requested, source: "initialize-request" };
  return { version: 1, source: "default" };
}

function idKey(id: unknown): string {
  return typeof id === "string" ? `s:${id}` : `n:${String(id)}`;
}

function validId(id: unknown): boolean {
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id));
}

/**
 * Check an ndjson transcript (one JSON-RPC message or v2 batch per line, optionally prefixed with
 * `→`/`←`) against the schema of its protocol version; responses are matched to their requests.
 */
export function validateTranscript(text: string, protocol: TranscriptProtocol = "auto", options: TranscriptOptions = {}): TranscriptReport {
  const problems: TranscriptProblem[] = [];
  const warnings: TranscriptProblem[] = [];
  let extensions = 0;
  const parsed: { line: Line; value: unknown }[] = [];
  for (const line of splitLines(text)) {
    try {
      parsed.push({ line, value: JSON.parse(line.json) });
    } catch (error) {
      problems.push({ line: line.number, method: "", path: "", message: `not valid JSON (${(error as Error).message})` });
    }
  }

  const detected = protocol === "auto" ? detectVersion(parsed) : { version: protocol, source: "option" as const };
  const version = detected.version;
  const open = new Map<string, OpenRequest[]>();
  let count = 0;

  const report = (line: number, method: string, errors: readonly ValidationError[], prefix = "") => {
    for (const e of errors) {
      const problem: TranscriptProblem = { line, method, path: prefix + e.path, message: e.message };
      if (e.legacyShape !== undefined) problem.legacyShape = e.legacyShape;
      if (e.expected !== undefined) problem.expected = e.expected;
      problems.push(problem);
    }
  };

  const checkMessage = (lineNo: number, sender: Direction | undefined, message: unknown) => {
    count++;
    if (!isJsonObject(message)) {
      problems.push({ line: lineNo, method: "", path: "", message: "not a JSON-RPC message object" });
      return;
    }
    if (message.jsonrpc !== "2.0") {
      problems.push({ line: lineNo, method: typeof message.method === "string" ? message.method : "", path: "/jsonrpc", message: 'must be "2.0"' });
    }
    if (typeof message.method === "string") {
      const method = message.method;
      const isRequest = "id" in message;
      if (isRequest && !validId(message.id)) {
        problems.push({ line: lineNo, method, path: "/id", message: "a request id must be a string or an integer (never null)" });
      }
      const info = getMethod(version, method);
      if (!info && method.startsWith("_")) {
        // An extension: its params are the extension's business; its answer is matched (so it is
        // not reported unanswered) but not checked either.
        extensions++;
        if (isRequest && validId(message.id)) addOpen(open, message.id, { method, sender, line: lineNo });
        return;
      }
      if (!info) {
        // validateParams words the unknown-method message (with a legacy hint when one applies).
        report(lineNo, method, invalidOf(validateParams(version, method, message.params)));
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
      report(lineNo, method, invalidOf(info.validateParams(message.params ?? undefined)));
      if (isRequest && validId(message.id)) {
        const requestSender = sender ?? (info.direction === "both" ? undefined : info.direction);
        addOpen(open, message.id, { method, sender: requestSender, line: lineNo });
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
    const request = takeOpenRequest(open, message.id, sender);
    if (!request) {
      problems.push({ line: lineNo, method: "", path: "/id", message: `response to id ${JSON.stringify(message.id)} matches no open request` });
      return;
    }
    if (hasResult && !request.method.startsWith("_")) report(lineNo, request.method, invalidOf(validateResult(version, request.method, message.result)));
  };

  for (const { line, value } of parsed) {
    if (Array.isArray(value)) {
      if (version === 1) {
        problems.push({ line: line.number, method: "", path: "", message: "batch arrays do not exist in protocol v1" });
        continue;
      }
      if (value.length === 0) {
        problems.push({ line: line.number, method: "", path: "", message: "an empty batch is invalid" });
        continue;
      }
      for (const entry of value) checkMessage(line.number, line.sender, entry);
    } else {
      checkMessage(line.number, line.sender, value);
    }
  }
  for (const [, list] of open) {
    for (const request of list) {
      (options.strict ? problems : warnings).push({
        line: request.line,
        method: request.method,
        path: "",
        message: "request never answered in this transcript",
      });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  warnings.sort((a, b) => a.line - b.line);
  return { valid: problems.length === 0, protocolVersion: version, versionSource: detected.source, messages: count, problems, warnings, extensions };
}

function addOpen(open: Map<string, OpenRequest[]>, id: unknown, entry: OpenRequest): void {
  const key = idKey(id);
  const list = open.get(key);
  if (list) list.push(entry);
  else open.set(key, [entry]);
}

function takeOpenRequest(open: Map<string, OpenRequest[]>, id: unknown, responder: Direction | undefined): OpenRequest | undefined {
  const key = idKey(id);
  const list = open.get(key);
  if (!list || list.length === 0) return undefined;
  // The response travels opposite to its request: prefer a request sent by the other side.
  let index = 0;
  if (responder) {
    const found = list.findIndex((r) => r.sender !== undefined && r.sender !== responder);
    if (found !== -1) index = found;
  }
  const [request] = list.splice(index, 1);
  if (list.length === 0) open.delete(key);
  return request;
}

function invalidOf(result: { valid: true } | { valid: false; errors: ValidationError[] }): readonly ValidationError[] {
  return result.valid ? [] : result.errors;
}

/** `line N: method path: message` — the human line format of `acpkit validate`. */
export function formatProblem(problem: TranscriptProblem): string {
  const where = [problem.method, problem.path].filter((part) => part !== "").join(" ");
  return `line ${problem.line}: ${where === "" ? "" : `${where}: `}${problem.message}`;
}
