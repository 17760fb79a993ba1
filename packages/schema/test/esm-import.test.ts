// Imports the BUILT package the way a user does: plain Node ESM, `import "@acpkit/schema"`
// (package self-reference through its "exports"), and the generated validator module by file.
// Needs `tsc -p tsconfig.build.json` first (turbo builds before test).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const packageDir = join(import.meta.dirname, "..");
const dist = join(packageDir, "dist");

function runModule(source: string): unknown {
  const stdout = execFileSync(process.execPath, ["--input-type=module", "-e", source], { cwd: packageDir, encoding: "utf8" });
  return JSON.parse(stdout);
}

describe("the built package as ESM", () => {
  it("has been built", () => {
    expect(existsSync(join(dist, "index.js")), "run `npx tsc -p tsconfig.build.json` in packages/schema first").toBe(true);
  });

  it("ships generated validators with no require() and no runtime dependency", () => {
    for (const version of ["v1", "v2"]) {
      const code = readFileSync(join(dist, "generated", version, "validators.js"), "utf8");
      expect(code).not.toMatch(/\brequire\s*\(/);
      expect(code).not.toMatch(/from\s+["'](?!\.)/);
    }
  });

  it('validates through `import ... from "@acpkit/schema"`', () => {
    const result = runModule(`
      import { validateParams, PROTOCOL_VERSIONS, methods } from "@acpkit/schema";
      const ok = validateParams(2, "session/update", { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "hi" } } });
      const bad = validateParams(1, "session/update", { sessionId: "s", update: { sessionUpdate: "agent_message_chunk" } });
      console.log(JSON.stringify({ versions: PROTOCOL_VERSIONS, ok, bad, count: methods(1).size }));
    `);
    expect(result).toEqual({
      versions: [1, 2],
      ok: { valid: true },
      bad: { valid: false, errors: [{ path: "/update/content", message: "must have required property 'content'" }] },
      count: expect.any(Number),
    });
  });

  it("runs a generated validator module imported by path", () => {
    const result = runModule(`
      import * as v2 from "./dist/generated/v2/validators.js";
      const good = v2.SessionNotification({ sessionId: "s", update: { sessionUpdate: "_acme/x" } });
      const bad = v2.SessionNotification({ sessionId: "s", update: { sessionUpdate: "plan_update", plan: {} } });
      console.log(JSON.stringify({ good, bad, error: v2.SessionNotification.errors?.[0]?.instancePath }));
    `);
    expect(result).toEqual({ good: true, bad: false, error: "/update/plan" });
  });
});
