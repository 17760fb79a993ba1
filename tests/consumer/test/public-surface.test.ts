// The shape of the published declarations: the bridge and the transport kit live on subpaths of
// @acpkit/core, and the agent runtime is not reachable through its public types. Everything each
// entry exports is pinned by the committed API reports (api/*.api.md, `pnpm api:check` in CI),
// which replaced a list of member names that had to stay hidden.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const packages = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "packages");

function declarations(pkg: string, file: string): string {
  const path = join(packages, pkg, "dist", file);
  expect(existsSync(path), `${pkg}/dist/${file} is built`).toBe(true);
  return readFileSync(path, "utf8");
}

describe("published declarations", () => {
  it("@acpkit/core's root entry leaves the bridge, the later-v2 codecs and the transport kit to their subpaths", () => {
    const root = declarations("core", "index.d.ts");
    expect(root).not.toMatch(/bridge\/index\.js|later-v2\/index\.js|transport-kit\.js/);
    const manifest = JSON.parse(readFileSync(join(packages, "core", "package.json"), "utf8"));
    expect(Object.keys(manifest.exports)).toEqual([".", "./bridge", "./later-v2", "./transport-kit", "./package.json"]);
    expect(declarations("core", "later-v2/index.d.ts")).toContain("LaterV2AgentCodec");
    expect(declarations("core", "bridge/index.d.ts")).toContain("AgentSideV1Bridge");
    expect(declarations("core", "transport-kit.d.ts")).toContain("encodeMessage");
  });

  // Every import of an @acpkit package walks its `exports` map, and Node 20 pays for each condition
  // it tries: plain string targets cut about a millisecond from importing the client and the stdio
  // transport (docs/performance.md, "Import and cold start"). TypeScript finds the .d.ts next to each .js, which
  // the NodeNext and bundler projects of consumer.test.ts type-check.
  it.each(["agent", "cli", "client", "core", "inspector", "schema", "transport-memory", "transport-stdio"])(
    "@acpkit/%s maps each export to a plain file (no conditions to walk)",
    (pkg) => {
      const path = join(packages, pkg, "package.json");
      expect(existsSync(path), path).toBe(true);
      const exported = Object.entries(JSON.parse(readFileSync(path, "utf8")).exports as Record<string, unknown>);
      expect(exported.length).toBeGreaterThan(1);
      for (const [subpath, target] of exported) {
        expect(typeof target, `${pkg} exports["${subpath}"]`).toBe("string");
        expect(existsSync(join(packages, pkg, target as string)), `${pkg} exports["${subpath}"] -> ${target}`).toBe(true);
      }
    },
  );

  it("@acpkit/core/transport-kit hands out the main entry's AcpError and the one copy of the helpers (built files)", () => {
    const kit = join(packages, "core", "dist", "transport-kit.js");
    const main = join(packages, "core", "dist", "index.js");
    for (const file of [kit, main]) expect(existsSync(file), file).toBe(true);
    // In a plain Node process, as users load them (vitest's module runner may evaluate a module
    // twice when two imports of it race, which Node's module map never does).
    const script = `
      const [kit, main] = await Promise.all([import(${JSON.stringify(pathToFileURL(kit).href)}), import(${JSON.stringify(pathToFileURL(main).href)})]);
      const names = Object.keys(kit);
      const carried = main.__transportKit;
      console.log(JSON.stringify({
        names,
        same: names.filter((name) => kit[name] === (name === "AcpError" ? main.AcpError : carried[name])),
        alsoInMain: names.filter((name) => name !== "AcpError" && name in main),
        isV2: main.isProtocolVersion(2),
      }));`;
    const report = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })) as {
      names: string[];
      same: string[];
      alsoInMain: string[];
      isV2: boolean;
    };
    expect(report.names).toContain("AcpError");
    expect(report.names).toContain("encodeMessage");
    expect(report.names).toContain("wrapTransport");
    // One copy: the kit's functions are the ones the main entry carries, and the main entry's API
    // names none of them (transport-author code lives on the subpath only).
    expect(report.same).toEqual(report.names);
    expect(report.alsoInMain).toEqual([]);
    expect(report.isV2).toBe(true);
  });

  it("serveAgent's runtime class is not exported; its result is the AgentServer interface", () => {
    const serve = declarations("agent", "serve.d.ts");
    expect(serve).toContain("export interface AgentServer");
    expect(serve).not.toMatch(/export declare class AgentRuntime/);
  });
});
