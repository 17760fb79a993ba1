// Validates a transcript fed one line at a time, so that a reader (`acpkit validate`) can check a
// file of any size in bounded memory: nothing is kept of a line once it is checked, and each
// problem goes to the caller as it is found. `validateTranscript`, which has the whole text at
// hand, is built on it.
//
// Why lines are held at the start: with protocol "auto" the version comes from the initialize
// exchange, and a message can only be checked once the version is known. Lines are held until an
// initialize response settles it (in a real transcript, line 2), or until `lookaheadChars` of
// text have been held; then the version is what was seen so far.
import { isJsonObject } from "./lazy.js";
import { isSchemaVersion, type SchemaVersion } from "./lazy.js";
import {
  InitializeExchange,
  MAX_OPEN_REQUESTS,
  TranscriptChecker,
  parseTranscriptLine,
  type TranscriptDirection,
  type TranscriptOptions,
  type TranscriptProblem,
  type TranscriptProtocol,
  type TranscriptReport,
} from "./transcript.js";

/**
 * How much JSON text, at most, a `TranscriptLineValidator` holds while it looks for the
 * initialize exchange that says the protocol version (protocol "auto"): 4 Mi characters, each
 * held line counted with 256 more for its record.
 */
export const VERSION_LOOKAHEAD_CHARS = 4 * 1024 * 1024;

/**
 * What one held line costs beyond its JSON text, counted in characters against the lookahead: its
 * record and, for a line that is not JSON, its problem.
 */
const HELD_LINE_OVERHEAD_CHARS = 256;

/** What `TranscriptLineValidator.end()` returns: the report without the problems, which went to `onProblem`. */
export interface TranscriptSummary extends Omit<TranscriptReport, "problems"> {
  /** How many problems went to `onProblem`. */
  problemCount: number;
}

/** Options of `TranscriptLineValidator`. */
export interface TranscriptLineOptions extends TranscriptOptions {
  /** How much text to hold while looking for the version (protocol "auto"). Default VERSION_LOOKAHEAD_CHARS. */
  lookaheadChars?: number;
  /** How many requests may be open at once and tracked. Default MAX_OPEN_REQUESTS. */
  maxOpenRequests?: number;
}

type VersionSource = TranscriptReport["versionSource"];

/**
 * Reads the negotiated version from a transcript's messages in order: the version of the first
 * initialize response that answers an initialize request seen before it; failing that, the
 * version the first initialize request offered; failing that, v1.
 */
class VersionDetector {
  #requested: SchemaVersion | undefined;
  readonly #initialize = new InitializeExchange();

  /** Look at one parsed line; returns the version once an initialize response settled it. */
  see(value: unknown): SchemaVersion | undefined {
    for (const message of Array.isArray(value) ? value : [value]) {
      if (!isJsonObject(message)) continue;
      const seen = this.#initialize.read(message);
      if (seen?.step === "accepted") return seen.version;
      if (seen?.step === "offered") this.#requested ??= seen.version;
    }
    return undefined;
  }

  /** The version when no initialize response settled it. */
  conclude(): { version: SchemaVersion; source: VersionSource } {
    return this.#requested !== undefined ? { version: this.#requested, source: "initialize-request" } : { version: 1, source: "default" };
  }
}

/** A line held until the version is known: its parsed value, or the problem that it is not JSON. */
type HeldLine = { line: number; sender: TranscriptDirection | undefined; value: unknown } | { line: number; problem: TranscriptProblem };

/**
 * Checks a transcript line by line: `line(text)` for each line in order (blank ones too, so the
 * numbers match the file), `unreadable(reason)` for a line the caller could not read whole, then
 * `end()`. Problems go to `onProblem` in line order as they are found; with `strict`, the requests
 * never answered follow at `end()`. Memory: the open requests (at most MAX_OPEN_REQUESTS) and,
 * with protocol "auto", the lines before the version is known (at most `lookaheadChars`).
 *
 * @example
 * const validator = new TranscriptLineValidator("auto", {}, (problem) => console.log(formatProblem(problem)));
 * for (const line of text.split("\n")) validator.line(line);
 * const summary = validator.end(); // { valid, protocolVersion, problemCount, warnings, … }
 */
export class TranscriptLineValidator {
  readonly #onProblem: (problem: TranscriptProblem) => void;
  readonly #strict: boolean;
  readonly #lookaheadChars: number;
  readonly #maxOpenRequests: number;
  #lineNumber = 0;
  #problemCount = 0;
  #checker: TranscriptChecker | undefined;
  #versionSource: VersionSource = "option";
  #detector: VersionDetector | undefined;
  #held: HeldLine[] = [];
  #heldChars = 0;
  #ended = false;

  constructor(protocol: TranscriptProtocol, options: TranscriptLineOptions, onProblem: (problem: TranscriptProblem) => void) {
    if (protocol !== "auto" && !isSchemaVersion(protocol)) throw new TypeError(`protocol must be 1, 2, "v2-later" or "auto", got ${String(protocol)}`);
    if (typeof onProblem !== "function") throw new TypeError("onProblem must be a function");
    this.#onProblem = onProblem;
    this.#strict = options.strict === true;
    this.#lookaheadChars = options.lookaheadChars ?? VERSION_LOOKAHEAD_CHARS;
    this.#maxOpenRequests = options.maxOpenRequests ?? MAX_OPEN_REQUESTS;
    if (protocol === "auto") this.#detector = new VersionDetector();
    else this.#checker = new TranscriptChecker(protocol, { maxOpenRequests: this.#maxOpenRequests });
  }

