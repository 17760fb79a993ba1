// Each protocol version's validators load only when that version is spoken: in a fresh process
// (nothing loaded up front), a v2-only agent and a
// v2 client load v2's and never v1's; a v1 agent answering a v2 offer makes the client load v1's.
// Importing the runtimes loads none of the schema package's validation code either
// (@acpkit/schema/lazy): core imports it with the first version it loads.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const PROBE = fileURLToPath(new URL("fixtures/lazy-probe.mjs", import.meta.url));

async function probe(offer: number, agentVersions: string) {
  expect(existsSync(PROBE)).toBe(true);
  const { stdout } = await promisify(execFile)(process.execPath, [PROBE], { env: { ...process.env, OFFER: String(offer), AGENT_VERSIONS: agentVersions } });
  return JSON.parse(stdout) as {
    atStart: number[];
    handDrivenBeforeReady: boolean;
    handDrivenAfterReady: boolean;
    negotiated: number;
    stopReason: string;
    text: string[];
    afterTurn: number[];
  };
}

describe("validators load per negotiated version", () => {
  it("a v2 connection loads v2's validators only", async () => {
    const report = await probe(2, "2");
    expect(report).toEqual({
      atStart: [],
      negotiated: 2,
      stopReason: "end_turn",
      text: ["lazy hello"],
      afterTurn: [2],
      // Before @acpkit/core 0.2 a hand-driven Connection threw until its user loaded the version.
      handDrivenBeforeReady: false,
      handDrivenAfterReady: true,
    });
  });

  it("a v1 connection loads v1's validators only", async () => {
    const report = await probe(1, "1");
    expect(report).toMatchObject({
      atStart: [],
      negotiated: 1,
      stopReason: "end_turn",
      text: ["lazy hello"],
      afterTurn: [1],
    });
  });

  it("a v1 agent answering a v2 offer: the client loads v1's too and the turn works", async () => {
    const report = await probe(2, "1");
    expect(report.negotiated).toBe(1);
    expect(report.stopReason).toBe("end_turn");
    expect(report.text).toEqual(["lazy hello"]);
    expect(report.afterTurn).toContain(1);
  });
});

describe("a starting process loads nothing of @acpkit/schema", () => {
  // The runtimes' built files name the schema package only in core's one dynamic import (the
  // validation code, loaded with the first negotiated version); what core needs before that is its
  // generated copy of the method tables. A static import here would load and compile the schema
  // package in every process that imports @acpkit/client.
  const packages = ["core", "agent", "client", "transport-memory", "transport-stdio", "transport-websocket"];

  it.each(packages)("@acpkit/%s's built files import it only dynamically", (name) => {
    const dist = fileURLToPath(new URL(`../../${name}/dist/`, import.meta.url));
    const files = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(join(dist, file), "utf8");
      expect(text, file).not.toMatch(/(?:from|import)\s*["']@acpkit\/schema/);
      const dynamic = text.match(/import\(\s*["']@acpkit\/schema[^"']*["']\s*\)/g) ?? [];
      expect(dynamic, file).toEqual(name === "core" && file === "index.js" ? ['import("@acpkit/schema/lazy")'] : []);
    }
  });
});
