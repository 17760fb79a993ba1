// runClientPeerCommand, the checking agent's command line (what `acpkit __check-peer` and the
// peer's own process entry run): bad arguments are exit 2 with what is missing; a scenario plays
// and its log says what it saw.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runClientPeerCommand } from "../src/index.js";

describe("runClientPeerCommand", () => {
  it("is exit 2 naming the scenarios for a missing or unknown scenario, and a missing log", async () => {
    for (const argv of [[], ["--scenario", "nope", "--log", "x"], ["--scenario", "basic"]]) {
      let written = "";
      const code = await runClientPeerCommand(argv, { write: (text: string) => (written += text) }, "peer");
      expect(code, argv.join(" ")).toBe(2);
      expect(written).toBe("peer: needs --scenario (basic, lower-version, cancel, slow, agent-exit) and --log FILE\n");
    }
  });

  it("plays a scenario as a process once the arguments are right: with no client input it exits 0 and marks its log done", async () => {
    const dir = mkdtempSync(join(tmpdir(), "acpkit-peer-"));
    try {
      const log = join(dir, "basic.ndjson");
      const { spawnSync } = await import("node:child_process");
      const main = new URL("../dist/client/peer-main.js", import.meta.url).pathname;
      const result = spawnSync(process.execPath, [main, "--scenario", "basic", "--log", log], { input: "", encoding: "utf8" });
      expect(result.status).toBe(0);
      expect(readFileSync(`${log}.done`, "utf8")).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
