#!/usr/bin/env node
// The `acpkit` executable. Anything unexpected is reported on stderr with exit code 1 (no stack
// unless ACPKIT_DEBUG is set), so scripts can rely on the exit codes documented in docs/cli.md.
import { enableCompileCache } from "./compile-cache.js";

function fail(error: unknown): void {
  const detail = process.env.ACPKIT_DEBUG ? (error as Error)?.stack : ((error as Error)?.message ?? String(error));
  process.stderr.write(`acpkit: ${detail}\n`);
  process.exitCode = 1;
}

// Before anything else loads: the cache covers only modules compiled after it is on.
enableCompileCache();
import("./main.js").then(async ({ main, startsProcesses }) => {
  const argv = process.argv.slice(2);
  if (startsProcesses(argv[0])) {
    // Agents run in process groups of their own, out of reach of the terminal's Ctrl-C: on SIGINT,
    // SIGTERM or SIGHUP stop them (SIGTERM, SIGKILL after a grace), then exit 130, 143 or 129.
    const { stopAgentsOnSignal } = await import("@acpkit/transport-stdio");
    stopAgentsOnSignal({ onSignal: (signal) => process.stderr.write(`acpkit ${argv[0]}: ${signal}: stopping the processes it started\n`) });
  }
  return main(argv).then((code) => {
    process.exitCode = code;
  }, fail);
}, fail);
