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
 * Built files users import from each browser-safe package: every file, except the client's
 * Node-only entry, and for the WebSocket and HTTP packages their browser entry and the package files that
 * entry imports (packages are bundled one file per entry, and an entry imports the modules it
 * shares with another from that entry's file: scripts/bundle-package.mjs).
 */
const BROWSER_SAFE: Record<string, (dist: string) => string[]> = {
  schema: (dist) => jsFiles(dist),
  core: (dist) => jsFiles(dist),
  agent: (dist) => jsFiles(dist),
  // Its Node-only entry (@acpkit/client/node: the terminal host) lives in dist/node.
  client: (dist) => jsFiles(dist).filter((file) => !relative(dist, file).startsWith("node/")),
  "transport-memory": (dist) => jsFiles(dist),
  "transport-websocket": (dist) => withRelativeImports(join(dist, "browser.js")),
  "transport-http": (dist) => withRelativeImports(join(dist, "browser.js")),
};

const builtins = new Set(builtinModules.filter((name) => !name.startsWith("_")));
// The built files are minified (scripts/bundle-package.mjs), so no space is required anywhere:
// `import{a}from"x"`, `import"x"`, `import("x")`; and `process.getBuiltinModule("node:x")`, the way
// the Node-only code fetches a built-in where it is needed (transport-stdio, the WebSocket server).
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*|\brequire\s*\(\s*|\bgetBuiltinModule\s*\(\s*)["']([^"']+)["']/g;

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsFiles(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

/** `entry` and every file it reaches through relative imports (static or dynamic). */
function withRelativeImports(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    expect(existsSync(file), `${relative(repoRoot, file)} exists`).toBe(true);
    seen.add(file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (specifier!.startsWith("./") || specifier!.startsWith("../")) visit(join(dirname(file), specifier!));
    }
  };
  visit(entry);
  return [...seen];
}

describe("browser-safe packages import nothing from Node", () => {
  it.each(Object.entries(BROWSER_SAFE))("@acpkit/%s", (name, filesOf) => {
    const dist = join(repoRoot, "packages", name, "dist");
    expect(existsSync(join(dist, "index.js")), `${name} is built`).toBe(true);
    const files = filesOf(dist);
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
    // `ws` through a dynamic import(), node:http through process.getBuiltinModule (both loaded on first use).
    expect(specifiers).toContain("ws");
    expect(specifiers).toContain("node:http");
  });

  it("follows the browser entry of the WebSocket transport into the file it shares with the Node entry", () => {
    const dist = join(repoRoot, "packages", "transport-websocket", "dist");
    const files = withRelativeImports(join(dist, "browser.js")).map((file) => relative(dist, file));
    expect(files).toEqual(["browser.js", "frame-transport.js"]);
  });
});
