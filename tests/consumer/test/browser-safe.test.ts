// The browser-safe packages must not pull in Node: their built output (what users import) is
// scanned for any `node:` import and any bare import of a Node built-in. They are also compiled
// with `types: []` and the DOM lib (tsconfig.build.json), so a Node API fails their build.
import { builtinModules } from "node:module";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * Built files users import from each browser-safe package (the WebSocket package: its browser entry
 * and the chunks it shares with the Node entry; the client: all but its Node entry). Packages are
 * bundled per entry (scripts/bundle-package.mjs): code shared by two entries sits in dist/chunks.
 */
const BROWSER_SAFE: Record<string, (file: string) => boolean> = {
  schema: () => true,
  core: () => true,
  agent: () => true,
  // Its Node-only entry (@acpkit/client/node: the terminal host) lives in dist/node.
  client: (file) => !file.startsWith("node/"),
  "transport-memory": () => true,
  "transport-websocket": (file) => file === "browser.js" || file.startsWith("chunks/"),
};

const builtins = new Set(builtinModules.filter((name) => !name.startsWith("_")));
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsFiles(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

describe("browser-safe packages import nothing from Node", () => {
  it.each(Object.entries(BROWSER_SAFE))("@acpkit/%s", (name, include) => {
    const dist = join(repoRoot, "packages", name, "dist");
    expect(existsSync(join(dist, "index.js")), `${name} is built`).toBe(true);
    const files = jsFiles(dist).filter((file) => include(relative(dist, file)));
    expect(files.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const file of files) {
      for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
        const bare = specifier!.split("/")[0]!;
        if (specifier!.startsWith("node:") || builtins.has(specifier!) || builtins.has(bare) || specifier === "ws")
          found.push(`${relative(repoRoot, file)}: ${specifier}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the scan finds a Node import when there is one (the Node entry of the WebSocket transport)", () => {
    const server = join(repoRoot, "packages", "transport-websocket", "dist", "index.js");
    expect(existsSync(server)).toBe(true);
    const specifiers = [...readFileSync(server, "utf8").matchAll(SPECIFIER)].map((match) => match[1]);
    expect(specifiers).toContain("node:http");
  });
});
