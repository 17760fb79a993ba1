// Sums vitest's JSON reports (packages/*/test-results/vitest.json) into the plain line CI reads:
// "N passed, N failed", over every run of the suite CI made (one per Node version). Exits 1 when any test failed, any suite failed to load, or nothing ran.
// Each failure is named just above that line (package, file, test, the first lines of its error):
// CI logs are often seen only by their tail, and a count alone does not say which test to look at.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

// Two forms:
//   node scripts/ci-summary.mjs [ROOT]            the reports under ROOT (default: this repository)
//   node scripts/ci-summary.mjs LABEL=DIR[:a,b] …  one run per argument (CI runs the suite on several
//       Node versions): the reports copied into DIR, laid out as in the repository. With `:a,b` the
//       run covered only those folders (a report of each is required); without, every tested folder.
// A line per labelled run precedes the total, so the log says what each Node version ran.
const repoRoot = join(import.meta.dirname, "..");
const labelled = process.argv.slice(2).filter((arg) => arg.includes("="));
const runs =
  labelled.length === 0
    ? [{ label: undefined, root: process.argv[2] ?? repoRoot, testsRoot: process.argv[2] ?? repoRoot, only: undefined }]
    : labelled.map((arg) => {
        const [label, rest] = [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)];
        const [dir, list] = rest.split(":");
        return { label, root: dir, testsRoot: repoRoot, only: list === undefined ? undefined : list.split(",").filter(Boolean) };
      });
let passed = 0;
let failed = 0;
let skipped = 0;
let brokenSuites = 0;
const missing = [];
/** One line per failed test or unloadable file, printed before the summary line. */
const failureLines = [];
/** One line per labelled run. */
const runLines = [];
const firstLines = (text, n = 3) =>
  String(text ?? "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .slice(0, n)
    .map((line) => `      ${line.slice(0, 300)}`)
    .join("\n");
for (const { label, root, testsRoot, only } of runs) {
  const before = { passed, failed, skipped, brokenSuites, missing: missing.length };
  const testedDirs = only ?? [
    ...readdirSync(join(testsRoot, "packages")).map((d) => join("packages", d)),
    "bench",
    "examples",
    join("tests", "consumer"),
    join("tests", "fuzz"),
  ];
  const where = label === undefined ? "" : `[${label}] `;
  for (const dir of testedDirs) {
    const pkgDir = join(root, dir);
    const testDir = join(testsRoot, dir, "test");
    const hasTests = only !== undefined || (existsSync(testDir) && readdirSync(testDir).some((f) => f.endsWith(".test.ts")));
    const report = join(pkgDir, "test-results", "vitest.json");
    if (!existsSync(report)) {
      if (hasTests) missing.push(`${where}${dir}`);
      continue;
    }
    const json = JSON.parse(readFileSync(report, "utf8"));
    passed += json.numPassedTests ?? 0;
    failed += json.numFailedTests ?? 0;
    skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    // A test file that fails to import counts as a failed suite with no failed test in it.
    for (const suite of json.testResults ?? []) {
      const file = relative(pkgDir, suite.name ?? "").replace(/^(\.\.\/)+/, "");
      const failedTests = (suite.assertionResults ?? []).filter((a) => a.status === "failed");
      if (suite.status === "failed" && failedTests.length === 0) {
        brokenSuites++;
        failureLines.push(`  ${where}${dir}/${file}: the file failed to load\n${firstLines(suite.message)}`);
      }
      for (const test of failedTests) {
        failureLines.push(
          `  ${where}${dir}/${file} > ${test.fullName ?? test.title} (${Math.round(test.duration ?? 0)} ms)\n${firstLines((test.failureMessages ?? []).join("\n"))}`,
        );
      }
    }
  }
  if (label !== undefined) {
    const runFailed = failed - before.failed + (brokenSuites - before.brokenSuites) + (missing.length - before.missing);
    const runSkipped = skipped - before.skipped;
    runLines.push(
      `${label}: ${passed - before.passed} passed, ${runFailed} failed${runSkipped ? `, ${runSkipped} skipped` : ""}${only ? ` (${only.join(", ")})` : ""}`,
    );
  }
}
if (failureLines.length) console.error(`failed:\n${failureLines.join("\n")}`);
for (const dir of missing) console.error(`no vitest report for ${dir} (its tests did not run)`);
if (brokenSuites) console.error(`${brokenSuites} test file(s) failed to load`);
for (const line of runLines) console.log(line);
console.log(`${passed} passed, ${failed + brokenSuites + missing.length} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed + brokenSuites + missing.length > 0 || passed === 0 ? 1 : 0);
