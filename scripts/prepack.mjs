// prepack for every published package (run by `pnpm pack` / `pnpm publish` in the package's folder):
// refuses to pack a package whose dist/ is missing or older than its src/, and puts the
// repository's LICENSE into the tarball.
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const packageDir = process.cwd();
const root = join(import.meta.dirname, "..");
const name = relative(root, packageDir);

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));
}

function fail(why) {
  console.error(`prepack ${name}: ${why}\nBuild first: run \`pnpm build\` at the repository root, then pack again.`);
  process.exit(1);
}

const src = join(packageDir, "src");
const dist = join(packageDir, "dist");
if (!existsSync(join(dist, "index.js"))) fail("dist/index.js is missing: the package is not built.");
// What a source file becomes depends on the build: a package built with scripts/bundle-package.mjs
// has a .d.ts per source and bundled JavaScript entries; the others a .js per source. src/ui (the
// inspector's page) is bundled into one file, dist/ui/app.js.
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const bundled = manifest.scripts?.build?.includes("bundle-package.mjs") ?? false;
const bundledUi = join(src, "ui");
const sources = files(src).filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts"));
function builtFrom(source) {
  if (source.startsWith(bundledUi + "/")) return join(dist, "ui", "app.js");
  return join(dist, relative(src, source)).replace(/\.tsx?$/, bundled ? ".d.ts" : ".js");
}
for (const source of sources) {
  const built = builtFrom(source);
  if (!existsSync(built)) fail(`${relative(packageDir, built)} is missing (built from ${relative(packageDir, source)}).`);
  if (statSync(built).mtimeMs < statSync(source).mtimeMs) fail(`${relative(packageDir, built)} is older than ${relative(packageDir, source)}.`);
}
if (bundled) {
  // A bundle holds every source, so each entry must be newer than the newest source.
  const newest = Math.max(...sources.map((source) => statSync(source).mtimeMs));
  for (const entry of files(dist).filter((file) => file.endsWith(".js"))) {
    if (statSync(entry).mtimeMs < newest) fail(`${relative(packageDir, entry)} is older than the newest source in src/.`);
  }
}
copyFileSync(join(root, "LICENSE"), join(packageDir, "LICENSE"));
