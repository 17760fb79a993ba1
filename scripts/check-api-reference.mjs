// `pnpm docs:check`: the committed API reference (docs/api, written by `pnpm run docs` from the
// doc comments) is what the sources generate, and every link in it resolves.
//
// Why a check of its own: docs/api is committed so that the READMEs' links to it work on GitHub
// and npm, so it must not drift from the code. The reference's anchors are HTML anchors
// (`<a id="…">`, typedoc's `useHTMLAnchors`): typedoc-plugin-markdown's guesses at heading ids go
// wrong when two symbols share a name, while an explicit anchor is exact. The repository's link
// checker (remark-validate-links, `pnpm lint`) reads headings, not HTML, so this script checks the
// reference's own links against its anchors.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const reference = join(root, "docs", "api");

/** Every Markdown file under `dir`. */
function markdownFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(dir, name));
}

const problems = [];
const files = markdownFiles(reference);
if (files.length === 0) problems.push("docs/api has no Markdown files: run `pnpm run docs`");
const anchors = new Map(files.map((file) => [file, new Set([...readFileSync(file, "utf8").matchAll(/<a id="([^"]+)"/g)].map((match) => match[1]))]));
let links = 0;
for (const file of files) {
  for (const match of readFileSync(file, "utf8").matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = match[1];
    if (/^[a-z]+:/.test(link)) continue;
    links++;
    const [path, anchor] = link.split("#");
    const target = path === "" ? file : resolve(dirname(file), path);
    const where = `${relative(root, file)}: ${link}`;
    if (!existsSync(target)) problems.push(`${where}: no such file`);
    else if (anchor !== undefined && target.endsWith(".md") && !anchors.get(target)?.has(anchor)) problems.push(`${where}: no anchor "${anchor}" there`);
  }
}

// What `pnpm run docs` just wrote must be what is committed.
const drift = execFileSync("git", ["status", "--porcelain", "--", "docs/api"], { cwd: root, encoding: "utf8" }).trim();
if (drift !== "") problems.push(`docs/api differs from what is committed (run \`pnpm run docs\` and commit it):\n${drift}`);

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`docs:check: ${files.length} files of the API reference, committed as generated; ${links} links, each resolves`);
