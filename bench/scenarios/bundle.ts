// Scenario bundle: what a browser client downloads. The client and the browser WebSocket
// transport (acpkit), or the official SDK's client and its WebSocket stream, bundled for the
// browser with esbuild, minified; figures in KB (1000 bytes) raw and gzipped.
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { ImplName } from "../lib/impl.js";
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const ENTRIES: Partial<Record<ImplName, string>> = {
  acpkit: 'export { connectAgent } from "@acpkit/client"; export { connect } from "@acpkit/transport-websocket";',
  official: 'export * from "@agentclientprotocol/sdk"; export { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";',
};

async function bundleSize(contents: string): Promise<{ bytes: number; gzip: number }> {
  const result = await build({
    stdin: { contents, resolveDir: fileURLToPath(new URL("..", import.meta.url)), loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  return { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length };
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
        const sizes = [await bundleSize(entry), await bundleSize(entry)];
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
        config.log(`  bundle ${impl}: ${(sizes[0]!.bytes / 1000).toFixed(0)} KB minified, ${(sizes[0]!.gzip / 1000).toFixed(1)} KB gzip`);
      } catch (error) {
        records.push(skippedRecord({ ...base, metric: "minified" }, failureReason(error)), skippedRecord({ ...base, metric: "gzip" }, failureReason(error)));
      }
    }
    return records;
  },
};
