// Importing the package loads no Node built-in it does not need yet (they come from
// process.getBuiltinModule on first use): an agent that only serves its own stdio never loads
// node:child_process, and nothing loads node:module or node:util's namespace. Checked in a fresh
// process, since the test runner itself has loaded all of them.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ensureBuilt } from "@acpkit/test-support/build-once";
import { beforeAll, expect, it } from "vitest";

const PROBE = fileURLToPath(new URL("fixtures/builtins-probe.mjs", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

type Loaded = Record<string, boolean>;

beforeAll(() => {
  ensureBuilt("transport-stdio");
});

it("importing loads no built-in before it is needed; spawning loads node:child_process", async () => {
  expect(existsSync(PROBE)).toBe(true);
  const { stdout } = await promisify(execFile)(process.execPath, [PROBE], { cwd: PACKAGE_DIR });
  const report = JSON.parse(stdout) as { before: Loaded; atImport: Loaded; afterSpawn: Loaded };
  const none = { child_process: false, module: false, "internal/util/parse_args/parse_args": false };
  // The probe watches built-ins a fresh process has not loaded, so the check below can fail.
  expect(report.before).toEqual(none);
  expect(report.atImport).toEqual(none);
  expect(report.afterSpawn).toEqual({ ...none, child_process: true });
});
