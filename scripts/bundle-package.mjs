// Bundles a library package's JavaScript: one file per public entry (the `exports` of its
// package.json) plus shared chunks, instead of one file per source module. Run in the package's
// folder after `tsc --emitDeclarationOnly` has written the .d.ts files.
//
// Why: Node pays per module it resolves, reads and compiles. Importing @acpkit/client and
// @acpkit/transport-stdio meant about 60 files and ~46 ms; bundled, the same import is a handful of
// files (docs/performance.md, "import"). Every entry of a package is built in one pass with code
// splitting, so a module that two entries share (say the error classes of @acpkit/core and
// @acpkit/core/transport-kit) exists once and `instanceof` holds across entries. Other packages,
// @acpkit/* included, stay external: each is its own bundle, loaded once.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";

const packageDir = process.cwd();
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const dist = join(packageDir, "dist");

// Modules loaded with a dynamic import() that users may also import by path: as entries they keep
// a stable name (dist/generated/v1/validators.js) instead of a hashed chunk name.
const EXTRA_ENTRIES = {
  "@acpkit/schema": ["src/generated/v1/validators.ts", "src/generated/v2/validators.ts"],
};

/** Every `./dist/….js` an `exports` condition points at, whatever the nesting of conditions. */
function exportTargets(value) {
  if (typeof value === "string") return value.startsWith("./dist/") && value.endsWith(".js") ? [value] : [];
  if (value && typeof value === "object") return Object.values(value).flatMap(exportTargets);
  return [];
}

function sourceOf(target) {
  const base = join(packageDir, "src", target.slice("./dist/".length, -".js".length));
  for (const extension of [".ts", ".tsx"]) if (existsSync(base + extension)) return base + extension;
  throw new Error(`bundle-package ${manifest.name}: no source for ${target} (looked for ${relative(packageDir, base)}.ts)`);
}

const entries = [...new Set([...exportTargets(manifest.exports), ...(EXTRA_ENTRIES[manifest.name] ?? []).map((path) => `./dist/${path.slice(4, -3)}.js`)])];
const entryPoints = entries.map(sourceOf);

const result = await build({
  entryPoints,
  outbase: join(packageDir, "src"),
  outdir: dist,
  entryNames: "[dir]/[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  // "neutral": no Node or browser assumptions are added; node: built-ins stay imports.
  platform: "neutral",
  target: "es2022",
  packages: "external",
  external: ["node:*"],
  // @acpkit/schema is mostly generated validator code (~400 KB per version), which a starting
  // process parses in full when it loads a version: without whitespace there is less to parse
  // (v1's chunk: 371 KB instead of 575 KB; loading it took ~20% less time in a quiet measurement,
  // within the noise on a busy machine). Names are not mangled, so stack traces
  // stay readable, and no keepNames wrappers are added, which would stop a consumer's bundler from
  // dropping the exports it does not use (the browser bundle grew by 2.5 KB gzip with them).
  ...(manifest.name === "@acpkit/schema" ? { minifyWhitespace: true, minifySyntax: true } : {}),
  sourcemap: true,
  sourcesContent: true,
  metafile: true,
  logLevel: "warning",
  tsconfig: join(packageDir, "tsconfig.build.json"),
});

const written = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js"));
for (const target of entries) {
  const file = join(packageDir, target);
  if (!existsSync(file) || statSync(file).size === 0) throw new Error(`bundle-package ${manifest.name}: ${target} was not written`);
}
console.log(`bundle-package ${manifest.name}: ${entries.length} entries, ${written.length} files`);
