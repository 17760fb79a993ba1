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
import("./main.js").then(
  ({ main }) =>
    main(process.argv.slice(2)).then((code) => {
      process.exitCode = code;
    }, fail),
  fail,
);
