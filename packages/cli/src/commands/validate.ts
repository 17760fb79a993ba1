// `acpkit validate [--protocol 1|2|auto] [--json] [FILE|-]`: checks a recorded ndjson transcript.
import { open } from "node:fs/promises";
import { flagSet, flagValue, parseArgs, UsageError } from "../args.js";
import { BatchedOutput, Exit, type CommandIO } from "../io.js";
import type { MalformedUtf8 } from "../malformed-utf8.js";
import { readTranscriptLines } from "../transcript-reader.js";
import { TranscriptLineValidator, formatProblem, type TranscriptProblem, type TranscriptProtocol, type TranscriptSummary } from "@acpkit/schema";

export const validateUsage = `usage: acpkit validate [--protocol 1|2|auto] [--strict] [--json] [FILE|-]

Checks a recorded transcript (one JSON-RPC message or v2 batch per line; lines may start with
→ / ← direction markers) against the ACP schema of its protocol version. Responses are matched
to their requests by id. Methods starting with "_" are extensions: matched, not checked.
A request without an answer is a warning (the transcript may be cut short); --strict makes it
a problem. The transcript is read a line at a time, so it may be of any size; a line longer
than 64 MiB is a problem and is not checked. Problems are printed as they are found, in line
order (with --strict, unanswered requests last). Exit 0 valid, 1 invalid, 2 unreadable input.`;

export async function validateCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { protocol: { value: true, choices: ["1", "2", "auto"] }, json: {}, strict: {} });
  if (args.positionals.length > 1) throw new UsageError("validate takes at most one FILE");
  const file = args.positionals[0] ?? "-";
  const protocolFlag = flagValue(args, "protocol", "auto");
  const protocol: TranscriptProtocol = protocolFlag === "auto" ? "auto" : (Number(protocolFlag) as 1 | 2);

  const source = file === "-" ? "standard input" : file;
  let input: AsyncIterable<Buffer | string>;
  try {
    input = file === "-" ? io.stdin : await openFile(file);
  } catch (error) {
    io.stderr.write(`acpkit validate: cannot read ${source}: ${(error as Error).message}\n`);
    return Exit.Usage;
  }
  const report = flagSet(args, "json") ? new JsonReport(io.stdout) : new HumanReport(io);
  const validator = new TranscriptLineValidator(protocol, { strict: flagSet(args, "strict") }, (problem) => report.problem(problem));
  let malformed: MalformedUtf8 | undefined;
  try {
    malformed = await readTranscriptLines(input, validator, () => report.drained());
    if (malformed !== undefined) validator.end(); // the lines held so far are checked, as a transcript that ends here
  } catch (error) {
    await report.abandon(`cannot read ${source}: ${(error as Error).message}`);
    io.stderr.write(`acpkit validate: cannot read ${source}: ${(error as Error).message}\n`);
    return Exit.Usage;
  }
  if (malformed !== undefined) {
    const reason = `${source} is not UTF-8 text: line ${malformed.line}, byte ${malformed.byte} (0x${malformed.value.toString(16).padStart(2, "0")}) starts no valid UTF-8 sequence`;
    await report.abandon(reason);
    io.stderr.write(`acpkit validate: ${reason}\n`);
    return Exit.Usage;
  }
  const summary = validator.end();
  await report.finish(summary);
  return summary.valid ? Exit.Ok : Exit.Failed;
}

/** A readable file; opening it first makes a missing file fail here, not inside the read loop. */
async function openFile(file: string): Promise<AsyncIterable<Buffer>> {
  const handle = await open(file, "r");
  return handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
}

/** Read 1 MiB at a time: fewer awaits per file, and still little held. */
const READ_CHUNK_BYTES = 1024 * 1024;

/** Where problems go as they are found, and the summary at the end. */
interface ReportWriter {
  problem(problem: TranscriptProblem): void;
  /** A promise while the output is full (reading then waits), else undefined; called after every line. */
  drained(): Promise<void> | undefined;
  finish(summary: TranscriptSummary): Promise<void>;
  /** Reading stopped (`reason`): end the output so that what was written stays well-formed. */
  abandon(reason: string): Promise<void>;
}

/** One line per problem, warnings after them, then the one-line verdict. */
class HumanReport implements ReportWriter {
  readonly #lines: BatchedOutput;
  #waiting: Promise<void> | undefined;

  constructor(private readonly io: CommandIO) {
    this.#lines = new BatchedOutput(io.stdout);
  }

  problem(problem: TranscriptProblem): void {
    this.#waiting = this.#lines.add(this.io.out.red(formatProblem(problem)) + "\n") ?? this.#waiting;
  }

  drained(): Promise<void> | undefined {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    return waiting;
  }

  async finish(summary: TranscriptSummary): Promise<void> {
    const { out } = this.io;
    for (const warning of summary.warnings) await this.#lines.add(out.yellow(`warning: ${formatProblem(warning)}`) + "\n");
    const versionNote = summary.versionSource === "default" ? " (no initialize found: assumed v1; pass --protocol)" : "";
    const extras = [
      summary.extensions > 0 ? `${summary.extensions} extension message(s) not checked` : "",
      summary.warnings.length > 0 ? `${summary.warnings.length} warning(s)` : "",
    ].filter((part) => part !== "");
    const extraNote = extras.length > 0 ? ` (${extras.join(", ")})` : "";
    const verdict = summary.valid
      ? out.green(`valid: ${summary.messages} messages, protocol v${summary.protocolVersion}${versionNote}${extraNote}`)
      : out.red(`invalid: ${summary.problemCount} problem(s) in ${summary.messages} messages, protocol v${summary.protocolVersion}${versionNote}`);
    await this.#lines.add(verdict + "\n");
    await this.#lines.flush();
  }

  async abandon(): Promise<void> {
    await this.#lines.flush();
  }
}

/**
 * The report as one JSON object, written as it grows: `problems` first (each as found), then
 * `warnings` and the summary's members. If reading stops, the object still closes, with `valid`
 * false and `error` saying why.
 */
class JsonReport implements ReportWriter {
  readonly #out: BatchedOutput;
  #waiting: Promise<void> | undefined;
  #count = 0;

  constructor(stream: CommandIO["stdout"]) {
    this.#out = new BatchedOutput(stream);
    this.#out.add('{\n  "problems": [');
  }

  problem(problem: TranscriptProblem): void {
    const item = `${this.#count === 0 ? "" : ","}\n    ${JSON.stringify(problem, null, 2).replace(/\n/g, "\n    ")}`;
    this.#count++;
    this.#waiting = this.#out.add(item) ?? this.#waiting;
  }

  drained(): Promise<void> | undefined {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    return waiting;
  }

  async finish(summary: TranscriptSummary): Promise<void> {
    const { problemCount: _count, warnings, ...rest } = summary;
    await this.#closeProblems();
    await this.#members({ warnings, ...rest });
  }

  async abandon(reason: string): Promise<void> {
    await this.#closeProblems();
    await this.#members({ valid: false, error: reason });
  }

  async #closeProblems(): Promise<void> {
    await this.#out.add(this.#count === 0 ? "]" : "\n  ]");
  }

  /** The object's other members, each as JSON.stringify(…, null, 2) would indent it, and the closing brace. */
  async #members(members: Record<string, unknown>): Promise<void> {
    for (const [key, value] of Object.entries(members)) {
      await this.#out.add(`,\n  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replace(/\n/g, "\n  ")}`);
    }
    await this.#out.add("\n}\n");
    await this.#out.flush();
  }
}
