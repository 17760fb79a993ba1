// `acpkit validate [--protocol 1|2|auto] [--json] [FILE|-]`: checks a recorded ndjson transcript.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { flagSet, flagValue, parseArgs, UsageError } from "../args.js";
import { BatchedOutput, Exit, type CommandIO } from "../io.js";
import { writeJsonText } from "../json-output.js";
import { findMalformedUtf8 } from "../malformed-utf8.js";
import { formatProblem, validateTranscript, type TranscriptProtocol } from "@acpkit/schema";

export const validateUsage = `usage: acpkit validate [--protocol 1|2|auto] [--strict] [--json] [FILE|-]

Checks a recorded transcript (one JSON-RPC message or v2 batch per line; lines may start with
→ / ← direction markers) against the ACP schema of its protocol version. Responses are matched
to their requests by id. Methods starting with "_" are extensions: matched, not checked.
A request without an answer is a warning (the transcript may be cut short); --strict makes it
a problem. Exit 0 valid, 1 invalid, 2 unreadable input.`;

/**
 * The largest transcript `acpkit validate` checks: 500 MiB. Its text is decoded into one string,
 * and V8's strings end at about 512 Mi characters; past that, decoding threw and a valid file was
 * reported as "not UTF-8 text". Reading stops at the bound, so a stream without end (a FIFO,
 * `yes |`) cannot fill memory either.
 */
export const MAX_TRANSCRIPT_BYTES = 500 * 1024 * 1024;

/** All of `stream`, or `undefined` once it passed `limit` bytes (reading stops there). */
async function readBounded(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > limit) return undefined; // leaving the loop early destroys the stream
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

async function readTranscript(file: string, stdin: NodeJS.ReadableStream): Promise<Buffer | undefined> {
  if (file === "-") return readBounded(stdin, MAX_TRANSCRIPT_BYTES);
  // A regular file's size says it at once; a FIFO or /proc file says 0 and is bounded while read.
  if ((await stat(file)).size > MAX_TRANSCRIPT_BYTES) return undefined;
  return readBounded(createReadStream(file), MAX_TRANSCRIPT_BYTES);
}

export async function validateCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { protocol: { value: true, choices: ["1", "2", "auto"] }, json: {}, strict: {} });
  if (args.positionals.length > 1) throw new UsageError("validate takes at most one FILE");
  const file = args.positionals[0] ?? "-";
  const protocolFlag = flagValue(args, "protocol", "auto");
  const protocol: TranscriptProtocol = protocolFlag === "auto" ? "auto" : (Number(protocolFlag) as 1 | 2);

  const source = file === "-" ? "standard input" : file;
  let bytes: Buffer | undefined;
  try {
    bytes = await readTranscript(file, io.stdin);
  } catch (error) {
    io.stderr.write(`acpkit validate: cannot read ${source}: ${(error as Error).message}\n`);
    return Exit.Usage;
  }
  if (bytes === undefined) {
    const limit = MAX_TRANSCRIPT_BYTES / (1024 * 1024);
    io.stderr.write(
      `acpkit validate: ${source} is larger than ${limit} MiB, the most it checks at once (the text must fit in one string); split it at line boundaries and check the parts with --protocol\n`,
    );
    return Exit.Usage;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const bad = findMalformedUtf8(bytes);
    const where = bad === undefined ? "" : `: line ${bad.line}, byte ${bad.byte} (0x${bad.value.toString(16).padStart(2, "0")}) starts no valid UTF-8 sequence`;
    io.stderr.write(`acpkit validate: ${source} is not UTF-8 text${where}\n`);
    return Exit.Usage;
  }

  const report = validateTranscript(text, protocol, { strict: flagSet(args, "strict") });
  if (flagSet(args, "json")) {
    await writeJsonText(report, io.stdout);
  } else {
    const { out } = io;
    const lines = new BatchedOutput(io.stdout);
    for (const problem of report.problems) await lines.add(out.red(formatProblem(problem)) + "\n");
    for (const warning of report.warnings) await lines.add(out.yellow(`warning: ${formatProblem(warning)}`) + "\n");
    await lines.flush();
    const versionNote = report.versionSource === "default" ? " (no initialize found: assumed v1; pass --protocol)" : "";
    const extras = [
      report.extensions > 0 ? `${report.extensions} extension message(s) not checked` : "",
      report.warnings.length > 0 ? `${report.warnings.length} warning(s)` : "",
    ].filter((part) => part !== "");
    const extraNote = extras.length > 0 ? ` (${extras.join(", ")})` : "";
    const summary = report.valid
      ? out.green(`valid: ${report.messages} messages, protocol v${report.protocolVersion}${versionNote}${extraNote}`)
      : out.red(`invalid: ${report.problems.length} problem(s) in ${report.messages} messages, protocol v${report.protocolVersion}${versionNote}`);
    io.stdout.write(summary + "\n");
  }
  return report.valid ? Exit.Ok : Exit.Failed;
}
