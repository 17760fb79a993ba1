// The guides' code is the test (docs/guide/*.md). Every ```ts block is written out as a module of
// its own (named by a first line `// file: NAME.ts`, else after its page and place) and the whole
// set is type-checked, strictly, against the built packages and the official SDK (the migration
// page shows both). Then the pages' programs run as a reader would run them: the client of the
// client guide drives the agent of the agent guide, and the testing guide's tests pass under
// node:test. The errors page's catalogue must be what the code's tables generate.
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogue, ERRORS_PAGE, entriesOf, withCatalogue } from "../../scripts/errors-catalogue.js";
import { typeCheck } from "./typecheck.js";

const run = promisify(execFile);
const examples = join(import.meta.dirname, "..");
const guides = join(examples, "..", "docs", "guide");
// Inside examples/, so that the modules resolve @acpkit/*, tsx and the SDK from its node_modules.
const work = join(examples, ".guides");

interface Block {
  page: string;
  /** 1-based place among the page's ts blocks. */
  index: number;
  file: string;
  code: string;
}

function guideBlocks(): Block[] {
  const blocks: Block[] = [];
  for (const page of readdirSync(guides).filter((name) => name.endsWith(".md"))) {
    let index = 0;
    for (const match of readFileSync(join(guides, page), "utf8").matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
      index++;
      const code = match[1]!;
      const named = /^\/\/ file: ([\w.-]+\.ts)\n/.exec(code);
      blocks.push({ page, index, file: named?.[1] ?? `${page.replace(/\.md$/, "")}-${index}.ts`, code });
    }
  }
  return blocks;
}

const blocks = guideBlocks();

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module", private: true }));
  for (const block of blocks) writeFileSync(join(work, block.file), block.code);
});

describe("the guides' code", () => {
  it("has a block on every page, each file named once", () => {
    const pages = new Set(blocks.map((block) => block.page));
    for (const page of ["agent.md", "client.md", "testing.md", "migration.md", "errors.md"]) expect(pages, page).toContain(page);
    const files = blocks.map((block) => block.file);
    expect(new Set(files).size, files.join(", ")).toBe(files.length);
  });

  it("type-checks, every block, strictly", () => {
    const where = new Map(blocks.map((block) => [join(work, block.file), `docs/guide/${block.page}, ts block ${block.index}`]));
    expect(typeCheck([...where.keys()], (file) => where.get(file) ?? file)).toEqual([]);
  }, 120_000);

  it("runs: the client guide's client drives the agent guide's agent over stdio", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "client.ts", "count these four words"], { cwd: work, timeout: 60_000 });
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("connected: word-counter, v2-pinned");
    expect(lines).toContain("update: tool_call_update");
    expect(lines.slice(-3)).toEqual(["stop reason: end_turn", "answer: You said 4 words.", "tool call: Count words (completed)"]);
  }, 90_000);

  it("runs: the testing guide's tests pass under node:test", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=tap", "agent.test.ts", "client.test.ts"], {
      cwd: work,
      timeout: 120_000,
    });
    expect(stdout).toMatch(/^# pass 4$/m);
    expect(stdout).toMatch(/^# fail 0$/m);
  }, 180_000);
});

describe("the errors catalogue", () => {
  it("is what the code's tables generate (pnpm docs:errors)", () => {
    const page = readFileSync(ERRORS_PAGE, "utf8");
    expect(withCatalogue(page, catalogue()) === page, "docs/guide/errors.md is out of date: run pnpm docs:errors").toBe(true);
  });

  it("refuses a code without a comment saying what it means", () => {
    const explained = 'export type ExampleCode =\n  | "known" // what it means\n  | "also_known"; // and this\n';
    expect(entriesOf({ file: "example.ts", name: "ExampleCode" }, () => explained)).toEqual([
      { code: "known", meaning: "what it means" },
      { code: "also_known", meaning: "and this" },
    ]);
    const unexplained = 'export type ExampleCode =\n  | "known" // what it means\n  | "unexplained";\n';
    expect(() => entriesOf({ file: "example.ts", name: "ExampleCode" }, () => unexplained)).toThrow(
      /example\.ts: ExampleCode has no comment saying what "unexplained" means/,
    );
  });
});
