// `acpkit validate [--protocol 1|2|auto] [--json] [FILE|-]`: checks a recorded ndjson transcript.
import { readFile } from "node:fs/promises";
import { flagSet, flagValue, parseArgs, UsageError } from "../args.js";
import { Exit, type CommandIO } from "../io.js";
import { formatProblem, validateTranscript, type TranscriptProtocol } from "../transcript.js";

export const validateUsage = `usage: acpkit validate [--protocol 1|2|auto] [--json] [FILE|-]

Checks a recorded transcript (one JSON-RPC message or v2 batch per line; lines may start with
→ / ← direction markers) against the ACP schema of its protocol version. Responses are matched
to their requests by id. Exit 0 valid, 1 invalid, 2 unreadable input.`;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

export async function validateCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { protocol: { value: true, choices: ["1", "2", "auto"] }, json: {} });
  if (args.positionals.length > 1) throw new UsageError("validate takes at most one FILE");
  const file = args.positionals[0] ?? "-";
  const protocolFlag = flagValue(args, "protocol", "auto");
  const protocol: TranscriptProtocol = protocolFlag === "auto" ? "auto" : (Number(protocolFlag) as 1 | 2);

  let bytes: Buffer;
  try {
    bytes = file === "-" ? await readAll(io.stdin) : await readFile(file);
  } catch (error) {
    io.stderr.write(`acpkit validate: cannot read ${file === "-" ? "standard input" : file}: ${(error as Error).message}\n`);
    return Exit.Usage;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    io.stderr.write(`acpkit validate: ${file === "-" ? "standard input" : file} is not UTF-8 text\n`);
    return Exit.Usage;
  }

  const report = validateTranscript(text, protocol);
  if (flagSet(args, "json")) {
    io.stdout.write(JSON.stringify(report, null, 2) + "\n");
  } else {
    const { out } = io;
    for (const problem of report.problems) io.stdout.write(out.red(formatProblem(problem)) + "\n");
    const versionNote = report.versionSource === "default" ? " (no initialize found: assumed v1; pass --protocol)" : "";
    const summary = report.valid
      ? out.green(`valid: ${report.messages} messages, protocol v${report.protocolVersion}${versionNote}`)
      : out.red(`invalid: ${report.problems.length} problem(s) in ${report.messages} messages, protocol v${report.protocolVersion}${versionNote}`);
    io.stdout.write(summary + "\n");
  }
  return report.valid ? Exit.Ok : Exit.Failed;
}
