// scripts/bundle-package.mjs on a throwaway two-entry package: an import of another entry's module
// stays an import of that entry's file, and a module copied into both entries fails the build
// with its name (the rule that keeps one copy of the error classes across @acpkit/core's entries).
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "scripts", "bundle-package.mjs");

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A package with entries `.` (src/index.ts) and `./extra` (src/extra.ts) and the given sources. */
function fixturePackage(sources: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "acpkit-bundle-"));
  made.push(dir);
  const manifest = { name: "@fixture/two-entries", type: "module", exports: { ".": "./dist/index.js", "./extra": "./dist/extra.js" } };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  writeFileSync(join(dir, "tsconfig.build.json"), JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext" } }));
  mkdirSync(join(dir, "src"));
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, "src", name), text);
  return dir;
}

const SHARED = "export class FixtureError extends Error {}\n";

describe("scripts/bundle-package.mjs", () => {
  it("keeps an import of another entry as an import of that entry's file", async () => {
    expect(existsSync(script)).toBe(true);
    const dir = fixturePackage({
      "common.ts": SHARED,
      "index.ts": 'export { FixtureError } from "./common.js";\n',
      "extra.ts": 'import { FixtureError } from "./index.js";\nexport const fail = () => new FixtureError("x");\n',
    });
    const { stdout } = await run(process.execPath, [script], { cwd: dir });
    expect(stdout).toContain("2 entries, 2 files");
    const index = readFileSync(join(dir, "dist", "index.js"), "utf8");
    const extra = readFileSync(join(dir, "dist", "extra.js"), "utf8");
    expect(index).toMatch(/class (FixtureError )?extends Error/);
    expect(extra).toMatch(/from\s*"\.\/index\.js"/);
    expect(extra).not.toMatch(/extends Error/);
    // Both entries hand out the same class at run time.
    const fromExtra = await import(join(dir, "dist", "extra.js"));
    const fromIndex = await import(join(dir, "dist", "index.js"));
    expect(fromExtra.fail()).toBeInstanceOf(fromIndex.FixtureError);
  });

  it("fails, naming the module and both entries, when a module would be copied into two entries", async () => {
    const dir = fixturePackage({
      "common.ts": SHARED,
      "index.ts": 'export { FixtureError } from "./common.js";\n',
      "extra.ts": 'import { FixtureError } from "./common.js";\nexport const fail = () => new FixtureError("x");\n',
    });
    const failure = await run(process.execPath, [script], { cwd: dir }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure, "the build failed").toBeDefined();
    expect(failure!.code).not.toBe(0);
    expect(failure!.stderr).toContain("src/common.ts is in src/index.ts and src/extra.ts");
  });

  it("breaks the minified code into short lines, so an uncaught error's printed source line stays readable", async () => {
    // Node prints the line of an uncaught error's throw site; on a one-line bundle that was the whole file.
    const body = Array.from({ length: 400 }, (_, i) => `export function helper${i}(value: number): number { return value * ${i} + ${i}; }`).join("\n");
    const dir = fixturePackage({
      "index.ts": `${body}\nexport function check(options: { size?: unknown }): void {\n  if (typeof options.size !== "number") throw new TypeError("check: options.size must be a number");\n}\n`,
      "extra.ts": 'export { check } from "./index.js";\n',
    });
    await run(process.execPath, [script], { cwd: dir });
    const built = readFileSync(join(dir, "dist", "index.js"), "utf8");
    expect(built.length).toBeGreaterThan(20_000);
    const longest = Math.max(...built.split("\n").map((line) => line.length));
    expect(longest).toBeLessThanOrEqual(400);
    const crash = join(dir, "crash.mjs");
    writeFileSync(crash, 'import { check } from "./dist/index.js";\ncheck({});\n');
    const failure = await run(process.execPath, [crash]).then(
      () => undefined,
      (error: { stderr: string }) => error,
    );
    expect(failure, "the script failed").toBeDefined();
    expect(failure!.stderr).toContain("TypeError: check: options.size must be a number");
    // What Node printed above the error: the throw site's line and a caret, not 20 KB of code.
    const context = failure!.stderr.slice(0, failure!.stderr.indexOf("TypeError:"));
    expect(context).toContain("dist/index.js:");
    expect(context.length).toBeLessThan(1_000);
  });
});