  /** The next line of the transcript, without its newline. */
  line(text: string): void {
    this.#requireOpen();
    requireString("TranscriptLineValidator.line: text", text);
    const number = ++this.#lineNumber;
    const { sender, json } = parseTranscriptLine(text);
    if (json === "") return;
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      this.#take({ line: number, problem: { line: number, method: "", path: "", message: `not valid JSON (${(error as Error).message})` } }, json.length);
      return;
    }
    const checker = this.#checker;
    if (checker !== undefined) {
      for (const problem of checker.check(number, sender, value)) this.#report(problem);
      return;
    }
    const settled = this.#detector!.see(value);
    this.#take({ line: number, sender, value }, json.length);
    if (settled !== undefined) this.#start(settled, "initialize-response");
  }

  /**
   * The next line could not be read whole (`reason` says why, e.g. it is too long): it counts as
   * a line and is one problem.
   */
  unreadable(reason: string): void {
    this.#requireOpen();
    requireString("TranscriptLineValidator.unreadable: reason", reason);
    const number = ++this.#lineNumber;
    this.#take({ line: number, problem: { line: number, method: "", path: "", message: reason } }, reason.length);
  }

  /** The transcript ended: checks what is still held and returns the summary. */
  end(): TranscriptSummary {
    this.#requireOpen();
    if (this.#checker === undefined) {
      const { version, source } = this.#detector!.conclude();
      this.#start(version, source);
    }
    this.#ended = true;
    const checker = this.#checker!;
    const warnings: TranscriptProblem[] = [];
    const unanswered = checker.unanswered().sort((a, b) => a.line - b.line);
    if (this.#strict) for (const problem of unanswered) this.#report(problem);
    else warnings.push(...unanswered);
    const untracked = checker.untrackedFromLine;
    if (untracked !== undefined) {
      warnings.push({
        line: untracked,
        method: "",
        path: "",
        message: `${this.#maxOpenRequests} requests were open at once, the most tracked: this request and later ones while as many were open were not matched to answers, and answers matching no open request were not reported`,
      });
      warnings.sort((a, b) => a.line - b.line);
    }
    return {
      valid: this.#problemCount === 0,
      protocolVersion: checker.protocolVersion,
      schemaVersion: checker.schemaVersion,
      versionSource: this.#versionSource,
      messages: checker.messages,
      problemCount: this.#problemCount,
      warnings,
      extensions: checker.extensions,
    };
  }

  #requireOpen(): void {
    if (this.#ended) throw new Error("TranscriptLineValidator: end() was already called");
  }

  #report(problem: TranscriptProblem): void {
    this.#problemCount++;
    this.#onProblem(problem);
  }

  /** Check a line now, or hold it while the version is not known yet. */
  #take(held: HeldLine, chars: number): void {
    if (this.#checker !== undefined) {
      this.#check(held);
      return;
    }
    this.#held.push(held);
    // Each held line also costs its record: counted, so that millions of short lines are bounded too.
    this.#heldChars += chars + HELD_LINE_OVERHEAD_CHARS;
    if (this.#heldChars > this.#lookaheadChars) {
      const { version, source } = this.#detector!.conclude();
      this.#start(version, source);
    }
  }

  #check(held: HeldLine): void {
    if ("problem" in held) this.#report(held.problem);
    else for (const problem of this.#checker!.check(held.line, held.sender, held.value)) this.#report(problem);
  }

  /** The version is known: check what was held, in order, and the rest as it comes. */
  #start(version: SchemaVersion, source: VersionSource): void {
    // A version read from the transcript leaves each initialize to the version it names (a retry in
    // another dialect is not a problem); a version the caller gave judges everything by it.
    this.#checker = new TranscriptChecker(version, { maxOpenRequests: this.#maxOpenRequests, initializeInOwnVersion: source !== "option" });
    this.#versionSource = source;
    this.#detector = undefined;
    const held = this.#held;
    this.#held = [];
    this.#heldChars = 0;
    for (const line of held) this.#check(line);
  }
}

/**
 * Check an ndjson transcript (one JSON-RPC message or v2 batch per line, optionally prefixed with
 * `→`/`←`) against the schema of its protocol version; responses are matched to their requests.
 * The whole text is at hand, so with protocol "auto" the version is read from all of it. For a
 * transcript too large to hold, feed a `TranscriptLineValidator` instead.
 */
export function validateTranscript(text: string, protocol: TranscriptProtocol = "auto", options: TranscriptOptions = {}): TranscriptReport {
  requireString("validateTranscript: text", text);
  const problems: TranscriptProblem[] = [];
  const validator = new TranscriptLineValidator(protocol, { strict: options.strict, lookaheadChars: Number.POSITIVE_INFINITY }, (problem) =>
    problems.push(problem),
  );
  for (const line of text.split("\n")) validator.line(line);
  const { problemCount: _count, ...summary } = validator.end();
  // Stable: a line's problems keep their order; unanswered requests (strict) move to their lines.
  problems.sort((a, b) => a.line - b.line);
  return {
    valid: summary.valid,
    protocolVersion: summary.protocolVersion,
    schemaVersion: summary.schemaVersion,
    versionSource: summary.versionSource,
    messages: summary.messages,
    problems,
    warnings: summary.warnings,
    extensions: summary.extensions,
  };
}

/** Throws a TypeError naming `what` unless `value` is a string. */
function requireString(what: string, value: unknown): void {
  if (typeof value !== "string") throw new TypeError(`${what} must be a string, got ${value === null ? "null" : typeof value}`);
}
