// The v1 bridge (@acpkit/core/bridge) is loaded only by an agent connection that speaks v1: an
// agent serving a v2 client never loads it, and one serving a v1 client loads it right after
// answering initialize (load-on-initialize.test.ts checks that order), and converts through it (v1 MCP servers get their
// `type`, chunks go out as v1 updates). Checked in a fresh process whose every module load is
// recorded by a resolve hook.
import { fileURLToPath } from "node:url";
import { runProbeRecordingLoads } from "@acpkit/test-support/record-loads";
import { describe, expect, it } from "vitest";

const PROBE = fileURLToPath(new URL("fixtures/bridge-probe.mjs", import.meta.url));

const probe = (version: number) => runProbeRecordingLoads(PROBE, { VERSION: String(version) });

const isBridge = (url: string) => url.endsWith("/core/dist/bridge/index.js");
const server = { name: "files", command: "/bin/mcp", args: [], env: [] };

describe("the agent loads the v1 bridge only on v1", () => {
  it("serving a v2 client, it never loads it", async () => {
    const { report, loads } = await probe(2);
    expect(report).toEqual({ negotiated: 2, servers: [{ type: "stdio", ...server }], text: "bridge probe" });
    // The hook saw the agent load its modules, so an absent bridge means something.
    expect(loads.some((url) => url.endsWith("/agent/dist/index.js"))).toBe(true);
    expect(loads.filter(isBridge)).toEqual([]);
  });

  it("serving a v1 client, it loads it once and converts through it", async () => {
    const { report, loads } = await probe(1);
    expect(report).toEqual({ negotiated: 1, servers: [{ type: "stdio", ...server }], text: "bridge probe" });
    expect(loads.filter(isBridge)).toHaveLength(1);
  });
});
