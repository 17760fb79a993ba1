// The import floor (lib/import-floor.ts) must be the graph `import-cost.mjs acpkit` really walks,
// emptied: every module it loaded, each importing exactly what the original resolved, and nothing
// of acpkit's code left in it.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildImportFloor, recordImportGraph, type ImportEdge, type ImportFloor } from "../lib/import-floor.js";

const ENTRY = fileURLToPath(new URL("../coldstart/import-cost.mjs", import.meta.url));
let edges: ImportEdge[] = [];
let floor: ImportFloor;

beforeAll(async () => {
  expect(existsSync(ENTRY)).toBe(true);
  edges = await recordImportGraph(ENTRY, ["acpkit"]);
  floor = await buildImportFloor(ENTRY, edges);
}, 60_000);

afterAll(async () => {
  await floor?.remove();
});

describe("import floor", () => {
  it("records the graph of importing @acpkit/client and @acpkit/transport-stdio", () => {
    const fromEntry = edges.filter((edge) => edge.parent !== null && fileURLToPath(edge.parent) === ENTRY).map((edge) => edge.specifier);
    expect(fromEntry).toEqual(["@acpkit/client", "@acpkit/transport-stdio"]);
    // Both packages reach core. Core carries its own copy of the schema's small methods entry, and
    // its validation code (the lazy entry) is not imported until a version is loaded.
    expect(edges.some((edge) => edge.specifier === "@acpkit/core")).toBe(true);
    expect(edges.filter((edge) => edge.specifier.startsWith("@acpkit/schema"))).toEqual([]);
  });

  it("has one emptied module per file the real import loaded, importing what the original resolved", () => {
    const loaded = new Set(edges.filter((edge) => edge.url.startsWith("file:") && fileURLToPath(edge.url) !== ENTRY).map((edge) => edge.url));
    expect(floor.modules.size).toBe(loaded.size);
    for (const [file, specifiers] of floor.modules) {
      expect(readFileSync(file, "utf8")).toBe(specifiers.map((specifier) => `import ${JSON.stringify(specifier)};\n`).join(""));
    }
    const client = [...floor.modules].find(([file]) => file.endsWith("node_modules/@acpkit/client/dist/index.js"));
    expect(client?.[1]).toContain("@acpkit/core");
  });

  it("keeps each package's exports map, so the same subpaths resolve", () => {
    // The schema package is not in the graph any more: core carries its own copy of the methods entry.
    for (const name of ["@acpkit/client", "@acpkit/core", "@acpkit/transport-stdio"]) {
      const manifest = fileURLToPath(new URL(`node_modules/${name}/package.json`, `file://${floor.script}`));
      expect(JSON.parse(readFileSync(manifest, "utf8")).name).toBe(name);
    }
  });

  it("imports in a fresh process and prints the time it took", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [floor.script, "acpkit"]);
    const ms = Number(stdout.trim());
    expect(Number.isFinite(ms) && ms > 0).toBe(true);
  });

  it("refuses a graph that does not start at the entry it is given", async () => {
    await expect(buildImportFloor("/elsewhere/entry.mjs", edges)).rejects.toThrow(/does not start at \/elsewhere\/entry\.mjs/);
  });
});
