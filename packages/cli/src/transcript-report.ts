// What `acpkit validate` prints, written as the problems are found: one line per problem, or one
// JSON document that grows with them. Nothing is kept but the output batch, so a transcript with
// millions of problems is reported in bounded memory.
import { BatchedOutput, type CommandIO } from "./io.js";
import { formatProblem, type TranscriptProblem, type TranscriptSummary } from "@acpkit/schema";

/** Where problems go as they are found, and the summary at the end. */
abstract class TranscriptReport {
  readonly #out: BatchedOutput;
  #waiting: Promise<void> | undefined;
  readonly #gone = new AbortController();

  constructor(stream: CommandIO["stdout"]) {
    this.#out = new BatchedOutput(stream);
    // A reader that went away (`acpkit validate big.ndjson | head`): EPIPE, then close.
    const gone = (): void => this.#gone.abort();
    stream.once("error", gone);
    stream.once("close", gone);
  }

  /** Aborted once the output stream failed or closed: nothing written from then on is read. */
  get outputGone(): AbortSignal {
    return this.#gone.signal;
  }

  abstract problem(problem: TranscriptProblem): void;
  abstract finish(summary: TranscriptSummary): Promise<void>;
  /** Reading stopped (`reason`): end the output so that what was written stays well-formed. */
  abstract abandon(reason: string): Promise<void>;

  /** A promise while the output is full (reading then waits), else undefined; called after every line. */
  drained(): Promise<void> | undefined {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    return waiting;
  }

  /** Queue a piece of output; remembers when the stream asked to wait. */
  protected write(piece: string): void {
    this.#waiting = this.#out.add(piece) ?? this.#waiting;
  }

  /** Queue the last pieces and write everything out. */
  protected async end(...pieces: string[]): Promise<void> {
    for (const piece of pieces) await this.#out.add(piece);
    await this.#out.flush();
  }
}

/** One line per problem, warnings after them, then the one-line verdict. */
export class HumanTranscriptReport extends TranscriptReport {
  constructor(private readonly io: CommandIO) {
    super(io.stdout);
  }

  problem(problem: TranscriptProblem): void {
    this.write(this.io.out.red(formatProblem(problem)) + "\n");
  }

  async finish(summary: TranscriptSummary): Promise<void> {
    const { out } = this.io;
    const warnings = summary.warnings.map((warning) => out.yellow(`warning: ${formatProblem(warning)}`) + "\n");
    const versionNote = summary.versionSource === "default" ? " (no initialize found: assumed v1; pass --protocol)" : "";
    const extras = [
      summary.extensions > 0 ? `${summary.extensions} extension message(s) not checked` : "",
      summary.warnings.length > 0 ? `${summary.warnings.length} warning(s)` : "",
    ].filter((part) => part !== "");
    const extraNote = extras.length > 0 ? ` (${extras.join(", ")})` : "";
    // The later v2 draft is version 2 too: the dialect is named so the two v2s are not confused.
    const version = `protocol v${summary.protocolVersion}${summary.schemaVersion === "v2-later" ? " (the later v2 draft)" : ""}`;
    const verdict = summary.valid
      ? out.green(`valid: ${summary.messages} messages, ${version}${versionNote}${extraNote}`)
      : out.red(`invalid: ${summary.problemCount} problem(s) in ${summary.messages} messages, ${version}${versionNote}`);
    await this.end(...warnings, verdict + "\n");
  }

  async abandon(): Promise<void> {
    await this.end();
  }
}

/**
 * The report as one JSON object, written as it grows: `problems` first (each as found), then
 * `warnings` and the summary's members, each indented as JSON.stringify(report, null, 2) would.
 * If reading stops, the object still closes, with `valid` false and `error` saying why.
 */
export class JsonTranscriptReport extends TranscriptReport {
  #count = 0;

  constructor(stream: CommandIO["stdout"]) {
    super(stream);
    this.write('{\n  "problems": [');
  }

  problem(problem: TranscriptProblem): void {
    this.write(`${this.#count === 0 ? "" : ","}\n    ${JSON.stringify(problem, null, 2).replace(/\n/g, "\n    ")}`);
    this.#count++;
  }

  async finish(summary: TranscriptSummary): Promise<void> {
    const { problemCount: _count, warnings, ...rest } = summary;
    await this.#close({ warnings, ...rest });
  }

  async abandon(reason: string): Promise<void> {
    await this.#close({ valid: false, error: reason });
  }

  /** Close the problems array, add the other members and close the object. */
  async #close(members: Record<string, unknown>): Promise<void> {
    const pieces = [this.#count === 0 ? "]" : "\n  ]"];
    for (const [key, value] of Object.entries(members)) pieces.push(`,\n  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replace(/\n/g, "\n  ")}`);
    await this.end(...pieces, "\n}\n");
  }
}
