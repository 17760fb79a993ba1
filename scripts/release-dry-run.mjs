// The release dry run (docs/releasing.md), exercised by CI: checks what `changeset version` would
// release (every public @acpkit package at one version; private workspace packages never), then
// runs `pnpm publish --dry-run` for every public package, which packs each through its prepack
// check without uploading anything. Needs a build first (`pnpm build`).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const publicPackages = readdirSync(join(root, "packages"))
  .map((dir) => JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")))
  .filter((pkg) => !pkg.private)
  .map((pkg) => pkg.name)
  .sort();

const scratch = mkdtempSync(join(tmpdir(), "acpkit-release-"));
const problems = [];
try {
  const statusFile = join(scratch, "status.json");
  execFileSync("pnpm", ["exec", "changeset", "status", "--output", statusFile], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const { releases: all } = JSON.parse(readFileSync(statusFile, "utf8"));
  // Private workspace packages are listed with type "none" (privatePackages.version is false).
  const releases = all.filter((release) => release.type !== "none");
  for (const release of all) if (release.type === "none" && publicPackages.includes(release.name)) problems.push(`${release.name} has no version bump`);
  const planned = new Map(releases.map((release) => [release.name, release.newVersion]));
  const versions = new Set(planned.values());
  for (const name of publicPackages) if (!planned.has(name)) problems.push(`${name} is not in the planned release`);
  for (const name of planned.keys()) if (!publicPackages.includes(name)) problems.push(`${name} would be released but is private or not a package`);
  if (versions.size !== 1) problems.push(`the packages would get different versions: ${[...versions].join(", ")}`);
  console.log(`changeset version would release ${planned.size} packages at ${[...versions].join(", ")}:`);
  for (const [name, version] of planned) console.log(`  ${name}@${version}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const out = execFileSync("pnpm", ["--filter", "./packages/*", "-r", "publish", "--dry-run", "--no-git-checks", "--access", "public"], {
  cwd: root,
  encoding: "utf8",
  stdio: ["ignore", "pipe", "pipe"],
});
const published = [...out.matchAll(/^\+ (@acpkit\/[\w-]+)@/gm)].map((match) => match[1]).sort();
console.log(`pnpm publish --dry-run packed: ${published.join(", ")}`);
for (const name of publicPackages) if (!published.includes(name)) problems.push(`pnpm publish --dry-run did not pack ${name}`);

if (problems.length) {
  for (const problem of problems) console.error(`release dry run: ${problem}`);
  process.exit(1);
}
console.log("release dry run: ok");
