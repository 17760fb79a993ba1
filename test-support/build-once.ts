// Child processes in tests run built code (packages/*/dist). turbo builds before `test`; when a
// test is run directly (`npx vitest run`), this rebuilds a package whose dist is missing or older
// than its src, so a stale build never makes a test pass or fail for the wrong reason.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const repoRoot = resolve(import.meta.dirname, "..");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Build packages/<name> with its tsconfig.build.json unless dist/index.js is newer than every src file. */
export function ensureBuilt(name: string): void {
  const packageDir = join(repoRoot, "packages", name);
  const built = join(packageDir, "dist", "index.js");
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(packageDir, "src"))) return;
  const tsc = join(repoRoot, "node_modules", ".bin", "tsc");
  try {
    execFileSync(tsc, ["-p", "tsconfig.build.json"], { cwd: packageDir, stdio: "pipe" });
  } catch (error) {
    // tsc still emits on type errors elsewhere; only a missing output is fatal here.
    if (!existsSync(built)) throw new Error(`building packages/${name} failed: ${String((error as { stdout?: Buffer }).stdout ?? error)}`);
  }
}

export const fixturesDir = join(repoRoot, "test-support", "fixtures");
