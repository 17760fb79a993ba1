// prepack for every published package (run by `pnpm pack` / `pnpm publish` in the package's folder):
// refuses to pack a package whose dist/ is missing or older than its src/, and puts the
// repository's LICENSE into the tarball.
import { copyFileSync, existsSync, readdirSync, statSync } from "node:fs";
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
// src/ui (the inspector's page) is bundled into one file, dist/ui/app.js, rather than compiled file by file.
const bundledUi = join(src, "ui");
for (const source of files(src).filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts"))) {
  const built = source.startsWith(bundledUi + "/") ? join(dist, "ui", "app.js") : join(dist, relative(src, source)).replace(/\.ts$/, ".js");
  if (!existsSync(built)) fail(`${relative(packageDir, built)} is missing (built from ${relative(packageDir, source)}).`);
  if (statSync(built).mtimeMs < statSync(source).mtimeMs) fail(`${relative(packageDir, built)} is older than ${relative(packageDir, source)}.`);
}
copyFileSync(join(root, "LICENSE"), join(packageDir, "LICENSE"));
