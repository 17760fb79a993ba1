// `pnpm lint`'s dependency rules (.dependency-cruiser.cjs) fail on what they exist to stop: a
// scratch copy of a package with an import cycle (type-only imports count) and a lower package
// importing a higher one is reported by rule name, and the repository itself passes.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const depcruise = join(repoRoot, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const config = join(repoRoot, ".dependency-cruiser.cjs");
const scratch = mkdtempSync(join(tmpdir(), "acpkit-deps-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
}

/** depcruise over `roots` in `cwd` with the repository's rules: exit code and what it printed. */
async function cruise(cwd: string, roots: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [depcruise, ...roots, "--config", config, "--output-type", "err"], { cwd });
    return { code: 0, out: stdout };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, out: failure.stdout + failure.stderr };
  }
}

describe("the dependency rules of pnpm lint", () => {
  it("fail on a cycle of type-only imports and on core importing the agent package, naming each rule", async () => {
    write("tsconfig.base.json", JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true } }));
    write("packages/core/src/a.ts", 'import type { B } from "./b.js";\nexport interface A { b?: B }\n');
    write("packages/core/src/b.ts", 'import type { A } from "./a.js";\nexport interface B { a?: A }\n');
    write("packages/core/src/uses-agent.ts", 'import { serve } from "../../agent/src/serve.js";\nexport const x = serve;\n');
    write("packages/agent/src/serve.ts", "export const serve = 1;\n");
    const { code, out } = await cruise(scratch, ["packages/core/src", "packages/agent/src"]);
    expect(code).not.toBe(0);
    expect(out).toMatch(/error no-cycle: packages\/core\/src\/(a|b)\.ts/);
    expect(out).toMatch(/error layering-core: packages\/core\/src\/uses-agent\.ts → packages\/agent\/src\/serve\.ts/);
  }, 60_000);

  it("pass on the repository's own sources", async () => {
    const { readdirSync } = await import("node:fs");
    const roots = readdirSync(join(repoRoot, "packages")).map((dir) => `packages/${dir}/src`);
    const { code, out } = await cruise(repoRoot, roots);
    expect(out).toContain("no dependency violations found");
    expect(code).toBe(0);
  }, 120_000);
});
