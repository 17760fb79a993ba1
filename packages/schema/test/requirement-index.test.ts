// The requirement index: docs/protocol.md is the one place the rule ids (N8, M11, B3.2, …) and
// section numbers (§4.11) that code and tests cite are defined. This test keeps the two in step:
// every id or section cited in source or tests exists in the document, and every rule the document
// marks MUST (or an acpkit decision, which acpkit holds itself to as a MUST) is cited by a test.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { protocolDoc, repoRoot } from "./support/protocol-examples.js";

type Level = "MUST" | "SHOULD" | "MAY" | "acpkit" | "fact";
const LEVELS = new Set<string>(["MUST", "SHOULD", "MAY", "acpkit", "fact"]);

/** The letters rule ids start with in docs/protocol.md (one letter a family). */
const FAMILIES = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
/** A cited rule id: a family letter, a number and maybe a step (`B3.2`), standing alone. */
const CITED_ID = new RegExp(`(?<![A-Za-z0-9_$\\-.#])([${FAMILIES}][0-9]{1,2}(?:\\.[0-9])?)(?![A-Za-z0-9_])`, "g");
/** A cited section of docs/protocol.md. */
const CITED_SECTION = /§([0-9]{1,2}(?:\.[0-9]{1,2})?)/g;
/**
 * Tokens that look like rule ids but are something else. V8 is the JavaScript engine. Nothing else
 * belongs here: a new entry needs a reason as good as that one.
 */
const NOT_RULE_IDS = new Set(["V8"]);

interface Rule {
  id: string;
  level: Level;
  line: number;
}

function parseRules(markdown: string): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  markdown.split("\n").forEach((text, index) => {
    const cells = text.split("|").map((cell) => cell.trim());
    // A rule row: `| id | level | rule | …`.
    if (cells.length < 5 || !/^[A-Z][0-9]{1,2}(\.[0-9])?$/.test(cells[1]!) || !LEVELS.has(cells[2]!)) return;
    const id = cells[1]!;
    if (rules.has(id)) throw new Error(`docs/protocol.md:${index + 1}: rule ${id} is defined twice`);
    rules.set(id, { id, level: cells[2] as Level, line: index + 1 });
  });
  return rules;
}

function parseSections(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const match of markdown.matchAll(/^#{2,3} ([0-9]{1,2}(?:\.[0-9]{1,2})?)\.? /gm)) sections.add(match[1]!);
  return sections;
}

const SKIP_DIRS = new Set(["node_modules", "dist", "generated", "test-results", ".turbo"]);

function filesUnder(dir: string, accept: (path: string) => boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP_DIRS.has(name) ? [] : filesUnder(path, accept);
    return accept(path) ? [path] : [];
  });
}

const isCode = (path: string) => /\.(ts|mts|mjs|js)$/.test(path);
const packageDirs = readdirSync(join(repoRoot, "packages")).map((name) => join(repoRoot, "packages", name));
const sourceFiles = packageDirs.flatMap((dir) => filesUnder(join(dir, "src"), isCode));
// The transport suite is test code that ships (@acpkit/conformance/transport): its cases count as tests.
const testFiles = [
  ...packageDirs.flatMap((dir) => filesUnder(join(dir, "test"), isCode)),
  ...filesUnder(join(repoRoot, "test-support"), isCode),
  ...filesUnder(join(repoRoot, "packages", "conformance", "src", "transport"), isCode),
].filter((path) => path !== __filename);

interface Citation {
  token: string;
  where: string;
}

/** A range such as `N1–N8` cites every id in it. */
const CITED_RANGE = new RegExp(`(?<![A-Za-z0-9_])([${FAMILIES}])([0-9]{1,2})[–-]\\1?([0-9]{1,2})(?![A-Za-z0-9_.])`, "g");

function citations(files: string[], pattern: RegExp): Citation[] {
  return files.flatMap((path) =>
    readFileSync(path, "utf8")
      .split("\n")
      .flatMap((line, index) => {
        const where = `${relative(repoRoot, path)}:${index + 1}`;
        const found = [...line.matchAll(pattern)].map((match) => ({ token: match[1]!, where }));
        if (pattern !== CITED_ID) return found;
        for (const [, family, from, to] of line.matchAll(CITED_RANGE)) {
          for (let n = Number(from) + 1; n < Number(to); n++) found.push({ token: `${family}${n}`, where });
        }
        return found;
      }),
  );
}

const markdown = readFileSync(protocolDoc, "utf8");
const rules = parseRules(markdown);
const sections = parseSections(markdown);
/** A parent id (`B3`) is defined when any of its steps (`B3.1`) is. */
const defined = (id: string) => rules.has(id) || [...rules.keys()].some((rule) => rule.startsWith(`${id}.`));

