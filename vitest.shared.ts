// Shared vitest settings for every package.
// Tests import sibling packages from their TypeScript sources (not dist/), so a change in
// @acpkit/schema is seen by @acpkit/core's tests without a rebuild. Child processes that tests
// spawn run the built dist/ files, which turbo builds before `test` runs.
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineConfig } from "vitest/config";

const repoRoot = import.meta.dirname;
const packagesDir = join(repoRoot, "packages");

/** `@acpkit/<dir>` → packages/<dir>/src/index.ts, `@acpkit/<dir>/<sub>` → packages/<dir>/src/<sub>.ts */
function workspaceAliases() {
  const aliases: { find: RegExp; replacement: string }[] = [];
  for (const dir of readdirSync(packagesDir)) {
    const src = join(packagesDir, dir, "src");
    if (!existsSync(src)) continue;
    aliases.push({ find: new RegExp(`^@acpkit/${dir}$`), replacement: join(src, "index.ts") });
    // A subpath that is a folder (`@acpkit/core/bridge`) maps to its index.ts.
    for (const entry of readdirSync(src, { withFileTypes: true })) {
      if (entry.isDirectory() && existsSync(join(src, entry.name, "index.ts"))) {
        aliases.push({ find: new RegExp(`^@acpkit/${dir}/${entry.name}$`), replacement: join(src, entry.name, "index.ts") });
      }
    }
    aliases.push({ find: new RegExp(`^@acpkit/${dir}/(.+)$`), replacement: join(src, "$1.ts") });
  }
  return aliases;
}

export function acpkitVitestConfig(packageDir: string) {
  return defineConfig({
    resolve: { alias: workspaceAliases() },
    test: {
      root: packageDir,
      include: ["test/**/*.test.ts"],
      // A test's time is mostly waiting for CPU while CI runs every package's tests at once on two
      // cores: tests that take 8-12 s there took 19-47 s with two more busy cores beside them. 60 s
      // keeps that margin; a test that hangs still fails, a minute later.
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // expect.poll waits for something another process or the browser does. Its default of 1 s
      // was too short while CI ran every package's tests at once on two cores (the inspector's tap
      // test saw the agent's session/new answer later than that); a poll that holds returns at once.
      expect: { poll: { timeout: 15_000 } },
      passWithNoTests: true,
      reporters: ["default", "json"],
      outputFile: { json: resolve(packageDir, "test-results/vitest.json") },
    },
  });
}
