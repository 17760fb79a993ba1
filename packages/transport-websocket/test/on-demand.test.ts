// Importing @acpkit/transport-websocket on Node loads neither `ws` nor node:http/node:crypto: they
// load on the first connect() or listen() (src/load-ws.ts, src/server.ts). Before, the import
// alone took 60–100 ms on Node 20, paid by every application that imports the package, used or
// not (docs/performance.md, "Import and cold start").
import { fileURLToPath } from "node:url";
import { runProbeRecordingLoads } from "@acpkit/test-support/record-loads";
import { describe, expect, it } from "vitest";

const PROBE = fileURLToPath(new URL("fixtures/on-demand-probe.mjs", import.meta.url));

interface Builtins {
  http: boolean;
  crypto: boolean;
}
interface ProbeReport {
  afterImport: Builtins;
  echoed?: unknown;
  afterUse?: Builtins;
}

const isWs = (url: string) => /\/ws@|\/node_modules\/ws\//.test(url);

describe("@acpkit/transport-websocket loads ws and the HTTP server on first use", () => {
  it("importing the package loads neither", async () => {
    const { report, loads } = await runProbeRecordingLoads(PROBE);
    expect(loads.some((url) => url.includes("/transport-websocket/dist/index.js"))).toBe(true);
    expect(loads.filter(isWs)).toEqual([]);
    expect((report as ProbeReport).afterImport).toEqual({ http: false, crypto: false });
  });

  it("listen() and connect() then load them and work as before", async () => {
    const { report, loads } = await runProbeRecordingLoads(PROBE, { USE: "1" });
    const { echoed, afterUse } = report as ProbeReport;
    expect(echoed).toEqual({ jsonrpc: "2.0", method: "probe/echo", params: {} });
    expect(afterUse).toEqual({ http: true, crypto: true });
    expect(loads.filter(isWs).length).toBeGreaterThan(0);
  });
});
