// Scenario bundle: what a browser client downloads. The client and the browser WebSocket
// transport (acpkit), or the official SDK's client and its WebSocket stream, bundled for the
// browser with esbuild (code splitting on, minified); figures in KB (1000 bytes) raw and
// gzipped. `minified`/`gzip` are the initial load: the entry chunk and the chunks it imports
// statically. acpkit's per-version validators are chunks loaded when a version is negotiated
// (`lazy-gzip`: the largest one, what a connection adds).
import { mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import type { ImplName } from "../lib/impl.js";
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

/** What each web client imports: the client and its WebSocket transport. */
export const ENTRIES: Partial<Record<ImplName, string>> = {
  acpkit: 'export { connectAgent } from "@acpkit/client"; export { connect } from "@acpkit/transport-websocket";',
  official: 'export * from "@agentclientprotocol/sdk"; export { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";',
};

const SCRATCH = fileURLToPath(new URL("../.scratch/bundle/", import.meta.url));

interface BundleSizes {
  /** The entry chunk and its static imports. */
  bytes: number;
  gzip: number;
  /** The largest chunk loaded later (dynamic import), gzipped; 0 when there is none. */
  lazyGzip: number;
}

/** One esbuild build of an entry: its output files, split into the initial load and the lazy chunks. */
export interface BundleLoad {
  /** Output file names of the initial load: the entry's own chunk first, then its static imports. */
  initialFiles: string[];
  /** The initial load's code, concatenated. */
  initial: Buffer;
  /** Each chunk loaded later (dynamic import), by output file name. */
  lazy: Map<string, Uint8Array>;
}

/** Bundle `contents` as the web client `impl` ships it (esbuild, splitting, minified, browser). */
export async function bundleLoad(impl: string, contents: string): Promise<BundleLoad> {
  mkdirSync(SCRATCH, { recursive: true });
  const entry = `${SCRATCH}${impl}-entry.mjs`;
  writeFileSync(entry, contents);
  const result = await build({
    entryPoints: [entry],
    nodePaths: [fileURLToPath(new URL("../node_modules", import.meta.url))],
    bundle: true,
    minify: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    outdir: `${SCRATCH}${impl}-out`,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const contentsOf = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const outputs = result.metafile!.outputs;
  const paths = Object.keys(outputs);
  const fileName = (path: string) => path.split("/").at(-1)!;
  const absolute = (path: string) => [...contentsOf.keys()].find((key) => key.endsWith(`/${fileName(path)}`))!;
  // The scratch entry's own output: with splitting, each dynamic import (the bridge, each version's
  // validators) is an entry point of its own too, and the first of those is not the initial load.
  const entryPath = paths.find((path) => outputs[path]!.entryPoint?.endsWith(`${impl}-entry.mjs`));
  if (entryPath === undefined) throw new Error(`bundle ${impl}: esbuild produced no output for ${entry}`);
  // The initial load: the entry and everything it imports statically, transitively.
  const initial = new Set<string>();
  const visit = (path: string) => {
    if (initial.has(path)) return;
    initial.add(path);
    for (const imported of (outputs[path] as Metafile["outputs"][string]).imports) if (imported.kind === "import-statement") visit(imported.path);
  };
  visit(entryPath);
  return {
    initialFiles: [...initial].map(fileName),
    initial: Buffer.concat([...initial].map((path) => Buffer.from(contentsOf.get(absolute(path))!))),
    lazy: new Map(paths.filter((path) => !initial.has(path)).map((path) => [fileName(path), contentsOf.get(absolute(path))!])),
  };
}

async function bundleSize(impl: string, contents: string): Promise<BundleSizes> {
  const load = await bundleLoad(impl, contents);
  const lazy = [...load.lazy.values()].map((code) => gzipSync(code, { level: 9 }).length);
  return { bytes: load.initial.length, gzip: gzipSync(load.initial, { level: 9 }).length, lazyGzip: Math.max(0, ...lazy) };
}

export const bundleScenario: Scenario = {
  names: ["bundle"],
  impls: ["acpkit", "official"],
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const records: BenchRecord[] = [];
    for (const [impl, entry] of Object.entries(ENTRIES) as [ImplName, string][]) {
      const base = { scenario: "bundle", impl, n: 1, better: "lower" as const, unit: "KB" };
      try {
        // Built twice: a bundle is deterministic, so the second build checks that it is.
        const sizes = [await bundleSize(impl, entry), await bundleSize(impl, entry)];
        records.push(
          recordFromSamples(
            { ...base, metric: "minified" },
            sizes.map((size) => size.bytes / 1000),
          ),
        );
        records.push(
          recordFromSamples(
            { ...base, metric: "gzip" },
            sizes.map((size) => size.gzip / 1000),
          ),
        );
        if (sizes[0]!.lazyGzip > 0) {
          records.push(
            recordFromSamples(
              { ...base, metric: "lazy-gzip" },
              sizes.map((size) => size.lazyGzip / 1000),
            ),
          );
        }
        config.log(
          `  bundle ${impl}: initial ${(sizes[0]!.bytes / 1000).toFixed(0)} KB minified, ${(sizes[0]!.gzip / 1000).toFixed(1)} KB gzip; largest lazy chunk ${(sizes[0]!.lazyGzip / 1000).toFixed(1)} KB gzip`,
        );
      } catch (error) {
        records.push(skippedRecord({ ...base, metric: "minified" }, failureReason(error)), skippedRecord({ ...base, metric: "gzip" }, failureReason(error)));
      }
    }
    return records;
  },
};
