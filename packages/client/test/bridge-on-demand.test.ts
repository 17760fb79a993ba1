// The v1 bridge (@acpkit/core/bridge) is loaded only by a connection that speaks v1: a v2 client
// never loads it (nor, in a browser bundle, downloads it), and a v1 client loads it while
// `initialize` is on its way and uses it (id-less v1 chunks get a message id from it). Checked in
// a fresh process whose every module load is recorded by a resolve hook.
import { fileURLToPath } from "node:url";
import { runProbeRecordingLoads } from "@acpkit/test-support/record-loads";
import { describe, expect, it } from "vitest";

const PROBE = fileURLToPath(new URL("fixtures/bridge-probe.mjs", import.meta.url));

const probe = (version: number) => runProbeRecordingLoads(PROBE, { VERSION: String(version) });

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
