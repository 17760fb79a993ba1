// scripts/ci-summary.mjs on throwaway report trees: it sums vitest's JSON reports into the line CI
// reads, names every failed test (package, file, test, first error line) above that line, and
// counts a test file that failed to load or a package whose tests left no report as failures.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "scripts", "ci-summary.mjs");

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Assertion = { fullName: string; title: string; status: "passed" | "failed" | "skipped"; duration?: number; failureMessages?: string[] };
type Suite = { name: string; status: "passed" | "failed"; message?: string; assertionResults: Assertion[] };

/** A repository-shaped tree: packages/<name>/test/x.test.ts plus, when given, its vitest.json. */
function tree(packages: Record<string, Suite[] | "no report">): string {
  const root = mkdtempSync(join(tmpdir(), "acpkit-ci-summary-"));
  made.push(root);
  for (const [name, suites] of Object.entries(packages)) {
    const dir = join(root, "packages", name);
    mkdirSync(join(dir, "test"), { recursive: true });
    writeFileSync(join(dir, "test", "x.test.ts"), "");
    if (suites === "no report") continue;
    const all = suites.flatMap((s) => s.assertionResults);
    const report = {
      numPassedTests: all.filter((a) => a.status === "passed").length,
      numFailedTests: all.filter((a) => a.status === "failed").length,
      numPendingTests: all.filter((a) => a.status === "skipped").length,
      numTodoTests: 0,
      testResults: suites.map((s) => ({ ...s, name: join(dir, s.name) })),
    };
    mkdirSync(join(dir, "test-results"));
    writeFileSync(join(dir, "test-results", "vitest.json"), JSON.stringify(report));
  }
  return root;
}

function summarize(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

const pass = (title: string): Assertion => ({ fullName: `suite ${title}`, title, status: "passed" });

describe("scripts/ci-summary.mjs", () => {
  it("prints the sum and exits 0 when every test passed", async () => {
    expect(existsSync(script)).toBe(true);
    const root = tree({
      a: [{ name: "test/a.test.ts", status: "passed", assertionResults: [pass("one"), pass("two")] }],
      b: [{ name: "test/b.test.ts", status: "passed", assertionResults: [pass("three"), { ...pass("later"), status: "skipped" }] }],
    });
    const { code, stdout, stderr } = await summarize(root);
    expect(stdout.trim()).toBe("3 passed, 0 failed, 1 skipped");
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("names each failed test with its file and the first lines of its error, above the summary line", async () => {
    const failing: Assertion = {
      fullName: "stdio > answers a burst",
      title: "answers a burst",
      status: "failed",
      duration: 1234.4,
      failureMessages: ["AssertionError: expected 31 to be 60\n\n    at burst.test.ts:42:7\n    at more\n    at more still"],
    };
    const root = tree({ stdio: [{ name: "test/burst.test.ts", status: "failed", assertionResults: [pass("ok"), failing] }] });
    const { code, stdout, stderr } = await summarize(root);
    expect(stdout.trim()).toBe("1 passed, 1 failed");
    expect(stderr).toContain("packages/stdio/test/burst.test.ts > stdio > answers a burst (1234 ms)");
    expect(stderr).toContain("AssertionError: expected 31 to be 60");
    expect(stderr).toContain("at burst.test.ts:42:7");
    expect(stderr).not.toContain("more still");
    expect(code).toBe(1);
  });

  it("counts a file that failed to load and a package without a report as failures, by name", async () => {
    const root = tree({
      loads: [{ name: "test/broken.test.ts", status: "failed", message: "SyntaxError: Unexpected token", assertionResults: [] }],
      silent: "no report",
      fine: [{ name: "test/fine.test.ts", status: "passed", assertionResults: [pass("fine")] }],
    });
    const { code, stdout, stderr } = await summarize(root);
    expect(stdout.trim()).toBe("1 passed, 2 failed");
    expect(stderr).toContain("packages/loads/test/broken.test.ts: the file failed to load");
    expect(stderr).toContain("SyntaxError: Unexpected token");
    expect(stderr).toContain("no vitest report for packages/silent");
    expect(code).toBe(1);
  });

  it("fails when nothing ran at all", async () => {
    const root = tree({ empty: [] });
    const { code, stdout } = await summarize(root);
    expect(stdout.trim()).toBe("0 passed, 0 failed");
    expect(code).toBe(1);
  });

  it("sums labelled runs (one per Node version), with a line for each, and names a missing report with its run", async () => {
    const node24 = tree({
      a: [{ name: "test/a.test.ts", status: "passed", assertionResults: [pass("one"), pass("two")] }],
      b: [{ name: "test/b.test.ts", status: "passed", assertionResults: [pass("three")] }],
    });
    const node22 = tree({ a: [{ name: "test/a.test.ts", status: "passed", assertionResults: [pass("one"), { ...pass("skip"), status: "skipped" }] }] });
    const node20 = tree({ a: [{ name: "test/a.test.ts", status: "passed", assertionResults: [pass("one")] }], b: "no report" });
    const { code, stdout, stderr } = await summarize(
      `Node 24=${node24}:packages/a,packages/b`,
      `Node 22=${node22}:packages/a`,
      `Node 20=${node20}:packages/a,packages/b`,
    );
    expect(stdout.trim().split("\n")).toEqual([
      "Node 24: 3 passed, 0 failed (packages/a, packages/b)",
      "Node 22: 1 passed, 0 failed, 1 skipped (packages/a)",
      "Node 20: 1 passed, 1 failed (packages/a, packages/b)",
      "5 passed, 1 failed, 1 skipped",
    ]);
    expect(stderr).toContain("no vitest report for [Node 20] packages/b");
    expect(code).toBe(1);
  });
});
