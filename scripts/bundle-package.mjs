// Bundles a library package's JavaScript: one self-contained file per public entry (the `exports`
// of its package.json), instead of one file per source module. Run in the package's folder after
// `tsc --emitDeclarationOnly` has written the .d.ts files.
//
// Why: Node pays per module file it resolves, reads and compiles (about half a millisecond each
// on the benchmark machine, more for a bare `@acpkit/...` specifier). Importing @acpkit/client and
// @acpkit/transport-stdio meant about 60 files and ~46 ms file by file, 9 files with esbuild's
// shared chunks, and 5 files now (docs/performance.md, "Import and cold start"; core's transport helpers are in its
// main entry since the second round's step 13).
//
// The one rule: an import of a module that is itself an entry of the package stays an import of
// that entry's file (`@acpkit/core/transport-kit` re-exports from `./index.js`), so
// code two entries share exists once and `instanceof` holds across entries. Any other module that
// ends up in two entries fails the build with the module named: import it through an entry
// instead. Other packages, @acpkit/* included, stay imports: each is its own bundle, loaded once
// (no exception: a package that needs another's data at startup gets a generated copy of its own).
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { build } from "esbuild";

const packageDir = process.cwd();
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));

// Entries that are not in `exports`: the validators, which are loaded by a dynamic import() and
// keep a stable name (dist/generated/v1/validators.js), and a module two public entries share when
// neither entry exports all of what the other uses from it (the browser and Node WebSocket entries
// share the frame transport; the HTTP ones share the HTTP+SSE client).
const EXTRA_ENTRIES = {
  "@acpkit/schema": ["v1", "v2", "v2-later"].flatMap((version) =>
    ["validators", "agent-receives", "client-receives"].map((name) => `src/generated/${version}/${name}.ts`),
  ),
  // Loaded by connectAgent only when asked for (warmUp; fs, terminal or elicitation handlers).
  "@acpkit/client": ["src/warm-up.ts", "src/client-services.ts"],
  "@acpkit/transport-websocket": ["src/frame-transport.ts"],
  "@acpkit/transport-http": ["src/common.ts"],
};

// The one exception to the rule above: entries that carry their own copy of a module, cut down to
// what they use, instead of importing the entry that has all of it. The generated validators are
// pure functions, and the agent-receives/client-receives entries exist to load less of them; every
// other importer of the validators (the registry's dynamic import) still imports their entry.
const OWN_COPY_ALLOWED = {
  "@acpkit/schema": { entries: /^src\/generated\/v[\w-]+\/(agent|client)-receives\.ts$/, module: /^src\/generated\/v[\w-]+\/validators\.ts$/ },
};

/** `file` (absolute) relative to the package, with forward slashes: `src/generated/v1/validators.ts`. */
function packagePath(file) {
  return relative(packageDir, file).split("\\").join("/");
}

/** Whether `entrySource` may carry its own copy of module `source` (absolute paths). */
function ownCopyAllowed(entrySource, source) {
  const allowed = OWN_COPY_ALLOWED[manifest.name];
  return (allowed?.entries.test(packagePath(entrySource)) && allowed.module.test(packagePath(source))) ?? false;
}

/** Every `./dist/….js` an `exports` condition points at, whatever the nesting of conditions. */
function exportTargets(value) {
  if (typeof value === "string") return value.startsWith("./dist/") && value.endsWith(".js") ? [value] : [];
  if (value && typeof value === "object") return Object.values(value).flatMap(exportTargets);
  return [];
}

