// The checking agent as a process (the hidden `acpkit __check-peer --scenario NAME --log FILE`):
// the client under test starts it in place of `{agent}`; it reads the client's lines on stdin,
// writes on stdout, and appends its log to FILE for the checker, which runs in another process.
import { appendFileSync, writeFileSync } from "node:fs";
import { DEFAULT_MAX_MESSAGE_SIZE, NdjsonReader } from "@acpkit/transport-stdio";
import { CLIENT_SCENARIOS, type ClientScenario, createClientPeer } from "./peer.js";

/**
 * The file the checking agent creates next to its log once the log holds every line the client
 * wrote (its input ended, or it is exiting on its own). The client under test may exit the moment
 * it has written, long before this agent has read a line; the checker waits for this file, not
 * for the client, before it judges the log.
 */
export function peerLogDoneFile(logFile: string): string {
  return `${logFile}.done`;
}

/** Play `scenario` over this process's stdio, logging to `logFile`; resolves when the client's output ends. */
export async function runClientPeer(scenario: ClientScenario, logFile: string, slowMs: number, maxProtocol: 1 | 2 = 2): Promise<void> {
  const peer = createClientPeer(
    scenario,
    {
      write: (text) => process.stdout.write(`${text}\n`),
      log: (entry) => appendFileSync(logFile, `${JSON.stringify(entry)}\n`),
      logDone: () => writeFileSync(peerLogDoneFile(logFile), ""),
      leave: () => process.exit(0),
    },
    { slowMs, maxProtocol },
  );
  const reader = new NdjsonReader(DEFAULT_MAX_MESSAGE_SIZE, {
    onLine: peer.line,
    onOversizedLine: (lineNumber, bytesSeen) =>
      peer.note(
        "note",
        `line ${lineNumber} of the client was longer than ${DEFAULT_MAX_MESSAGE_SIZE} bytes (${bytesSeen} seen): not held, skipped up to its newline`,
      ),
    onInvalidUtf8: (lineNumber) => peer.note("note", `line ${lineNumber} of the client (or one right after it) is not valid UTF-8`),
    // The last line is still read as a message; that it was never framed is logged apart, for the
    // checker to judge (a line the checker's own kill cut short is not held against the client).
    onUnterminatedLine: (_lineNumber, bytes) => peer.note("tail", `the client's output ended inside a line: ${bytes} bytes after the last newline`),
  });
  process.stdin.on("data", (chunk: Buffer) => reader.push(chunk));
  await new Promise((resolve) => process.stdin.once("end", resolve));
  reader.end();
  peer.end();
}

/**
 * The checking agent's command line: `--scenario NAME --log FILE [--slow-ms MS] [--max-protocol 1|2]`.
 * Plays the scenario and resolves 0, or writes what is missing to `stderr` and resolves 2.
 */
export async function runClientPeerCommand(argv: readonly string[], stderr: { write(text: string): unknown }, name: string): Promise<number> {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const scenario = value("--scenario") as ClientScenario | undefined;
  const log = value("--log");
  if (!scenario || !CLIENT_SCENARIOS.includes(scenario) || !log) {
    stderr.write(`${name}: needs --scenario (${CLIENT_SCENARIOS.join(", ")}) and --log FILE\n`);
    return 2;
  }
  await runClientPeer(scenario, log, Number(value("--slow-ms") ?? 12_000), value("--max-protocol") === "1" ? 1 : 2);
  return 0;
}
