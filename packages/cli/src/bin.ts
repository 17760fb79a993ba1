#!/usr/bin/env node
// The `acpkit` executable. Anything unexpected is reported on stderr with exit code 1 (no stack
// unless ACPKIT_DEBUG is set), so scripts can rely on the exit codes documented in docs/cli.md.
import { main } from "./main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const detail = process.env.ACPKIT_DEBUG ? (error as Error)?.stack : ((error as Error)?.message ?? String(error));
    process.stderr.write(`acpkit: ${detail}\n`);
    process.exitCode = 1;
  },
);
