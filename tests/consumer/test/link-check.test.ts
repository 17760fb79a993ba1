// `pnpm lint:links` (part of `pnpm lint`) fails on what it exists to stop: in a scratch copy, a
// relative link to a missing file and an anchor naming no heading are each reported and the exit
// code is non-zero; the repository's own Markdown passes.
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const remark = join(repoRoot, "node_modules", "remark-cli", "cli.js");
// Inside the repository, so that the settings file finds the checker in its node_modules.
const scratch = mkdtempSync(join(repoRoot, ".links-scratch-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** remark with the repository's settings over `files` in `cwd`: exit code and what it printed. */
async function checkLinks(cwd: string, files: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [remark, "--quiet", "--frail", "--no-stdout", "--no-color", ...files], { cwd });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, out: failure.stdout + failure.stderr };
  }
}

describe("the link check of pnpm lint", () => {
  it("fails on a link to a missing file and on an anchor with no heading, naming each", async () => {
    copyFileSync(join(repoRoot, ".remarkrc.mjs"), join(scratch, ".remarkrc.mjs"));
    writeFileSync(join(scratch, "guide.md"), "# Guide\n\n## Writing an agent\n\nText.\n");
    writeFileSync(
      join(scratch, "README.md"),
      "# Readme\n\nSee [the guide](guide.md#writing-an-agent), [gone](docs/gone.md) and [no such part](guide.md#writing-a-client).\n",
    );
    const { code, out } = await checkLinks(scratch, ["README.md", "guide.md"]);
    expect(code).not.toBe(0);
    expect(out).toMatch(/Cannot find file `docs\/gone\.md`/);
    expect(out).toMatch(/Cannot find heading for `#writing-a-client` in `guide\.md`/);
    // The good link is not reported: exactly two warnings.
    expect(out).toMatch(/⚠ 2 warnings/);
  }, 60_000);

  it("passes on the repository's own Markdown", async () => {
    const { stdout } = await run("pnpm", ["--silent", "lint:links"], { cwd: repoRoot });
    expect(stdout).not.toMatch(/warning|error/);
  }, 120_000);
});
