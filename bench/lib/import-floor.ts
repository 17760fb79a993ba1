// The floor under an import-cost figure: what Node itself charges to load a module graph. The
// cold-start scenario records the graph that `import-cost.mjs acpkit` walks (every resolution,
// through a resolve hook), then rebuilds it in a temporary directory with the same package.json
// files (so the same `exports` maps are resolved) and the same files, each emptied down to its
// import statements. Importing that copy costs what resolving, reading, linking and evaluating
// the graph costs with no code in it; acpkit's import minus the floor is the part its code adds.
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
// Reached by path: the bench is private and never published.
import { runRecordingLoads, type LoadEdge } from "../../test-support/record-loads.js";

/** One resolution: `specifier`, imported from `parent`, resolved to `url`. */
export type ImportEdge = LoadEdge;

/** Every resolution made while `node script ...args` runs. */
export async function recordImportGraph(script: string, args: readonly string[]): Promise<ImportEdge[]> {
  return (await runRecordingLoads(script, args)).edges;
}

/** The directory of the nearest package.json above `file`, with that package's name. */
function packageOf(file: string): { root: string; name: string } {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
      if (typeof name !== "string") throw new Error(`import floor: ${manifest} has no name`);
      return { root: dir, name };
    }
  }
  throw new Error(`import floor: no package.json above ${file}`);
}

export interface ImportFloor {
  /** The copy of the entry script inside the floor (run it as the original is run). */
  script: string;
  /** Every emptied module, by its path inside the floor, with the specifiers it imports. */
  modules: Map<string, string[]>;
  remove(): Promise<void>;
}

/**
 * Rebuild `edges` (recorded while running `entry`) under a temporary directory: the entry script is
 * copied as it is; every other file module becomes `import "<specifier>";` lines for the specifiers
 * it resolved, inside `node_modules/<its package name>/` next to a copy of its package.json.
 */
export async function buildImportFloor(entry: string, edges: readonly ImportEdge[]): Promise<ImportFloor> {
  const entryUrl = edges.find((edge) => edge.parent === null || edge.parent === undefined)?.url;
  if (entryUrl === undefined || fileURLToPath(entryUrl) !== entry) throw new Error(`import floor: the recorded graph does not start at ${entry}`);
  const imports = new Map<string, string[]>();
  for (const edge of edges) {
    if (!edge.url.startsWith("file:") || edge.url === entryUrl) continue;
    imports.set(edge.url, imports.get(edge.url) ?? []);
    if (edge.parent !== null && edge.parent !== entryUrl && edge.parent.startsWith("file:")) {
      const list = imports.get(edge.parent) ?? [];
      if (!list.includes(edge.specifier)) list.push(edge.specifier);
      imports.set(edge.parent, list);
    }
  }
  const dir = await mkdtemp(join(tmpdir(), "acpkit-import-floor-"));
  const modules = new Map<string, string[]>();
  try {
    const script = join(dir, "entry.mjs");
    await copyFile(entry, script);
    for (const [url, specifiers] of imports) {
      const file = fileURLToPath(url);
      const pkg = packageOf(file);
      const target = join(dir, "node_modules", pkg.name, relative(pkg.root, file));
      await mkdir(dirname(target), { recursive: true });
      const manifest = join(dir, "node_modules", pkg.name, "package.json");
      if (!existsSync(manifest)) await copyFile(join(pkg.root, "package.json"), manifest);
      await writeFile(target, specifiers.map((specifier) => `import ${JSON.stringify(specifier)};\n`).join(""));
      modules.set(target, specifiers);
    }
    return { script, modules, remove: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
