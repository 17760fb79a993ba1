// `acpkit validate [--protocol 1|2|v2-later|auto] [--json] [FILE|-]`: checks a recorded ndjson transcript.
import { open } from "node:fs/promises";
import { flagSet, flagValue, parseArgs, UsageError } from "../args.js";
import { Exit, type CommandIO } from "../io.js";
import type { MalformedUtf8 } from "../malformed-utf8.js";
import { readTranscriptLines } from "../transcript-reader.js";
import { HumanTranscriptReport, JsonTranscriptReport } from "../transcript-report.js";
import { TranscriptLineValidator, type TranscriptProtocol } from "@acpkit/schema";

export const validateUsage = `usage: acpkit validate [--protocol 1|2|v2-later|auto] [--strict] [--json] [FILE|-]

Checks a recorded transcript (one JSON-RPC message or v2 batch per line; lines may start with
→ / ← direction markers) against the ACP schema of its protocol version. With auto (the
default) the version comes from the initialize exchange: version 2 with "info" is the later v2
draft (v2-later, the v2 of @agentclientprotocol/sdk 2.4), without it acpkit's pinned v2. Responses are matched
to their requests by id. Methods starting with "_" are extensions: matched, not checked.
A request without an answer is a warning (the transcript may be cut short); --strict makes it
a problem. The transcript is read a line at a time, so it may be of any size; a line longer
than 64 MiB is a problem and is not checked. Problems are printed as they are found, in line
order (with --strict, unanswered requests last). Exit 0 valid, 1 invalid, 2 unreadable input.`;

export async function validateCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { protocol: { value: true, choices: ["1", "2", "v2-later", "auto"] }, json: {}, strict: {} });
  if (args.positionals.length > 1) throw new UsageError("validate takes at most one FILE");
  const file = args.positionals[0] ?? "-";
  const protocolFlag = flagValue(args, "protocol", "auto");
  const protocol: TranscriptProtocol = protocolFlag === "auto" || protocolFlag === "v2-later" ? protocolFlag : (Number(protocolFlag) as 1 | 2);

  const source = file === "-" ? "standard input" : file;
  let input: AsyncIterable<Buffer | string>;
  try {
    input = file === "-" ? io.stdin : await openFile(file);
  } catch (error) {
    io.stderr.write(`acpkit validate: cannot read ${source}: ${(error as Error).message}\n`);
    return Exit.Usage;
  }
  const report = flagSet(args, "json") ? new JsonTranscriptReport(io.stdout) : new HumanTranscriptReport(io);
  // Reading stops when the reader of the output went away and a problem was found: the exit code
  // (1) is then settled and nobody reads the rest. Without a problem yet, the rest decides it.
  const stop = new AbortController();
  const validator = new TranscriptLineValidator(protocol, { strict: flagSet(args, "strict") }, (problem) => {
    report.problem(problem);
    if (report.outputGone.aborted) stop.abort();
  });
  let malformed: MalformedUtf8 | undefined;
  try {
    malformed = await readTranscriptLines(input, validator, () => report.drained(), { signal: stop.signal });
    if (stop.signal.aborted) return Exit.Failed;
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
