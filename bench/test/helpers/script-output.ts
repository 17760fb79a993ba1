// The bench's measuring scripts (turn-memory.mjs, roundtrip-cost.mjs) print their result as one
// JSON line on stdout: run one in a fresh Node process and hand back that line, parsed.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect } from "vitest";

const run = promisify(execFile);

export async function jsonLineOf(script: string, args: readonly string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [script, ...args]);
  const lines = stdout.trim().split("\n");
  expect(lines, `${script} prints one line`).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

/** The failure of running `script` with `args` (exit code and stderr), or undefined when it succeeded. */
export function failureOf(script: string, args: readonly string[]): Promise<{ code?: number; stderr?: string } | undefined> {
  return run(process.execPath, [script, ...args]).then(
    () => undefined,
    (error: { code?: number; stderr?: string }) => error,
  );
}
