// Sums vitest's JSON reports (packages/*/test-results/vitest.json) into the plain line CI reads:
// "N passed, N failed". Exits 1 when any test failed, any suite failed to load, or nothing ran.
// Each failure is named just above that line (package, file, test, the first lines of its error):
// CI logs are often seen only by their tail, and a count alone does not say which test to look at.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

// The repository root; a test passes a throwaway tree of reports instead.
const root = process.argv[2] ?? join(import.meta.dirname, "..");
let passed = 0;
let failed = 0;
let skipped = 0;
let brokenSuites = 0;
const missing = [];
/** One line per failed test or unloadable file, printed before the summary line. */
const failureLines = [];
const firstLines = (text, n = 3) =>
  String(text ?? "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .slice(0, n)
    .map((line) => `      ${line.slice(0, 300)}`)
    .join("\n");
const testedDirs = [
  ...readdirSync(join(root, "packages")).map((d) => join("packages", d)),
  "bench",
  "examples",
  join("tests", "consumer"),
  join("tests", "fuzz"),
];
for (const dir of testedDirs) {
  const pkgDir = join(root, dir);
  const hasTests = existsSync(join(pkgDir, "test")) && readdirSync(join(pkgDir, "test")).some((f) => f.endsWith(".test.ts"));
  const report = join(pkgDir, "test-results", "vitest.json");
  if (!existsSync(report)) {
    if (hasTests) missing.push(dir);
    continue;
  }
  const json = JSON.parse(readFileSync(report, "utf8"));
  passed += json.numPassedTests ?? 0;
  failed += json.numFailedTests ?? 0;
  skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  // A test file that fails to import counts as a failed suite with no failed test in it.
  for (const suite of json.testResults ?? []) {
    const file = relative(pkgDir, suite.name ?? "");
    const failedTests = (suite.assertionResults ?? []).filter((a) => a.status === "failed");
    if (suite.status === "failed" && failedTests.length === 0) {
      brokenSuites++;
      failureLines.push(`  ${dir}/${file}: the file failed to load\n${firstLines(suite.message)}`);
    }
    for (const test of failedTests) {
      failureLines.push(
        `  ${dir}/${file} > ${test.fullName ?? test.title} (${Math.round(test.duration ?? 0)} ms)\n${firstLines((test.failureMessages ?? []).join("\n"))}`,
      );
    }
  }
}
if (failureLines.length) console.error(`failed:\n${failureLines.join("\n")}`);
for (const dir of missing) console.error(`no vitest report for ${dir} (its tests did not run)`);
if (brokenSuites) console.error(`${brokenSuites} test file(s) failed to load`);
console.log(`${passed} passed, ${failed + brokenSuites + missing.length} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed + brokenSuites + missing.length > 0 || passed === 0 ? 1 : 0);