/** The source file a relative import names (`./errors.js` is src/errors.ts), if it exists. */
function sourceFileOf(resolveDir, specifier) {
  const base = resolve(resolveDir, specifier);
  const candidates = base.endsWith(".js") ? [`${base.slice(0, -3)}.ts`, `${base.slice(0, -3)}.tsx`, base] : [base, `${base}.ts`, `${base}.tsx`];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** The source of an entry (`./dist/bridge/index.js` is src/bridge/index.ts). */
function sourceOf(target) {
  const source = sourceFileOf(join(packageDir, "src"), target.slice("./dist/".length));
  if (source === undefined || source.endsWith(".js"))
    throw new Error(`bundle-package ${manifest.name}: no source for ${target} (looked for src/${target.slice(7, -3)}.ts)`);
  return source;
}

const entries = [...new Set([...exportTargets(manifest.exports), ...(EXTRA_ENTRIES[manifest.name] ?? []).map((path) => `./dist/${path.slice(4, -3)}.js`)])];

const entrySources = new Map(entries.map((target) => [sourceOf(target), join(packageDir, target)]));

/** Keeps an import of another entry's module as an import of that entry's output file. */
function entryBoundary(entrySource) {
  const outputDir = dirname(entrySources.get(entrySource));
  return {
    name: "entry-boundary",
    setup(builder) {
      builder.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = sourceFileOf(args.resolveDir, args.path);
        if (target === undefined || target === entrySource || !entrySources.has(target) || ownCopyAllowed(entrySource, target)) return undefined;
        const path = relative(outputDir, entrySources.get(target));
        return { path: path.startsWith(".") ? path : `./${path}`, external: true };
      });
    },
  };
}

/** The generated validator modules (src/generated/{v1,v2,v2-later}/: all of them, and each side's part): the only generated entries. */
function isGeneratedValidators(source) {
  return packagePath(source).startsWith("src/generated/");
}

const results = [];
for (const [entrySource, outfile] of entrySources) {
  const result = await build({
    entryPoints: [entrySource],
    outfile,
    bundle: true,
    format: "esm",
    // "neutral": no Node or browser assumptions are added; node: built-ins stay imports.
    platform: "neutral",
    target: "es2022",
    packages: "external",
    external: ["node:*"],
    plugins: [entryBoundary(entrySource)],
    // Every file a starting process loads is parsed in full, so the bundles carry no whitespace
    // and simpler syntax: @acpkit/schema's generated validators (v1's file: 371 KB instead of
    // 575 KB) and, since the second performance round, the library code too (client 72 KB → 52 KB,
    // core 55 KB → 38 KB, stdio 20 KB → 13 KB; importing client + stdio took ~0.8 ms less, 30
    // alternating runs). Names are not mangled, so stack traces name the real functions; their
    // line:column points into the minified code, and the source maps next to each file (with the
    // sources) map it back (`node --enable-source-maps`). No keepNames wrappers either: they would
    // stop a consumer's bundler from dropping the exports it does not use (+2.5 KB gzip).
    minifyWhitespace: true,
    minifySyntax: true,
    // Node prints the source line of an uncaught error's throw site; on a one-line bundle that is
    // the whole file (50 KB of core). Lines are broken near 160 characters instead, which the
    // parser does not notice (import time within noise, 30 alternating runs).
    lineLimit: 160,
    // The generated validators' names say nothing anyway (validate52, vErrors, instancePath), so
    // there they are shortened too: v1's file goes from 362 KB to 254 KB, and loading it in a fresh
    // process took 4.2 ms instead of 4.8 ms. Exported names stay as they are.
    ...(isGeneratedValidators(entrySource) ? { minifyIdentifiers: true } : {}),
    sourcemap: true,
    sourcesContent: true,
    metafile: true,
    logLevel: "warning",
    tsconfig: join(packageDir, "tsconfig.build.json"),
  });
  results.push({ entrySource, result });
}

// Which entries each of the package's own modules was copied into.
const copies = new Map();
for (const { entrySource, result } of results) {
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0 || !input.startsWith("src/") || ownCopyAllowed(entrySource, join(packageDir, input))) continue;
      copies.set(input, [...(copies.get(input) ?? []), relative(packageDir, entrySource)]);
    }
  }
}
const duplicated = [...copies].filter(([, into]) => into.length > 1);
if (duplicated.length > 0) {
  const list = duplicated.map(([input, into]) => `  ${input} is in ${into.join(" and ")}`).join("\n");
  throw new Error(`bundle-package ${manifest.name}: modules copied into more than one entry (import them through an entry):\n${list}`);
}

const written = results.flatMap(({ result }) => Object.keys(result.metafile.outputs)).filter((file) => file.endsWith(".js"));
for (const target of entries) {
  const file = join(packageDir, target);
  if (!existsSync(file) || statSync(file).size === 0) throw new Error(`bundle-package ${manifest.name}: ${target} was not written`);
}
console.log(`bundle-package ${manifest.name}: ${entries.length} entries, ${written.length} files`);
