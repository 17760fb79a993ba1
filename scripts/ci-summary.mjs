// Sums vitest's JSON reports (packages/*/test-results/vitest.json) into the plain line CI reads:
// "N passed, N failed". Exits 1 when any test failed, any suite failed to load, or nothing ran.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
let passed = 0;
let failed = 0;
let skipped = 0;
let brokenSuites = 0;
const missing = [];
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
    if (suite.status === "failed" && (suite.assertionResults ?? []).every((a) => a.status !== "failed")) brokenSuites++;
  }
}
for (const dir of missing) console.error(`no vitest report for ${dir} (its tests did not run)`);
if (brokenSuites) console.error(`${brokenSuites} test file(s) failed to load`);
console.log(`${passed} passed, ${failed + brokenSuites + missing.length} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed + brokenSuites + missing.length > 0 || passed === 0 ? 1 : 0);