describe("docs/protocol.md defines the rules the code cites", () => {
  it("parses the rule tables and the numbered sections", () => {
    expect(rules.size).toBeGreaterThan(100);
    for (const id of ["N8", "M11", "B3.2", "C7", "S8", "O1"]) expect(rules.has(id), id).toBe(true);
    for (const section of ["1.2", "3.3", "4.11", "7.2", "9"]) expect(sections.has(section), section).toBe(true);
  });

  it("finds the source and test files it scans", () => {
    expect(sourceFiles.length).toBeGreaterThan(50);
    expect(testFiles.length).toBeGreaterThan(50);
  });

  it("every rule id cited in src/ or test/ exists in docs/protocol.md", () => {
    const all = citations([...sourceFiles, ...testFiles], CITED_ID).filter((c) => !NOT_RULE_IDS.has(c.token));
    expect(all.length).toBeGreaterThan(100);
    const unknown = all.filter((c) => !defined(c.token)).map((c) => `${c.where}: ${c.token}`);
    expect(unknown, `ids cited but not defined in docs/protocol.md:\n${unknown.join("\n")}`).toEqual([]);
  });

  it("every § section cited in src/ or test/ exists in docs/protocol.md", () => {
    const all = citations([...sourceFiles, ...testFiles], CITED_SECTION);
    expect(all.length).toBeGreaterThan(50);
    const unknown = all.filter((c) => !sections.has(c.token)).map((c) => `${c.where}: §${c.token}`);
    expect(unknown, `sections cited but missing from docs/protocol.md:\n${unknown.join("\n")}`).toEqual([]);
  });
});

describe("every MUST-level rule is cited by a test", () => {
  const cited = new Set(citations(testFiles, CITED_ID).map((c) => c.token));
  const mustLevel = [...rules.values()].filter((rule) => rule.level === "MUST" || rule.level === "acpkit");

  it("has MUST-level rules to check", () => expect(mustLevel.length).toBeGreaterThan(60));

  it("no MUST or acpkit rule goes uncited", () => {
    // A step (B3.2) is cited by its own id; a test that cites the whole algorithm (B3) covers its steps.
    const parentOf = (id: string) => id.split(".")[0]!;
    const uncovered = mustLevel.filter((rule) => !cited.has(rule.id) && !cited.has(parentOf(rule.id)));
    const report = uncovered.map((rule) => `docs/protocol.md:${rule.line}: ${rule.id} (${rule.level})`).join("\n");
    if (uncovered.length) console.log(`MUST-level rules no test cites:\n${report}`);
    expect(
      uncovered.map((rule) => rule.id),
      `MUST-level rules no test cites:\n${report}`,
    ).toEqual([]);
  });
});

// docs/remote.md keeps the remote endpoint's rules (RT1, RT2, …) the same way: every RT id the code
// cites exists there, and every MUST or acpkit rule of it is cited by a test.
describe("docs/remote.md defines the RT rules the code cites, and tests cite its MUST-level ones", () => {
  const remoteDoc = join(repoRoot, "docs", "remote.md");
  const remoteRules = new Map<string, Rule>();
  readFileSync(remoteDoc, "utf8")
    .split("\n")
    .forEach((text, index) => {
      const cells = text.split("|").map((cell) => cell.trim());
      if (cells.length < 5 || !/^RT[0-9]{1,2}$/.test(cells[1]!) || !LEVELS.has(cells[2]!)) return;
      if (remoteRules.has(cells[1]!)) throw new Error(`docs/remote.md:${index + 1}: rule ${cells[1]} is defined twice`);
      remoteRules.set(cells[1]!, { id: cells[1]!, level: cells[2] as Level, line: index + 1 });
    });
  const CITED_RT = /(?<![A-Za-z0-9_$\-.#])(RT[0-9]{1,2})(?![0-9A-Za-z_])/g;
  /** `RT6/RT7` and `RT10–RT11` style ranges cite every id between their ends. */
  const CITED_RT_RANGE = /(?<![A-Za-z0-9_])RT([0-9]{1,2})[–-]RT([0-9]{1,2})(?![0-9])/g;
  const remoteCitations = (files: string[]) =>
    files.flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((line, index) => {
          const where = `${relative(repoRoot, path)}:${index + 1}`;
          const found = [...line.matchAll(CITED_RT)].map((match) => ({ token: match[1]!, where }));
          for (const [, from, to] of line.matchAll(CITED_RT_RANGE)) for (let n = Number(from) + 1; n < Number(to); n++) found.push({ token: `RT${n}`, where });
          return found;
        }),
    );

  it("parses the rule tables", () => {
    expect(remoteRules.size).toBeGreaterThan(20);
    for (const id of ["RT1", "RT4", "RT13", "RT25"]) expect(remoteRules.has(id), id).toBe(true);
  });

  it("every RT id cited in src/ or test/ exists in docs/remote.md", () => {
    const all = remoteCitations([...sourceFiles, ...testFiles]);
    expect(all.length).toBeGreaterThan(20);
    const unknown = all.filter((c) => !remoteRules.has(c.token)).map((c) => `${c.where}: ${c.token}`);
    expect(unknown, `ids cited but not defined in docs/remote.md:\n${unknown.join("\n")}`).toEqual([]);
  });

  it("no MUST or acpkit rule of docs/remote.md goes uncited by a test", () => {
    const cited = new Set(remoteCitations(testFiles).map((c) => c.token));
    const uncovered = [...remoteRules.values()].filter((rule) => (rule.level === "MUST" || rule.level === "acpkit") && !cited.has(rule.id));
    expect(
      uncovered.map((rule) => `docs/remote.md:${rule.line}: ${rule.id} (${rule.level})`),
      "RT rules no test cites",
    ).toEqual([]);
  });
});
