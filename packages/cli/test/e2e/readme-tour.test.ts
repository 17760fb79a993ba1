// The root README's tour must work as printed: its "serve" and "drive" snippets are extracted,
// written to files and run against the built packages, and `acpkit run` drives the served agent.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJson } from "../support/cli.js";

const README = fileURLToPath(new URL("../../../../README.md", import.meta.url));
const CLI_NODE_MODULES = fileURLToPath(new URL("../../node_modules", import.meta.url));
let dir: string;
let serve: string;
let drive: string;

/** The first ```js block after the paragraph starting with `heading`. */
function snippetAfter(markdown: string, heading: string): string {
  const start = markdown.indexOf(heading);
  expect(start, `README has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const match = /```js\n([\s\S]*?)```/.exec(markdown.slice(start));
  expect(match, `no js block after "${heading}"`).not.toBeNull();
  return match![1]!;
}

beforeAll(async () => {
  const markdown = await readFile(README, "utf8");
  serve = snippetAfter(markdown, "**Serve an agent in ten lines.**");
  drive = snippetAfter(markdown, "**Drive one in ten lines.**");
  dir = await mkdtemp(join(tmpdir(), "acpkit-tour-"));
  // The snippets import @acpkit/* by name: resolve them through the CLI package's dependencies.
  await symlink(CLI_NODE_MODULES, join(dir, "node_modules"));
  await writeFile(join(dir, "my-agent.mjs"), serve);
  await writeFile(join(dir, "drive.mjs"), drive);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const codeLines = (snippet: string) => snippet.split("\n").filter((line) => line.trim() !== "").length;

describe.concurrent("README tour", () => {
  it("keeps each snippet to ten lines of code", () => {
    expect(codeLines(serve)).toBeLessThanOrEqual(10);
    expect(codeLines(drive)).toBeLessThanOrEqual(10);
  });

  it("the drive snippet runs the serve snippet's agent over stdio on v2", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["drive.mjs"], { cwd: dir });
    expect(stdout).toContain('agent_message [{"type":"text","text":"HELLO THERE"}]');
    expect(stdout).toContain("stop reason: end_turn");
  });

  it("acpkit run drives the serve snippet's agent", async () => {
    const { code, state } = await runJson(["--prompt", "hello", "--", process.execPath, "my-agent.mjs"], { cwd: dir });
    expect(code).toBe(0);
    expect(state.messages[1].content).toEqual([{ type: "text", text: "HELLO" }]);
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });
});
