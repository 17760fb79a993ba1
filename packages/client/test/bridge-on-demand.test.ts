// The v1 bridge (@acpkit/core/bridge) is loaded only by a connection that speaks v1: a v2 client
// never loads it (nor, in a browser bundle, downloads it), and a v1 client loads it while
// `initialize` is on its way and uses it (id-less v1 chunks get a message id from it). Checked in
// a fresh process whose every module load is recorded by a resolve hook.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const FIXTURES = fileURLToPath(new URL("fixtures/", import.meta.url));
// The resolve hook that records every module load (shared with the agent's bridge test).
const RECORD_LOADS = createRequire(import.meta.url).resolve("@acpkit/test-support/fixtures/record-loads");
const scratch = mkdtempSync(join(tmpdir(), "acpkit-bridge-probe-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function probe(version: number): Promise<{ report: unknown; loads: string[] }> {
  for (const file of [RECORD_LOADS, join(FIXTURES, "bridge-probe.mjs")]) expect(existsSync(file)).toBe(true);
  const loadsFile = join(scratch, `loads-v${version}.txt`);
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", RECORD_LOADS, join(FIXTURES, "bridge-probe.mjs")], {
    env: { ...process.env, VERSION: String(version), LOADS_FILE: loadsFile },
  });
  return {
    report: JSON.parse(stdout),
    loads: readFileSync(loadsFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { url: string }).url),
  };
}

const isBridge = (url: string) => url.endsWith("/core/dist/bridge/index.js");

describe("the v1 bridge loads only on v1", () => {
  it("a v2 connection never loads it", async () => {
    const { report, loads } = await probe(2);
    expect(report).toEqual({ negotiated: 2, text: ["bridge probe"] });
    // The hook saw the client load its modules, so an absent bridge means something.
    expect(loads.some((url) => url.endsWith("/client/dist/index.js"))).toBe(true);
    expect(loads.filter(isBridge)).toEqual([]);
  });

  it("a v1 connection loads it and converts through it", async () => {
    const { report, loads } = await probe(1);
    expect(report).toEqual({ negotiated: 1, text: ["bridge probe"] });
    expect(loads.filter(isBridge)).toHaveLength(1);
  });
});
